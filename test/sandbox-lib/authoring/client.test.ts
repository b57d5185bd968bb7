// The typed /v0 client. The server here is a loopback stand-in answering canned JSON, until the
// control plane serves /v0: it checks what the client sends (method, path, body, credential) and
// how it reads answers (lenient shapes, spec error bodies, failures of its own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient, PlatformClientError, type PlatformClient } from '@platform/sdk';
import { loopback, type Loopback, type Recorded } from './helpers.ts';

const AT = '2025-01-02T03:04:05.000Z';
const BLOCK = { id: 'blk_1', type: 'counter', props: {}, state: { count: 1 }, revision: 1, version: 2, final: false, circleId: 'cir_1', conversationId: null, createdAt: AT, updatedAt: AT };

/** Canned answers by "METHOD path" (the stand-in's whole behaviour). */
const CANNED: Record<string, [number, unknown]> = {
  'POST /v0/blocks': [201, BLOCK],
  'GET /v0/blocks/blk_1': [200, { ...BLOCK, addedLater: true }],
  'PATCH /v0/blocks/blk_1': [200, BLOCK],
  'PUT /v0/blocks/blk_1': [200, BLOCK],
  'POST /v0/blocks/query': [200, { items: [BLOCK], nextCursor: null }],
  'POST /v0/blocks/blk_1/revalidate': [200, { scheduled: true }],
  'PATCH /v0/blocks': [200, { updatedCount: 3 }],
  'POST /v0/replies': [201, { id: 'msg_9', circleId: 'cir_1', conversationId: null }],
  'POST /v0/streams/events': [200, { conversationId: 'cnv_1', url: 'https://w.example.com/c/1', created: true }],
  'POST /v0/notifications': [201, { id: 'ntf_1' }],
  'POST /v0/memories': [201, { id: 'mem_9', createdAt: AT }],
  'PUT /v0/references': [200, { applied: true, version: 4 }],
  'POST /v0/references/revalidate': [200, { scheduled: true }],
  'PUT /v0/search/objects': [200, { kind: 'issue', externalId: '42', title: 'Crash', url: 'https://t.example.com/42', updatedAt: AT, visibility: 'workspace', applied: true }],
  'DELETE /v0/search/objects': [200, { deleted: true }],
  'POST /v0/invocations/respond': [200, { ok: true }],
  'POST /v0/apps/check/trees': [200, { valid: false, message: 'Tabs cannot be nested', path: ['content', 0] }],
  'GET /v0/apps/app_1/manifest?target=preview': [200, { appId: 'app_1', version: 3, target: 'staging', manifest: {} }],
  'POST /v0/apps/installs/ins_1/access-tokens': [201, { token: 'platapp_new', expiresAt: AT }],
};

let server: Loopback;
let api: PlatformClient;
const last = (): Recorded => server.requests[server.requests.length - 1]!;

beforeAll(async () => {
  server = await loopback((request) => {
    if (request.headers['x-answer'] === 'scope-missing') return [403, { _tag: 'PlatformAppScopeMissingError', message: 'Needs notifications:write', path: [], scope: 'notifications:write' }];
    if (request.headers['x-answer'] === 'html') return [502, '<html>bad gateway</html>'];
    if (request.headers['x-answer'] === 'wrong-shape') return [200, { id: 42 }];
    return CANNED[`${request.method} ${request.url.replace(/^\/prefix/, '')}`] ?? [404, { _tag: 'PlatformApiNotFoundError', message: 'No route', path: [] }];
  });
  api = createPlatformClient({ baseUrl: `${server.url}/prefix/`, token: 'platapp_install' });
});
afterAll(() => server.close());

describe('each endpoint', () => {
  const doc = { type: 'doc', content: [] };
  const calls: Array<{ name: string; call: () => Promise<unknown>; method: string; path: string; body?: unknown; expect?: unknown }> = [
    { name: 'blocks.insert', call: () => api.blocks.insert({ type: 'counter', props: {}, circleId: 'cir_1' }), method: 'POST', path: '/v0/blocks', body: { type: 'counter', props: {}, circleId: 'cir_1' } },
    { name: 'blocks.get', call: () => api.blocks.get('blk_1'), method: 'GET', path: '/v0/blocks/blk_1' },
    { name: 'blocks.update', call: () => api.blocks.update('blk_1', { state: { count: 2 }, expectedVersion: 2 }), method: 'PATCH', path: '/v0/blocks/blk_1', body: { state: { count: 2 }, expectedVersion: 2 } },
    { name: 'blocks.replace', call: () => api.blocks.replace('blk_1', { state: { count: 0 } }), method: 'PUT', path: '/v0/blocks/blk_1', body: { state: { count: 0 } } },
    { name: 'blocks.query', call: () => api.blocks.query({ type: 'counter', limit: 10 }), method: 'POST', path: '/v0/blocks/query', expect: { items: [BLOCK], nextCursor: null } },
    { name: 'blocks.revalidate', call: () => api.blocks.revalidate('blk_1'), method: 'POST', path: '/v0/blocks/blk_1/revalidate', body: {} },
    { name: 'blocks.updateByState', call: () => api.blocks.updateByState({ type: 'counter', stateMatch: { open: true }, state: { open: false } }), method: 'PATCH', path: '/v0/blocks', expect: { updatedCount: 3 } },
    { name: 'replies.post', call: () => api.replies.post({ content: doc, conversationId: 'cnv_1' }), method: 'POST', path: '/v0/replies' },
    { name: 'streams.postEvent', call: () => api.streams.postEvent({ circleId: 'cir_1', markdown: '**Deployed**', threadKey: 'deploys' }), method: 'POST', path: '/v0/streams/events' },
    { name: 'notifications.send', call: () => api.notifications.send({ memberId: 'mem_1', text: 'Hi' }), method: 'POST', path: '/v0/notifications' },
    { name: 'memories.add', call: () => api.memories.add({ text: 'We ship on Fridays' }), method: 'POST', path: '/v0/memories' },
    { name: 'references.push', call: () => api.references.push({ kind: 'issue', externalId: '42', fields: { title: 'Crash' }, version: 4 }), method: 'PUT', path: '/v0/references' },
    { name: 'references.revalidate', call: () => api.references.revalidate({ kind: 'issue', externalId: '42' }), method: 'POST', path: '/v0/references/revalidate' },
    { name: 'search.put', call: () => api.search.put({ kind: 'issue', externalId: '42', title: 'Crash', url: 'https://t.example.com/42', updatedAt: AT, visibility: 'workspace' }), method: 'PUT', path: '/v0/search/objects' },
    { name: 'search.delete', call: () => api.search.delete({ kind: 'issue', externalId: '42' }), method: 'DELETE', path: '/v0/search/objects', body: { kind: 'issue', externalId: '42' } },
    { name: 'invocations.respond', call: () => api.invocations.respond({ interactionToken: 'platint_1', answer: { visibility: 'public', notice: { tone: 'success', text: 'Done' } } }), method: 'POST', path: '/v0/invocations/respond', expect: { ok: true } },
    { name: 'apps.checkTree', call: () => api.apps.checkTree({ tree: { type: 'uiBlock' } }), method: 'POST', path: '/v0/apps/check/trees', expect: { valid: false, message: 'Tabs cannot be nested', path: ['content', 0] } },
  ];

  it.each(calls)('$name → $method $path with the install token', async ({ call, method, path, body, expect: expected }) => {
    const answer = await call();
    expect(last()).toMatchObject({ method, url: `/prefix${path}`, headers: { authorization: 'Bearer platapp_install' } });
    if (body !== undefined) expect(last().body).toEqual(body);
    if (expected !== undefined) expect(answer).toEqual(expected);
  });
});

describe('reading answers', () => {
  it('keeps unknown fields and reads an unknown closed-list value as the neutral one', async () => {
    expect(await api.blocks.get('blk_1')).toMatchObject({ id: 'blk_1', addedLater: true });
    expect((await api.apps.getManifest('app_1', { target: 'preview' })).target).toBe('preview');
  });

  it('throws the service\'s error with tag, status and body', async () => {
    const scoped = createPlatformClient({ baseUrl: server.url, token: 't', fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers as object, 'x-answer': 'scope-missing' } }) });
    const thrown = await scoped.notifications.send({ memberId: 'mem_1', text: 'Hi' }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(PlatformClientError);
    expect(thrown).toMatchObject({ tag: 'PlatformAppScopeMissingError', status: 403, message: 'Needs notifications:write', body: { scope: 'notifications:write' }, local: false });
  });

  const failures: Array<{ name: string; answer: string; tag: string; status: number }> = [
    { name: 'an error status without the spec\'s body', answer: 'html', tag: 'PlatformClientHttpError', status: 502 },
    { name: 'a 2xx body the response schema refuses', answer: 'wrong-shape', tag: 'PlatformClientResponseInvalidError', status: 200 },
  ];

  it.each(failures)('$name → $tag', async ({ answer, tag, status }) => {
    const odd = createPlatformClient({ baseUrl: server.url, fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers as object, 'x-answer': answer } }) });
    await expect(odd.memories.add({ text: 'x' })).rejects.toMatchObject({ tag, status });
  });

  it('an unreachable service → PlatformClientNetworkError with status 0', async () => {
    const gone = await loopback(() => [200, {}]);
    await gone.close();
    await expect(createPlatformClient({ baseUrl: gone.url }).memories.add({ text: 'x' })).rejects.toMatchObject({ tag: 'PlatformClientNetworkError', status: 0 });
  });
});

describe('sending', () => {
  it('refuses a body its request schema rejects, without sending it', async () => {
    const before = server.requests.length;
    const thrown = await api.notifications.send({ memberId: 'mem_1', text: 'x'.repeat(281) }).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ tag: 'PlatformApiInvalidRequestError', status: 400, local: true, path: ['text'] });
    await expect(api.memories.add({ text: 'x', extra: true } as never)).rejects.toMatchObject({ local: true });
    expect(server.requests.length).toBe(before);
  });

  it('uses a per-call token (an interaction token for the block an action ran on)', async () => {
    await api.blocks.update('blk_1', { state: { count: 5 } }, { token: 'platint_1' });
    expect(last().headers.authorization).toBe('Bearer platint_1');
  });

  it('mints an access token with client credentials (HTTP Basic) and an empty body', async () => {
    expect(await api.apps.mintAccessToken('ins_1', { clientId: 'cli_1', clientSecret: 's3cret' })).toMatchObject({ token: 'platapp_new' });
    expect(last()).toMatchObject({ method: 'POST', url: '/prefix/v0/apps/installs/ins_1/access-tokens', body: {}, headers: { authorization: `Basic ${btoa('cli_1:s3cret')}` } });
  });

  it('sends no credential when it has none (hosted apps: the runtime adds it)', async () => {
    await createPlatformClient({ baseUrl: `${server.url}/prefix` }).memories.add({ text: 'x' });
    expect(last().headers.authorization).toBeUndefined();
  });
});
