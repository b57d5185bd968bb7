// `/v0` shapes: every request body is strict (unknown fields rejected, at any depth the spec
// shapes), every response lenient (unknown fields kept or ignored, unknown closed-list values read
// as neutral). Rows are keyed by the route table so a new route without samples fails here.
import { describe, expect, it } from 'vitest';
import {
  API_ROUTES, AppVersionRecordSchema, BlockQueryRequestSchema, ErrorBodySchema, LIMITS, ManifestGetResponseSchema, ReplyRequestSchema,
  SearchObjectPutRequestSchema, StreamEventRequestSchema, lenientEnum, type RouteName,
} from '@platform/sdk';

const doc = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hi' }] }] };
const tree = { type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content: [] };
const when = '2025-01-02T03:04:05Z';
const blockRecord = { id: 'b', type: 'poll', props: {}, state: {}, revision: 1, version: 1, final: false, circleId: 'c', conversationId: null, createdAt: when, updatedAt: when };

const requests: Partial<Record<RouteName, Record<string, unknown>>> = {
  streamEvent: { circleId: 'c', markdown: '# Deploy done', threadKey: 'deploy-1', title: 'Deploys', persona: { name: 'CI', avatarUrl: 'https://example.com/ci.png' }, idempotencyKey: 'k1' },
  searchObjectPut: { kind: 'issue', externalId: '42', title: 'Crash', url: 'https://example.com/42', subtitle: 'acme', body: 'text', updatedAt: when, visibility: { circleIds: ['c1'] } },
  searchObjectDelete: { kind: 'issue', externalId: '42' },
  blocksUpdateByState: { type: 'poll', stateMatch: { open: true, pollId: 'p1' }, state: { open: false } },
  blockInsert: { type: 'poll', props: { question: 'Lunch?' }, circleId: 'c' },
  blockQuery: { type: 'poll', stateMatch: { open: true }, cursor: 'abc', limit: 10 },
  blockUpdate: { state: { open: false }, expectedVersion: 3 },
  blockReplace: { state: { open: false } },
  blockRevalidate: {},
  reply: { content: doc, conversationId: 'v' },
  notification: { memberId: 'm', text: 'Your poll closed', url: 'https://example.com/p' },
  memory: { text: 'The team prefers Tuesdays', title: 'Meetings' },
  invocationRespond: { interactionToken: 'platint_x', answer: { visibility: 'public', content: doc, notice: { tone: 'success', text: 'Done' } } },
  referencePush: { kind: 'issue', externalId: '42', fields: { title: 'Crash', status: { state: 'closed', label: 'Closed' }, block: { tree, actions: { a0: { name: 'reopen' } } } }, version: 9 },
  referenceRevalidate: { kind: 'issue', externalId: '42' },
  devSync: { manifest: { schemaVersion: 1, name: 'Polls', slug: 'polls' } },
  manifestSync: { manifest: { schemaVersion: 1, name: 'Polls', slug: 'polls' }, target: 'preview' },
  checkTrees: { tree, actions: { a0: { name: 'close' } } },
  accessToken: {},
  queueSend: { messages: [{ body: { remind: 'mem_1' }, delaySeconds: 86_400, key: 'remind:mem_1' }] },
  storageGet: { keys: ['votes/alice'] },
  storageList: { prefix: 'votes/', start: 'votes/a', end: 'votes/z', cursor: 'dm90ZXMvYQ', limit: 10, reverse: true },
  storageCommit: { checks: [{ key: 'votes/alice', versionstamp: null }], mutations: [{ type: 'set', key: 'votes/alice', value: { choice: 1 }, expireIn: 60_000 }, { type: 'sum', key: 'count', value: 1 }, { type: 'delete', key: 'old' }] },
};

const responses: Record<RouteName, Record<string, unknown>> = {
  jwks: { keys: [{ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: 'k1', x: 'x', y: 'y' }] },
  streamEvent: { conversationId: 'v', url: 'https://app.example.com/c/v', created: true },
  searchObjectPut: { kind: 'issue', externalId: '42', title: 'Crash', url: 'https://example.com/42', updatedAt: when, visibility: 'workspace', applied: false },
  searchObjectDelete: { deleted: true },
  blocksUpdateByState: { updatedCount: 3 },
  blockInsert: blockRecord,
  blockQuery: { items: [blockRecord], nextCursor: null },
  blockGet: blockRecord,
  blockUpdate: blockRecord,
  blockReplace: blockRecord,
  blockRevalidate: { scheduled: true },
  reply: { id: 'r', circleId: 'c', conversationId: null },
  notification: { id: 'n' },
  memory: { id: 'mem', createdAt: when },
  invocationRespond: { ok: true },
  referencePush: { applied: true, version: 9 },
  referenceRevalidate: { scheduled: true },
  devSync: { appId: 'a', slug: 'polls-x1', clientId: 'cl', devInstallId: 'i', signingSecret: 'whsec_x', version: 1, playgroundUrl: 'https://app.example.com/p', created: true },
  manifestSync: { appId: 'a', version: 2, target: 'production', manifestSha256: 'a'.repeat(64), created: true, createdAt: when, added: [{ kind: 'scope', detail: 'blocks:write' }] },
  manifestGet: { appId: 'a', version: 2, target: 'production', manifest: { schemaVersion: 1 } },
  checkTrees: { valid: false, message: 'Tabs cannot be nested', path: ['content', 0] },
  storageGet: { entries: [{ key: 'a', value: 1, versionstamp: '0'.repeat(19) + '1' }, { key: 'b', value: null, versionstamp: null }] },
  storageList: { entries: [{ key: 'a', value: { x: 1 }, versionstamp: '0'.repeat(19) + '1' }], cursor: null },
  storageCommit: { ok: true, versionstamp: '0'.repeat(19) + '2' },
  accessToken: { token: 'platapp_x', expiresAt: when, scopes: ['blocks:write'] },
  queueSend: { messages: [{ id: 'evt_1', deduplicated: false, deliverAt: when }] },
};

const routes = Object.entries(API_ROUTES) as Array<[RouteName, (typeof API_ROUTES)[RouteName]]>;

describe('route table', () => {
  it('has a request sample for every body and a response sample for every route', () => {
    for (const [name, route] of routes) {
      if ('body' in route) expect(requests, name).toHaveProperty(name);
      expect(responses, name).toHaveProperty(name);
    }
  });

  it('puts every endpoint under /v0 except the JWKS', () => {
    for (const [name, route] of routes) if (name !== 'jwks') expect(route.path.startsWith('/v0/')).toBe(true);
  });
});

describe('strict requests', () => {
  const withBody = routes.filter(([, route]) => 'body' in route) as Array<[RouteName, { body: import('zod').ZodType }]>;

  it.each(withBody)('%s accepts its sample', (name, route) => {
    expect(route.body.safeParse(requests[name]).success).toBe(true);
  });

  it.each(withBody)('%s rejects an unknown field', (name, route) => {
    const result = route.body.safeParse({ ...requests[name], surprise: 1 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['surprise'] });
  });

  it.each([
    ['persona', StreamEventRequestSchema, { ...requests.streamEvent, persona: { name: 'CI', colour: 'red' } }],
    ['visibility', SearchObjectPutRequestSchema, { ...requests.searchObjectPut, visibility: { circleIds: ['c'], all: true } }],
    ['an invocation answer', API_ROUTES.invocationRespond.body, { interactionToken: 't', answer: { visibility: 'public', colour: 'red' } }],
    ['an action table entry', API_ROUTES.checkTrees.body, { tree, actions: { a0: { name: 'close', extra: 1 } } }],
    ['pushed reference fields', API_ROUTES.referencePush.body, { kind: 'issue', externalId: '1', fields: { title: 'T', colour: 'red' }, version: 1 }],
  ])('rejects unknown fields nested in %s', (_name, schema, body) => {
    expect(schema.safeParse(body).success).toBe(false);
  });

  it('rejects unknown closed-list values in requests', () => {
    expect(API_ROUTES.invocationRespond.body.safeParse({ interactionToken: 't', answer: { visibility: 'loud' } }).success).toBe(false);
    expect(API_ROUTES.manifestSync.body.safeParse({ manifest: {}, target: 'staging' }).success).toBe(false);
  });

  it.each([
    ['stream event with both content and markdown', StreamEventRequestSchema, { circleId: 'c', markdown: 'x', content: doc }],
    ['stream event with neither', StreamEventRequestSchema, { circleId: 'c' }],
    ['stream markdown over 40,000 characters', StreamEventRequestSchema, { circleId: 'c', markdown: 'x'.repeat(LIMITS.endpoints.streamMarkdownMax + 1) }],
    ['stream persona avatar over http', StreamEventRequestSchema, { circleId: 'c', markdown: 'x', persona: { avatarUrl: 'http://x.example/a.png' } }],
    ['reply with two targets', ReplyRequestSchema, { content: doc, circleId: 'c', conversationId: 'v' }],
    ['reply with no target', ReplyRequestSchema, { content: doc }],
    ['search object with 51 circles', SearchObjectPutRequestSchema, { ...requests.searchObjectPut, visibility: { circleIds: Array.from({ length: 51 }, (_, i) => `c${i}`) } }],
    ['search object with no circle', SearchObjectPutRequestSchema, { ...requests.searchObjectPut, visibility: { circleIds: [] } }],
    ['search body over 8,000 characters', SearchObjectPutRequestSchema, { ...requests.searchObjectPut, body: 'x'.repeat(LIMITS.endpoints.searchBodyMax + 1) }],
    ['search externalId over 200 characters', SearchObjectPutRequestSchema, { ...requests.searchObjectPut, externalId: 'x'.repeat(201) }],
    ['bulk update matching 9 keys', API_ROUTES.blocksUpdateByState.body, { type: 'poll', state: {}, stateMatch: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i])) }],
    ['bulk update matching an object value', API_ROUTES.blocksUpdateByState.body, { type: 'poll', state: {}, stateMatch: { k: { nested: 1 } } }],
    ['block insert with props over 16 KB', API_ROUTES.blockInsert.body, { type: 'poll', circleId: 'c', props: { s: 'x'.repeat(LIMITS.blockData.propsBytes) } }],
    ['block query over 100 a page', BlockQueryRequestSchema, { limit: 101 }],
    ['pushed fields, none given', API_ROUTES.referencePush.body, { kind: 'issue', externalId: '1', fields: {}, version: 1 }],
    ['notification text over 280 characters', API_ROUTES.notification.body, { memberId: 'm', text: 'x'.repeat(281) }],
  ])('rejects %s', (_name, schema, body) => {
    expect(schema.safeParse(body).success).toBe(false);
  });

  it('accepts the boundaries and fills defaults', () => {
    expect(StreamEventRequestSchema.safeParse({ circleId: 'c', markdown: 'x'.repeat(LIMITS.endpoints.streamMarkdownMax) }).success).toBe(true);
    expect(API_ROUTES.blocksUpdateByState.body.safeParse({ type: 'poll', state: {}, stateMatch: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, null])) }).success).toBe(true);
    expect(BlockQueryRequestSchema.parse({})).toEqual({ limit: LIMITS.endpoints.blockQueryLimitDefault });
    expect(SearchObjectPutRequestSchema.safeParse({ ...requests.searchObjectPut, visibility: 'workspace' }).success).toBe(true);
  });
});

describe('lenient responses', () => {
  it.each(routes)('%s accepts its sample with unknown fields added', (name, route) => {
    const parsed = route.response.safeParse({ ...responses[name], addedLater: { x: 1 } });
    expect(parsed.success).toBe(true);
  });

  it('maps unknown closed-list values to the neutral option', () => {
    expect(AppVersionRecordSchema.parse({ ...responses.manifestSync, target: 'canary' }).target).toBe('preview');
    expect(ManifestGetResponseSchema.parse({ ...responses.manifestGet, target: 'canary' }).target).toBe('preview');
  });

  it('reads error bodies with their own fields', () => {
    const body = ErrorBodySchema.parse({ _tag: 'PlatformAppManifestInvalidError', message: 'm', path: ['slug'], reason: 'slug-mismatch' });
    expect(body).toMatchObject({ reason: 'slug-mismatch', path: ['slug'] });
    expect(ErrorBodySchema.parse({ _tag: 'X', message: 'm' }).path).toEqual([]);
  });

  it('lenientEnum keeps known values and only strings', () => {
    const tone = lenientEnum(['neutral', 'info'], 'neutral');
    expect(tone.parse('info')).toBe('info');
    expect(tone.parse('blink')).toBe('neutral');
    expect(tone.safeParse(1).success).toBe(false);
  });
});
