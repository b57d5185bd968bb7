/**
 * The fuzz run covers every operation (issue 21, item 4). It reads its operations from the two
 * OpenAPI documents, so an operation is missing from it when a route is served under `/v0` or
 * `/client/v1` without being documented, or when the run's world cannot call it (a security scheme
 * with no credential, a path parameter with no real id to name). Each of those fails here, so a new
 * operation cannot slip past the fuzz run unnoticed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardWorld } from '../blocks/setup.ts';
import { loadOperations, type FuzzTarget } from '../../fuzz/openapi-fuzz.ts';
import { startFuzzWorld } from '../../fuzz/world.ts';

let world: BoardWorld;
let target: FuzzTarget;
let operations: Awaited<ReturnType<typeof loadOperations>>;
beforeAll(async () => {
  ({ world, target } = await startFuzzWorld());
  operations = await loadOperations(target.url);
});
afterAll(async () => world?.stop());

const BASES = ['/client/v1', '/v0'];
/** Served under the API bases but not operations: the documents themselves and the relay's WebSocket upgrade. */
const NOT_OPERATIONS = new Set(['GET /client/v1/openapi.json', 'GET /v0/openapi.json']);

/**
 * Parameters the world makes no real thing for yet (each needs a flow of its own: a decision, a
 * call, a finished delivery, a stream…): their requests name random ids and reach the lookup's 404.
 * The list only shrinks.
 */
const RANDOM_IDS_ONLY = new Set([
  'DELETE /client/v1/apps/{appId}/ci-identities/{identityId}: identityId',
  'POST /client/v1/apps/{appId}/domains/{domain}/verify: domain',
  'DELETE /client/v1/apps/{appId}/domains/{domain}: domain',
  'GET /client/v1/decisions/{decisionId}: decisionId',
  'PATCH /client/v1/decisions/{decisionId}: decisionId',
  'GET /client/v1/calls/{callId}: callId',
  'PUT /client/v1/calls/{callId}/recap: callId',
  'GET /client/v1/apps/{appId}/deliveries/{deliveryId}: deliveryId',
  'POST /client/v1/apps/{appId}/deliveries/{deliveryId}/redeliver: deliveryId',
  'POST /client/v1/messages/{messageId}/references/{referenceId}/click: referenceId',
  'POST /client/v1/notifications/{notificationId}/read: notificationId',
  'PATCH /client/v1/memories/{memoryId}: memoryId',
  'DELETE /client/v1/memories/{memoryId}: memoryId',
  'POST /client/v1/streams/{streamId}/revoke: streamId',
  'POST /client/v1/streams/{streamId}/unrevoke: streamId',
  'GET /client/v1/invocations/{invocationId}: invocationId',
  'POST /client/v1/invocations/{invocationId}/share: invocationId',
  'POST /client/v1/invocations/{invocationId}/dismiss: invocationId',
  'GET /v0/apps/{app_id}/logs/{line_id}/profile: line_id',
  'GET /v0/apps/{app_id}/errors/{group_id}: group_id',
  'POST /v0/apps/{app_id}/schedules/{name}/run: name',
  'POST /v0/apps/{app_id}/deliveries/{delivery_id}/replay: delivery_id',
]);

describe('fuzz coverage', () => {
  it('every route served under /client/v1 and /v0 is an operation of the documents the run reads', () => {
    const documented = new Set(operations.map((op) => op.id));
    const served = world.stack.controlPlane.app.routes
      .filter((r) => r.method !== 'ALL' && BASES.some((b) => r.path.startsWith(`${b}/`)))
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`)
      .filter((id) => !NOT_OPERATIONS.has(id));
    expect(served.length).toBeGreaterThan(100);
    expect([...new Set(served)].filter((id) => !documented.has(id))).toEqual([]);
  });

  it('the run has a credential for every security scheme an operation names', () => {
    // The operator's scheme has a credential only when the stack has an operator token.
    const optional = world.stack.config.operatorToken === null ? new Set(['operator']) : new Set<string>();
    const missing = operations.flatMap((op) => op.security.filter((s) => target.credentials[s] === undefined && !optional.has(s)).map((s) => `${op.id}: ${s}`));
    expect(missing).toEqual([]);
  });

  it('the run knows a real id for every path parameter, so requests reach past the lookup', () => {
    const missing = operations.flatMap((op) => op.params.filter((p) => p.in === 'path' && (target.ids[p.name] ?? []).length === 0).map((p) => `${op.id}: ${p.name}`));
    // A new operation's parameter belongs in the world's ids (test/fuzz/world.ts), not in this list.
    expect(missing.filter((m) => !RANDOM_IDS_ONLY.has(m))).toEqual([]);
    // And the list holds no entry that has since gained an id or an operation no longer served.
    expect([...RANDOM_IDS_ONLY].filter((m) => !missing.includes(m))).toEqual([]);
  });
});
