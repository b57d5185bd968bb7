/**
 * App storage through the SDK, end to end over real HTTP and real Postgres (issue 22, item 1):
 * - a hosted app (test/fixtures/storage/hosted-app.ts, bundled with esbuild, run in an isolate by a
 *   runtime node) uses every operation through `ctx.storage`, the install token added by the
 *   runtime's egress;
 * - a self-hosted app (test/fixtures/storage/self-app.ts) served by the SDK's node server on
 *   loopback does the same from its own command handler, on signed deliveries of the control plane,
 *   with the tokens they carry.
 * Both run test/fixtures/storage/exercise.ts; each sees only its own space. Both apps' `keeper`
 * blocks then show that an action's writes commit with its result, or not at all.
 */
import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeNode, loadConfig, type RuntimeNode } from '@platform/runtime';
import { click, view } from '../control-plane/blocks/setup.ts';
import { freePort } from '../helpers/npm-start.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';
import { startSelfKeeper, type SelfKeeper } from '../fixtures/storage/self-app.ts';

const SLUG = 'e2e-storage';

const cleanups: Array<() => Promise<unknown>> = [];
let stack: Stack;
let node: RuntimeNode;
let ws: CreatedWorkspace;
let controlPlaneUrl: string;
/** An app under test: its id, an install token, and the prefix its handlers write under. */
interface AppUnderTest { appId: string; installToken: string; prefix: string }
let hosted: AppUnderTest;
let self: AppUnderTest;
let selfKeeper: SelfKeeper;
let circleId: string;
let conversationId: string;

async function mintToken(clientId: string, clientSecret: string, installId: string): Promise<string> {
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  const minted = await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } });
  expect(minted.status, JSON.stringify(minted.body)).toBe(201);
  return minted.body.token as string;
}

beforeAll(async () => {
  const port = await freePort();
  controlPlaneUrl = `http://127.0.0.1:${port}`;
  const runtimeSecret = randomBytes(24).toString('base64url');
  const dataDir = await mkdtemp(join(tmpdir(), 'e2e-storage-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  node = createRuntimeNode({
    config: loadConfig({
      RUNTIME_SECRET: runtimeSecret, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_DATA_DIR: dataDir, RUNTIME_WORKERS: '1',
      CONTROL_PLANE_URL: controlPlaneUrl, RUNTIME_STARTUP_CPU_MS: '500', LOG_LEVEL: 'silent',
    }),
    logger: pino({ level: 'silent' }),
  });
  const runtimeUrl = (await node.start()).url;
  cleanups.push(() => node.stop());
  stack = await startStack({ env: { PORT: String(port), PUBLIC_URL: controlPlaneUrl, RUNTIME_URL: runtimeUrl, RUNTIME_SECRET: runtimeSecret } });
  cleanups.push(() => stack.stop());

  ws = await stack.createWorkspace();
  const circle = await ws.client.post('/circles', { name: 'General', visibility: 'public', chat: true });
  circleId = circle.body.circle.id;
  const created = await ws.client.post('/apps', { name: 'Storage end to end', slug: SLUG, hosting: 'platform' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/storage/hosted-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  const uploaded = await stack.v0(ws.apiKey).request('POST', `/apps/${created.body.app.id}/versions?target=production`, {
    rawBody: bundled.outputFiles[0]!.contents, headers: { 'content-type': 'application/javascript' },
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const consent = await ws.client.get(`/apps/${created.body.app.id}/consent`);
  const installed = await ws.client.post(`/apps/${created.body.app.id}/installs`, { version: consent.body.consent.version });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  hosted = { appId: created.body.app.id, installToken: await mintToken(created.body.clientId, created.body.clientSecret, installed.body.install.id), prefix: 'hosted/' };
  conversationId = (await ws.client.post(`/circles/${circleId}/conversations`, { title: 'Storage' })).body.conversation.id;
  self = await installSelfKeeper();
}, 90_000);

/** The self-hosted app: served on loopback, created with that endpoint, its manifest synced, installed. */
async function installSelfKeeper(): Promise<AppUnderTest> {
  selfKeeper = await startSelfKeeper(() => stack.clock.now());
  cleanups.push(() => selfKeeper.close());
  const created = await ws.client.post('/apps', { name: 'Self keeper', slug: 'self-keeper', hosting: 'self', endpoint: { url: selfKeeper.endpoint } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  selfKeeper.configure({ signingSecret: created.body.signingSecret, apiUrl: controlPlaneUrl });
  const synced = await stack.v0(ws.apiKey).put(`/apps/${created.body.app.id}/manifest`, { manifest: selfKeeper.app.manifest, target: 'production' });
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
  const consent = await ws.client.get(`/apps/${created.body.app.id}/consent`);
  const installed = await ws.client.post(`/apps/${created.body.app.id}/installs`, { version: consent.body.consent.version });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  return { appId: created.body.app.id, installToken: await mintToken(created.body.clientId, created.body.clientSecret, installed.body.install.id), prefix: 'self/' };
}

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** What exercise() answers for keys under `p` (versionstamps are checked for form and order). */
function expectReport(report: any, p: string) {
  const stamp = expect.stringMatching(/^[0-9a-f]{20}$/);
  expect(report.got).toEqual({ key: `${p}a`, value: { n: 1 }, versionstamp: report.setStamp });
  expect(report.many).toEqual([
    { key: `${p}a`, value: { n: 1 }, versionstamp: report.setStamp },
    { key: `${p}b`, value: 'two', versionstamp: stamp },
    { key: `${p}none`, value: null, versionstamp: null },
  ]);
  expect(report.page1).toEqual({ keys: [`${p}a`], more: true });
  expect(report.page2).toEqual({ keys: [`${p}b`], more: false });
  expect(report.reversed).toEqual([`${p}b`, `${p}a`]);
  expect(report.ranged).toEqual([`${p}a`]);
  expect(report.committed).toEqual({ ok: true, versionstamp: stamp });
  expect(report.conflicted).toEqual({ ok: false, checkIndex: 0, key: `${p}a` });
  expect(report.summedStamp > report.committed.versionstamp).toBe(true);
  expect(report.after).toEqual([
    { key: `${p}b`, value: null }, { key: `${p}count`, value: 3 }, { key: `${p}never`, value: null }, { key: `${p}c`, value: [1, 2] }, { key: `${p}gone`, value: null },
  ]);
}

describe('storage through the SDK', () => {
  it('a hosted app uses every operation through ctx.storage, in an isolate, with the token the runtime adds', async () => {
    const api = stack.v0(hosted.installToken);
    const inserted = await api.post('/blocks', { type: 'keeper', props: { title: 'Keep' }, circleId });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
    expect(await stack.controlPlane.deliveries.worker.drain()).toBeGreaterThanOrEqual(1);
    const { state } = (await api.get(`/blocks/${inserted.body.id}`)).body as { state: { report: string } };
    expect(state.report, 'the block.created handler ran').not.toBe('');
    expectReport(JSON.parse(state.report), 'hosted/');
    // What the app wrote is in its own space, read back with its install token.
    const read = await api.post('/storage/get', { keys: ['hosted/count'] });
    expect(read.body.entries[0].value).toBe(3);
  });

  it('a self-hosted app served by the SDK does the same from its command handler, on signed deliveries; the two apps share nothing', async () => {
    const ran = await ws.client.post('/commands/run', { appId: self.appId, command: 'exercise', options: {}, surface: { kind: 'circle', circleId, conversationId } });
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    expect(ran.body.invocation, JSON.stringify(ran.body)).toMatchObject({ status: 'answered', error: null });
    expect(selfKeeper.reports).toHaveLength(1);
    expectReport(selfKeeper.reports[0], 'self/');
    const api = stack.v0(self.installToken);
    expect((await api.post('/storage/get', { keys: ['self/count', 'hosted/count'] })).body.entries.map((e: { value: unknown }) => e.value)).toEqual([3, null]);
    expect((await api.post('/storage/list', { prefix: 'hosted/' })).body.entries).toEqual([]);
    expect((await stack.v0(hosted.installToken).post('/storage/list', { prefix: 'self/' })).body.entries).toEqual([]);
  });
});

describe.each([
  ['hosted', () => hosted],
  ['self-hosted', () => self],
] as const)('storage atomic with the card (a %s app\'s block action: its writes commit with its result)', (_, appOf) => {
  let blockId: string;
  let app: AppUnderTest;
  let p: string;
  const value = async (key: string) => (await stack.v0(app.installToken).post('/storage/get', { keys: [key] })).body.entries[0].value;
  const state = async () => (await stack.v0(app.installToken).get(`/blocks/${blockId}`)).body as { state: { clicks: number }; version: number };
  /** The bodies of the queue messages sent so far (issue 23: an action's sends wait for its result). */
  const sent = async () => (await stack.db.query<{ payload: { message: { body: unknown } } }>(
    `select e.payload from outbox_events e join installs i on i.id = e.install_id where i.app_id = $1 and e.type = 'queue.message' order by e.seq`, [app.appId])).rows.map((r) => r.payload.message.body);

  beforeAll(async () => {
    app = appOf();
    p = app.prefix;
    const inserted = await stack.v0(app.installToken).post('/blocks', { type: 'keeper', props: { title: 'Card' }, circleId });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
    blockId = inserted.body.id;
    await stack.controlPlane.deliveries.worker.drain();
  });

  it('the handler reads its own staged write, and the write commits with the new state', async () => {
    const out = await click(ws.client, blockId, 'Bump');
    expect(out.outcome).toBe('applied');
    expect((await state()).state.clicks).toBe(1);
    expect(await value(`${p}clicks`)).toBe(1);
    await click(ws.client, blockId, 'Bump');
    expect((await state()).state.clicks).toBe(2);
    expect(await value(`${p}clicks`)).toBe(2);
    // Each click's queue message was sent with its result.
    expect(await sent()).toEqual([{ bumped: 1 }, { bumped: 2 }]);
    const { rows } = await stack.db.query<{ n: number }>('select count(*)::int as n from units_of_work');
    expect(rows[0]!.n, 'no unit stays open after its result').toBe(0);
  });

  it('a staged check that fails when the result is applied leaves the block and storage as they were, and the member sees a failed action', async () => {
    const before = await state();
    const out = await click(ws.client, blockId, 'Conflict');
    expect(out.outcome).toBe('failed');
    expect(out.error.message).toMatch(/stored data changed/);
    const after = await state();
    expect(after.state).toEqual(before.state);
    expect(after.version).toBe(before.version);
    expect(await value(`${p}guarded`)).toBeNull();
    // The direct write (install token) was not part of the action: it committed.
    expect(await value(`${p}guard`)).toBe('changed after true');
    expect((await view(ws.client, blockId)).summary).toContain('2 clicks');
  });

  it('the handler lists its own staged writes (a set and a delete), in key order, with the page cut where it would be', async () => {
    for (const [key, v] of [[`${p}listed/a`, 'stored'], [`${p}listed/c`, 'stored'], [`${p}listed/d`, 'stored']]) {
      expect((await stack.v0(app.installToken).post('/storage/commit', { mutations: [{ type: 'set', key, value: v }] })).status).toBe(200);
    }
    const out = await click(ws.client, blockId, 'Listed');
    expect(out.outcome).toBe('applied');
    const report = JSON.parse((await state() as unknown as { state: { report: string } }).state.report);
    expect(report).toEqual({ keys: [[`${p}listed/b`, 'staged'], [`${p}listed/c`, 'stored']], more: true });
    // Applied with the result.
    expect(await value(`${p}listed/a`)).toBeNull();
    expect(await value(`${p}listed/b`)).toBe('staged');
  });

  it('a result refused for an invalid state leaves storage untouched and sends none of its queue messages', async () => {
    const before = await state();
    const sentBefore = await sent();
    const out = await click(ws.client, blockId, 'Invalid');
    expect(out.outcome).toBe('failed');
    expect(await value(`${p}invalid`)).toBeNull();
    expect(await sent()).toEqual(sentBefore);
    expect((await state()).state).toEqual(before.state);
  });
});
