/**
 * Two control planes on one database and one Redis, as two replicas behind a load balancer run:
 * no shared disk (each has its own DATA_DIR), so a bundle stored through one is served by the
 * other; a change made through one is seen by the other's caches at once (environment values,
 * signing keys: core/invalidation over Redis pub/sub); and their outbox workers, draining the
 * same table at the same time, deliver every lifecycle event exactly once (row locks, FOR UPDATE
 * SKIP LOCKED). Each check waits on the event it needs (an invalidation heard, a drain finished),
 * never on time.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '@platform/control-plane';
import { sha256Hex } from '../../../control-plane/src/apps/bundles/service.ts';
import { ENV_TOPIC } from '../../../control-plane/src/apps/env-vars/cache.ts';
import { SIGNING_KEYS_TOPIC } from '../../../control-plane/src/apps/tokens/keyring.ts';
import { newEventId } from '../../../control-plane/src/workspace/events/ids.ts';
import { insertOutboxRows } from '../../../control-plane/src/workspace/events/store.ts';
import { startTwin, type Twin } from '../../helpers/fleet.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { describeWithService, postgresState, redisState } from '../../helpers/services.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { createApp } from '../apps/helpers.ts';
import { seedApp, seedInstall, seedWorkspace } from '../lifecycle/fixtures.ts';

const [pg, redis] = await Promise.all([postgresState(), redisState()]);
const both = pg.kind !== 'up' ? pg : redis;

/** Once subscribed: `heard` resolves with the next key invalidated on `topic` as `twin` hears it. */
async function nextInvalidation(twin: Twin, topic: string): Promise<{ heard: Promise<string> }> {
  let heard!: (key: string) => void;
  const next = new Promise<string>((resolve) => {
    heard = resolve;
  });
  const unsubscribe = await twin.controlPlane.invalidation.onInvalidate(topic, (key) => {
    if (key !== null) heard(key);
  });
  return { heard: next.finally(unsubscribe) };
}

describeWithService('two control planes on one Postgres and one Redis', both, () => {
  let a: Stack;
  let b: Twin;

  beforeAll(async () => {
    a = await startStack({ db: 'postgres', kv: 'redis', env: { OUTBOX_BATCH_SIZE: '10' } });
    // Replica B keeps its own time: what it learns of A's key rotation comes from A, not its clock.
    b = await startTwin(a, { clock: createManualClock(a.clock.now()) });
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('serves from one replica a bundle stored through the other (no shared disk)', async () => {
    const bytes = new TextEncoder().encode(`export default {}; // ${randomBytes(8).toString('hex')}\n`);
    const sha256 = sha256Hex(bytes);
    await a.controlPlane.apps.bundles.put(sha256, bytes);
    const res = await fetch(`${b.url}/internal/v1/bundles/${sha256}`, { headers: { authorization: `Bearer ${a.config.runtimeSecret}` } });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it('drops the other replica\'s cached environment when a value changes through one', async () => {
    const ws = await a.createWorkspace();
    const { app } = await createApp(ws.client);
    const onB = () => b.controlPlane.apps.envVars.environmentFor(app.id, 'production');
    expect(await onB()).toEqual({ env: {}, secretEnvKeys: [] });
    const { heard } = await nextInvalidation(b, ENV_TOPIC);
    const put = await a.v0(ws.apiKey).put(`/apps/${app.id}/env/production/REGION`, { value: 'eu', secret: false });
    expect(put.status).toBeLessThan(300);
    expect(await heard).toBe(`${app.id}:production`);
    expect(await onB()).toEqual({ env: { REGION: 'eu' }, secretEnvKeys: [] });
  });

  it('lists a signing key one replica created in the other\'s JWKS at once, whatever the other\'s clock says', async () => {
    const jwks = async (url: string) => ((await (await fetch(`${url}/.well-known/platform/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid).sort();
    const before = await jwks(a.url);
    expect(await jwks(b.url)).toEqual(before);
    const { heard } = await nextInvalidation(b, SIGNING_KEYS_TOPIC);
    a.clock.advance(a.config.tokenKeyRotationMs);
    const after = await jwks(a.url);
    const created = await heard;
    expect(after).toContain(created);
    expect(before).not.toContain(created);
    expect(await jwks(b.url)).toEqual(after);
  });

  describe('outbox workers of both replicas', () => {
    const EVENTS = 300;
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(async () => receiver?.stop());

    it('deliver every event exactly once while draining the same table at the same time', async () => {
      const setup = await seedWorkspace(a);
      const app = await seedApp(a, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiver.url, events: ['post.created'] });
      const installId = await seedInstall(a, { appId: app.id, workspaceId: setup.ws.workspace.id });
      const at = new Date(a.clock.now());
      await insertOutboxRows(a.db, Array.from({ length: EVENTS }, (_, i) => ({
        id: newEventId(), install_id: installId, type: 'post.created', actor: null, created_at: at,
        payload: { post: { id: `msg_${i}`, circleId: setup.publicCircle, conversationId: null, text: `event ${i}`, author: { kind: 'member', id: setup.ws.owner.id, name: 'Olive' }, createdAt: at.toISOString(), version: 1 } },
      })));
      b.clock.set(a.clock.now());

      const [byA, byB] = await Promise.all([a.controlPlane.deliveries.worker.drain(), b.controlPlane.deliveries.worker.drain()]);
      expect(byA + byB).toBe(EVENTS);
      // Both took part: each claimed batches the other skipped.
      expect(byA).toBeGreaterThan(0);
      expect(byB).toBeGreaterThan(0);
      const ids = receiver.requests.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(EVENTS);
      expect(new Set(ids).size).toBe(EVENTS);
      const { rows } = await a.db.query<{ status: string; n: number }>('select status, count(*)::int as n from deliveries where install_id = $1 group by status', [installId]);
      expect(rows).toEqual([{ status: 'delivered', n: EVENTS }]);
    }, 60_000);
  });
});
