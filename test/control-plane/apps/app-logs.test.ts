/**
 * Issue 14 item 1, the control plane's half: runtime nodes ship log lines to
 * `POST /internal/v1/logs` (their secret, a strict body), the app's tooling reads them at
 * `GET /v0/apps/{app_id}/logs` (newest first, cursor, filters) and live at `…/logs/stream`
 * (server-sent events, resumable by id), the lines are pruned after their retention, and both
 * routes are in the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { startTwin } from '../../helpers/fleet.ts';
import { openSse } from '../../helpers/sse.ts';
import { agentToken, createApp, deployToken, selfManifest, sync, type CreatedApp } from './helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let other: CreatedWorkspace;
let app: CreatedApp;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
  other = await stack.createWorkspace({ name: 'Other' });
  app = await createApp(ws.client, { hosting: 'platform' });
});
afterAll(async () => stack.stop());

let n = 0;
function line(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  n++;
  return {
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), appId: app.app.id, version: 1, requestId: `req_${n}`, deliveryId: null, installId: null,
    kind: 'route', level: 'log', status: 'ok', message: `line ${n}`, ...overrides,
  };
}

function ship(lines: unknown[], secret = stack.config.runtimeSecret, body?: unknown): Promise<Response> {
  return stack.fetch('/internal/v1/logs', {
    method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body ?? { node: 'node-a', lines }),
  });
}

const logsOf = (appId: string, query = '', key = ws.apiKey) => stack.v0(key).get(`/apps/${appId}/logs${query}`);

describe('ingest from runtime nodes', () => {
  it('needs the runtime secret and a strict body; lines of unknown apps are skipped', async () => {
    expect((await ship([line()], 'not-the-secret-at-all')).status).toBe(401);
    const bad = await ship([], undefined, { node: 'n', lines: [{ ...line(), extra: 1 }] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ _tag: 'PlatformApiInvalidRequestError' });
    const res = await ship([line({ appId: 'app_does_not_exist', message: 'ghost' })]);
    expect(res.status).toBe(204);
    const page = await logsOf(app.app.id);
    expect(page.body.items.map((l: { message: string }) => l.message)).not.toContain('ghost');
  });

  it('stores what Postgres cannot hold as it can (a NUL, a lone surrogate) instead of refusing the batch', async () => {
    const scratch = await createApp(ws.client, { hosting: 'platform' });
    const res = await ship([line({ appId: scratch.app.id, message: 'nul \u0000 and lone \ud800 here', request: { label: 'GET /\u0000', outcome: 'ok', httpStatus: 200, cpuMs: 1, wallMs: 1, outbound: 0 }, level: 'request' })]);
    expect(res.status).toBe(204);
    const [stored] = (await logsOf(scratch.app.id)).body.items;
    expect(stored.message).toBe('nul \uFFFD and lone \uFFFD here');
    expect(stored.request.label).toBe('GET /\uFFFD');
  });
});

describe('an error line\'s error as data (issue 20 item 5)', () => {
  const frame = (overrides: Record<string, unknown> = {}) => ({
    function: 'explode', file: 'app.ts', line: 7, column: 9, raw: { function: 'e', file: 'app:///bundle.js', line: 1, column: 120 }, ...overrides,
  });
  const error = (overrides: Record<string, unknown> = {}) => ({ name: 'Error', message: 'no greeting for ada', frames: [frame(), frame({ function: null, raw: null, file: 'app:///bundle.js' })], ...overrides });

  it('is stored and answered as the node shipped it (name, message, frames with their bundle positions), null on other lines; the delivery filter finds a delivery\'s lines', async () => {
    const scratch = await createApp(ws.client, { hosting: 'platform' });
    const res = await ship([
      line({ appId: scratch.app.id, level: 'error', status: 'error', message: 'Request failed: GET /apps/x/boom', error: error(), deliveryId: 'dlv_err' }),
      line({ appId: scratch.app.id, message: 'plain' }),
    ]);
    expect(res.status).toBe(204);
    const items = (await logsOf(scratch.app.id)).body.items;
    expect(items[0]).toMatchObject({ message: 'plain', error: null });
    expect(items[1].error).toEqual(error());
    const one = (await logsOf(scratch.app.id, '?delivery=dlv_err')).body.items;
    expect(one.map((l: { message: string }) => l.message)).toEqual(['Request failed: GET /apps/x/boom']);
  });

  it('makes what Postgres cannot hold storable in the error too', async () => {
    const scratch = await createApp(ws.client, { hosting: 'platform' });
    expect((await ship([line({ appId: scratch.app.id, level: 'error', error: error({ message: 'nul \u0000', frames: [frame({ function: 'f\ud800' })] }) })])).status).toBe(204);
    const [stored] = (await logsOf(scratch.app.id)).body.items;
    expect(stored.error.message).toBe('nul \uFFFD');
    expect(stored.error.frames[0].function).toBe('f\uFFFD');
  });

  it('is refused past its caps or with fields it does not have (400, the batch whole)', async () => {
    const cases = [
      error({ frames: Array.from({ length: 51 }, () => frame()) }),
      error({ name: 'n'.repeat(201) }),
      error({ frames: [frame({ file: 'f'.repeat(501) })] }),
      error({ frames: [frame({ extra: true })] }),
      error({ stack: 'text' }),
    ];
    for (const e of cases) {
      const res = await ship([line({ level: 'error', error: e })]);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ _tag: 'PlatformApiInvalidRequestError' });
    }
  });
});

describe('GET /v0/apps/{app_id}/logs', () => {
  let appId: string;
  beforeAll(async () => {
    appId = app.app.id;
    expect((await ship([
      line({ message: 'a console line', version: 1 }),
      line({ level: 'error', status: 'error', message: 'Error: boom\n    at handler (app:///bundle.js:3:9)', version: 2 }),
      line({ level: 'request', status: 'error', message: 'GET /x → 500 error', version: 2, request: { label: 'GET /x', outcome: 'error', httpStatus: 500, cpuMs: 1.5, wallMs: 3, outbound: 0 } }),
      line({ kind: 'lifecycle', installId: 'ins_one', deliveryId: 'dlv_1', message: 'a delivery line', version: 2 }),
      line({ kind: 'lifecycle', installId: 'ins_two', deliveryId: 'dlv_2', message: 'another install', version: 2 }),
    ])).status).toBe(204);
  });

  it('answers newest first, with the request summary on request lines', async () => {
    const res = await logsOf(appId);
    expect(res.status).toBe(200);
    const messages = res.body.items.map((l: { message: string }) => l.message);
    expect(messages.slice(0, 5)).toEqual(['another install', 'a delivery line', 'GET /x → 500 error', 'Error: boom\n    at handler (app:///bundle.js:3:9)', 'a console line']);
    expect(res.body.items[2]).toMatchObject({ level: 'request', status: 'error', request: { httpStatus: 500, outcome: 'error' }, appId, version: 2 });
    expect(res.body.items[0]).toMatchObject({ installId: 'ins_two', deliveryId: 'dlv_2', kind: 'lifecycle', request: null });
  });

  it('filters by status, version, install and kind', async () => {
    const messages = async (q: string) => (await logsOf(appId, q)).body.items.map((l: { message: string }) => l.message);
    expect(await messages('?status=error')).toEqual(['GET /x → 500 error', 'Error: boom\n    at handler (app:///bundle.js:3:9)']);
    expect(await messages('?version=1')).toEqual(['a console line']);
    expect(await messages('?install=ins_one')).toEqual(['a delivery line']);
    expect(await messages('?kind=lifecycle&version=2')).toEqual(['another install', 'a delivery line']);
    expect(await messages('?kind=route&status=ok&version=1')).toEqual(['a console line']);
  });

  it('pages with a cursor', async () => {
    const first = await logsOf(appId, '?limit=3&version=2');
    expect(first.body.items).toHaveLength(3);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await logsOf(appId, `?limit=3&version=2&cursor=${first.body.nextCursor}`);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.items, ...second.body.items].map((l: { id: string }) => l.id);
    expect(all).toHaveLength(4);
    expect(new Set(all).size).toBe(4);
    expect(all.map(Number)).toEqual([...all.map(Number)].sort((a, b) => b - a));
  });

  it('refuses bad filters and cursors with tagged errors', async () => {
    for (const q of ['?status=maybe', '?kind=cron', '?version=x', '?limit=0', '?cursor=bm9wZQ', '?unknown=1']) {
      const res = await logsOf(appId, q);
      expect(res.status, q).toBe(400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    }
  });

  it('needs tooling credentials of the app: none is 401, another workspace is 404, a deploy or agent token of the app reads', async () => {
    const anonymous = await stack.v0().get(`/apps/${appId}/logs`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body._tag).toBe('PlatformAppTokenMissingError');
    const foreign = await logsOf(appId, '', other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body._tag).toBe('PlatformAppNotFoundError');
    expect((await logsOf('app_unknown')).status).toBe(404);
    expect((await logsOf(appId, '', await deployToken(stack, appId, true))).status).toBe(200);
    expect((await logsOf(appId, '', await agentToken(stack, ws.apiKey))).status).toBe(200);
    const otherApp = await createApp(other.client, { hosting: 'platform' });
    expect((await logsOf(appId, '', await deployToken(stack, otherApp.app.id, false))).status).toBe(404);
  });
});

describe('preview-only readers (a preview-only deploy token, an agent builder token)', () => {
  // Production lines carry what members sent the app; a credential that may deploy previews only
  // reads the lines of preview versions only, in the list, the stream and profile downloads.
  let scoped: CreatedApp;
  let v: { production: number; preview: number };
  const messages = (res: { body: { items: Array<{ message: string }> } }) => res.body.items.map((l) => l.message).sort();
  beforeAll(async () => {
    scoped = await createApp(ws.client, { hosting: 'self' });
    const slug = scoped.app.slug;
    v = {
      production: (await sync(stack, ws.apiKey, scoped.app.id, selfManifest(slug), 'production')).version as number,
      preview: (await sync(stack, ws.apiKey, scoped.app.id, selfManifest(slug, { description: 'Preview build' }), 'preview')).version as number,
    };
    const profile = JSON.stringify({ nodes: [], startTime: 0, endTime: 1, samples: [], timeDeltas: [] });
    expect((await ship([
      line({ appId: scoped.app.id, version: v.production, message: 'production line' }),
      line({ appId: scoped.app.id, version: v.production, level: 'limit', status: 'error', message: 'production limit', profile }),
      line({ appId: scoped.app.id, version: v.preview, message: 'preview line' }),
      line({ appId: scoped.app.id, version: null, message: 'line of no version' }),
    ])).status).toBe(204);
  });

  it('the list holds the preview versions\' lines only; the owner still reads every line', async () => {
    const owner = await logsOf(scoped.app.id);
    expect(messages(owner)).toEqual(['line of no version', 'preview line', 'production limit', 'production line']);
    for (const credential of [await deployToken(stack, scoped.app.id, true), await agentToken(stack, ws.apiKey)]) {
      const res = await logsOf(scoped.app.id, '', credential);
      expect(res.status).toBe(200);
      expect(messages(res)).toEqual(['preview line']);
    }
    expect(messages(await logsOf(scoped.app.id, '', await deployToken(stack, scoped.app.id, false)))).toHaveLength(4);
  });

  it('a production line\'s profile is 404 to them', async () => {
    const limit = (await logsOf(scoped.app.id)).body.items.find((l: { message: string }) => l.message === 'production limit');
    const get = (credential: string) => stack.fetch(limit.profile, { headers: { authorization: `Bearer ${credential}` } });
    expect((await get(ws.apiKey)).status).toBe(200);
    const refused = await get(await deployToken(stack, scoped.app.id, true));
    expect(refused.status).toBe(404);
    expect((await refused.json() as { _tag: string })._tag).toBe('PlatformApiNotFoundError');
  });

  it('the stream replays and passes on preview lines only, including a preview version made after it opened', async () => {
    const first = (await logsOf(scoped.app.id)).body.items.at(-1).id as string;
    const stream = await openSse(`${stack.url}/v0/apps/${scoped.app.id}/logs/stream?after=${Number(first) - 1}`, { authorization: `Bearer ${await deployToken(stack, scoped.app.id, true)}` });
    try {
      expect(JSON.parse((await stream.next('line')).data).message).toBe('preview line');
      await stream.next('ready');
      const later = (await sync(stack, ws.apiKey, scoped.app.id, selfManifest(scoped.app.slug, { description: 'Second preview' }), 'preview')).version as number;
      await ship([
        line({ appId: scoped.app.id, version: v.production, message: 'live production' }),
        line({ appId: scoped.app.id, version: later, message: 'live newer preview' }),
      ]);
      expect(JSON.parse((await stream.next('line')).data).message).toBe('live newer preview');
    } finally {
      await stream.close();
    }
  });
});

describe('GET /v0/apps/{app_id}/logs/stream', () => {
  const streamUrl = (appId: string, query = '') => `${stack.url}/v0/apps/${appId}/logs/stream${query}`;

  it('passes lines on live once ready, filtered', async () => {
    const stream = await openSse(streamUrl(app.app.id, '?status=error'), { authorization: `Bearer ${ws.apiKey}` });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await stream.next('ready');
      await ship([line({ message: 'fine' }), line({ level: 'error', status: 'error', message: 'live failure' })]);
      const event = await stream.next('line');
      expect(JSON.parse(event.data)).toMatchObject({ message: 'live failure', status: 'error', appId: app.app.id });
      expect(event.id).toBe(JSON.parse(event.data).id);
    } finally {
      await stream.close();
    }
  });

  it('passes on lines another control plane stored (Redis pub/sub when REDIS_URL is set)', async () => {
    const twin = await startTwin(stack);
    const stream = await openSse(streamUrl(app.app.id), { authorization: `Bearer ${ws.apiKey}` });
    try {
      await stream.next('ready');
      const res = await fetch(`${twin.url}/internal/v1/logs`, {
        method: 'POST', headers: { authorization: `Bearer ${stack.config.runtimeSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ node: 'node-b', lines: [line({ message: 'from the other replica' })] }),
      });
      expect(res.status).toBe(204);
      expect(JSON.parse((await stream.next('line')).data).message).toBe('from the other replica');
    } finally {
      await stream.close();
      await twin.stop();
    }
  });

  it('replays stored lines after the given id (or Last-Event-ID) before going live', async () => {
    const newest = (await logsOf(app.app.id, '?limit=1')).body.items[0].id as string;
    await ship([line({ message: 'missed one' }), line({ message: 'missed two' })]);
    for (const [query, headers] of [[`?after=${newest}`, {}], ['', { 'last-event-id': newest }]] as const) {
      const stream = await openSse(streamUrl(app.app.id, query), { authorization: `Bearer ${ws.apiKey}`, ...headers });
      try {
        expect(JSON.parse((await stream.next('line')).data).message).toBe('missed one');
        expect(JSON.parse((await stream.next('line')).data).message).toBe('missed two');
        await stream.next('ready');
      } finally {
        await stream.close();
      }
    }
  });

  it('answers the same errors as the list, as JSON', async () => {
    const anonymous = await stack.fetch(`/v0/apps/${app.app.id}/logs/stream`);
    expect(anonymous.status).toBe(401);
    const foreign = await stack.fetch(`/v0/apps/${app.app.id}/logs/stream`, { headers: { authorization: `Bearer ${other.apiKey}` } });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ _tag: 'PlatformAppNotFoundError' });
    const bad = await stack.fetch(`/v0/apps/${app.app.id}/logs/stream?after=x`, { headers: { authorization: `Bearer ${ws.apiKey}` } });
    expect(bad.status).toBe(400);
  });
});

describe('GET /v0/apps/{app_id}/logs/{line_id}/profile', () => {
  it('downloads the profile of a limit line as a .cpuprofile; other lines and other workspaces get 404', async () => {
    const profile = { nodes: [{ id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 1, children: [] }], startTime: 0, endTime: 10, samples: [1], timeDeltas: [5] };
    await ship([line({ level: 'limit', status: 'error', message: 'The request used more than its 50 ms CPU budget', profile: JSON.stringify(profile) }), line({ message: 'no profile here' })]);
    const items = (await logsOf(app.app.id, '?limit=2')).body.items as Array<{ id: string; message: string; profile: string | null }>;
    const [plain, limited] = items;
    expect(plain!.profile).toBeNull();
    expect(limited!.profile).toBe(`/v0/apps/${app.app.id}/logs/${limited!.id}/profile`);

    const res = await stack.fetch(limited!.profile!, { headers: { authorization: `Bearer ${ws.apiKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${app.app.id}-${limited!.id}.cpuprofile"`);
    expect(await res.json()).toEqual(profile);

    const none = await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/logs/${plain!.id}/profile`);
    expect(none.status).toBe(404);
    expect(none.body._tag).toBe('PlatformApiNotFoundError');
    expect((await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/logs/not-a-line/profile`)).status).toBe(404);
    const foreign = await stack.v0(other.apiKey).get(`/apps/${app.app.id}/logs/${limited!.id}/profile`);
    expect(foreign.status).toBe(404);
    expect(foreign.body._tag).toBe('PlatformAppNotFoundError');
    expect((await stack.v0().get(`/apps/${app.app.id}/logs/${limited!.id}/profile`)).status).toBe(401);
  });
});

describe('retention and documentation', () => {
  it('prunes lines stored longer ago than APP_LOG_RETENTION_HOURS on the maintenance tick', async () => {
    const scratch = await createApp(ws.client, { hosting: 'platform' });
    await ship([line({ appId: scratch.app.id, message: 'old' })]);
    stack.clock.advance(stack.config.appLogRetentionMs + 1);
    await ship([line({ appId: scratch.app.id, message: 'new' })]);
    const removed = await stack.controlPlane.deliveries.prune();
    expect(removed.appLogs).toBeGreaterThanOrEqual(1);
    expect((await logsOf(scratch.app.id)).body.items.map((l: { message: string }) => l.message)).toEqual(['new']);
  });

  it('documents both routes with every status in /v0/openapi.json', async () => {
    const doc = (await (await stack.fetch('/v0/openapi.json')).json()) as any;
    const list = doc.paths['/apps/{app_id}/logs'].get;
    expect(list.operationId).toBe('listAppLogs');
    expect(Object.keys(list.responses).sort()).toEqual(['200', '400', '401', '404', '414', '431', '500', '503']);
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['app_id', 'status', 'version', 'install', 'kind', 'cursor', 'limit']));
    const stream = doc.paths['/apps/{app_id}/logs/stream'].get;
    expect(Object.keys(stream.responses).sort()).toEqual(['200', '400', '401', '404', '414', '431', '500', '503']);
    expect(stream.responses['200'].content).toHaveProperty('text/event-stream');
    const profile = doc.paths['/apps/{app_id}/logs/{line_id}/profile'].get;
    expect(profile.operationId).toBe('getAppLogProfile');
    expect(Object.keys(profile.responses).sort()).toEqual(['200', '400', '401', '404', '414', '431', '500', '503']);
    expect(profile.responses['200'].content['application/json'].schema).toEqual({ type: 'object' });
  });
});
