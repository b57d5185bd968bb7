// The lean /v0 client (`ctx.api`, no zod) against the checked one: the same routes, the same bytes
// on the wire for valid calls, the same errors for the service's error answers; what differs is
// documented (no local check, answers not re-read) and shown here too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  API_ROUTES, createLeanPlatformClient, createPlatformClient, ErrorBodySchema, isPlatformClientError, type PlatformClient,
} from '@platform/sdk';
import { ROUTE_PATHS } from '../../../sandbox-lib/src/api/route-paths.ts';
import { errorBodyCheck } from '../../../sandbox-lib/src/client/transport.ts';
import { read } from '../../../sandbox-lib/src/delivery/lean/check.ts';

const AT = '2025-01-02T03:04:05.000Z';
const BLOCK = { id: 'blk_1', type: 'counter', props: {}, state: { count: 1 }, revision: 1, version: 2, final: false, circleId: 'cir_1', conversationId: null, createdAt: AT, updatedAt: AT };

interface Sent { url: string; method: string; headers: Record<string, string>; body: string | undefined }

function recording(answer: (url: string) => [number, unknown]) {
  const sent: Sent[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, method: String(init.method), headers: init.headers as Record<string, string>, body: init.body as string | undefined });
    const [status, body] = answer(url);
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

const both = (answer: (url: string) => [number, unknown]) => {
  const checked = recording(answer);
  const lean = recording(answer);
  const options = { baseUrl: 'https://platform.example.com/', token: 'platapp_install' };
  return {
    checked: { api: createPlatformClient({ ...options, fetch: checked.fetch }), sent: checked.sent },
    lean: { api: createLeanPlatformClient({ ...options, fetch: lean.fetch }), sent: lean.sent },
  };
};

const calls: Array<[string, (api: PlatformClient) => Promise<unknown>]> = [
  ['blocks.insert', (api) => api.blocks.insert({ type: 'counter', props: {}, circleId: 'cir_1' })],
  ['blocks.get', (api) => api.blocks.get('blk_1')],
  ['blocks.update', (api) => api.blocks.update('blk_1', { state: { count: 2 }, expectedVersion: 2 }, { token: 'platint_1' })],
  ['blocks.revalidate', (api) => api.blocks.revalidate('blk_1')],
  ['blocks.query', (api) => api.blocks.query()],
  ['memories.add', (api) => api.memories.add({ text: 'We ship on Fridays' })],
  ['search.delete', (api) => api.search.delete({ kind: 'issue', externalId: '42' })],
  ['apps.getManifest', (api) => api.apps.getManifest('app_1', { target: 'preview' })],
  ['apps.mintAccessToken', (api) => api.apps.mintAccessToken('ins_1', { clientId: 'cid', clientSecret: 'sec' })],
  ['jwks', (api) => api.jwks()],
];

describe('the lean client', () => {
  it('has the routes of API_ROUTES, with a body for every method but GET', () => {
    expect(Object.keys(ROUTE_PATHS)).toEqual(Object.keys(API_ROUTES));
    for (const [name, route] of Object.entries(API_ROUTES)) {
      expect(ROUTE_PATHS[name as keyof typeof ROUTE_PATHS]).toEqual({ method: route.method, path: route.path });
      expect('body' in route, name).toBe(route.method !== 'GET');
    }
  });

  it.each(calls)('%s sends what the checked client sends and answers the JSON', async (_name, call) => {
    const { checked, lean } = both(() => [200, BLOCK]);
    // The checked client may refuse the canned answer (it is a block record for every route); the request went out either way.
    await call(checked.api).catch(() => undefined);
    expect(await call(lean.api)).toEqual(BLOCK);
    expect(lean.sent).toEqual(checked.sent);
  });

  it('throws the same error for an error answer of the service', async () => {
    const answers: Array<[number, unknown]> = [
      [403, { _tag: 'PlatformAppScopeMissingError', message: 'Needs blocks:write', path: [], scope: 'blocks:write' }],
      [400, { _tag: 'PlatformApiInvalidRequestError', message: 'The request does not match the schema', issues: [{ path: ['state'], message: 'Required' }] }],
      [502, '<html>bad gateway</html>'],
      [500, { message: 'no tag' }],
    ];
    for (const answer of answers) {
      const { checked, lean } = both(() => answer);
      const a = await checked.api.blocks.get('blk_1').catch((e: unknown) => e);
      const b = await lean.api.blocks.get('blk_1').catch((e: unknown) => e);
      expect(isPlatformClientError(b)).toBe(true);
      expect(b).toMatchObject({ tag: (a as any).tag, status: (a as any).status, message: (a as any).message, path: (a as any).path, body: (a as any).body, local: false });
    }
  });

  it('leaves checking a body to the service (the checked client refuses it locally)', async () => {
    const { checked, lean } = both(() => [400, { _tag: 'PlatformApiInvalidRequestError', message: 'The request does not match the schema', path: ['text'] }]);
    await expect(checked.api.memories.add({ text: '' })).rejects.toMatchObject({ tag: 'PlatformApiInvalidRequestError', local: true });
    expect(checked.sent).toEqual([]);
    await expect(lean.api.memories.add({ text: '' })).rejects.toMatchObject({ tag: 'PlatformApiInvalidRequestError', local: false, path: ['text'] });
    expect(lean.sent).toHaveLength(1);
  });

  it('reads error bodies as ErrorBodySchema does', () => {
    const body = fc.record({
      _tag: fc.oneof(fc.string(), fc.constant(5)), message: fc.oneof(fc.string(), fc.constant(null)),
      path: fc.oneof(fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(true))), fc.constant(undefined)),
      issues: fc.oneof(fc.constant(undefined), fc.array(fc.record({ path: fc.array(fc.oneof(fc.string(), fc.double())), message: fc.string() }), { maxLength: 2 })),
      scope: fc.string(),
    }, { requiredKeys: [] });
    fc.assert(fc.property(fc.oneof(body, fc.anything()), (value) => {
      const zod = ErrorBodySchema.safeParse(value);
      const lean = read(errorBodyCheck, value);
      expect(lean.ok).toBe(zod.success);
      if (zod.success && lean.ok) expect(JSON.stringify(lean.value)).toBe(JSON.stringify(zod.data));
      if (!zod.success && !lean.ok) expect({ path: lean.path, message: lean.message }).toEqual({ path: zod.error.issues[0]!.path, message: zod.error.issues[0]!.message });
    }), { numRuns: 300 });
  });
});
