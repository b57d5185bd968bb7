/**
 * Issue 25 item 3: errors grouped by fingerprint. The fingerprint's rules (what is masked, which
 * frame counts), then over real HTTP and Postgres: error and limit lines a node ships are folded
 * into groups with exact counts per version, installs affected and examples linked to their lines;
 * failed lifecycle attempts of a self-hosted app and failed interactive deliveries are groups too;
 * paging, filters, who may read them, pruning, and the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, maskMessage, topFrame } from '../../../control-plane/src/apps/errors/fingerprint.ts';
import { createDeliveryRecorder } from '../../../control-plane/src/deliveries/interactive/recorder.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedInstall, seedWorkspace } from '../lifecycle/fixtures.ts';
import { createApp, deployToken, selfManifest, sync, type CreatedApp } from './helpers.ts';

describe('the fingerprint', () => {
  it('masks what changes per occurrence and keeps what tells errors apart', () => {
    expect(maskMessage('no member mem_4fzq2kbdu7 in 12 circles (took 3.5 ms)')).toBe('no member <id> in <n> circles (took <n> ms)');
    expect(maskMessage('job 3f2c9a1e-0b7d-4c51-9f1e-2a9b6c3d4e5f failed at 10.0.0.12:5432')).toBe('job <uuid> failed at <ip>');
    expect(maskMessage('digest 9f86d081884c7d65 mismatch')).toBe('digest <hex> mismatch');
    expect(maskMessage('GET https://api.example.com/users/42?token=abc#x failed')).toBe('GET https://api.example.com/users/<n> failed');
    expect(maskMessage("Cannot read properties of undefined (reading 'name')")).toBe("Cannot read properties of undefined (reading 'name')");
    expect(maskMessage('  two\n\tlines  ')).toBe('two lines');
    expect([...maskMessage('x'.repeat(400))]).toHaveLength(300);
  });

  it('takes the innermost frame with a file, and its function rather than its line', () => {
    const frames = [
      { function: null, file: null, line: null, column: null, raw: null },
      { function: 'greet', file: 'app.ts', line: 7, column: 3, raw: null },
      { function: 'route', file: 'app.ts', line: 20, column: 1, raw: null },
    ];
    expect(topFrame(frames)).toEqual({ file: 'app.ts', function: 'greet', line: 7 });
    const parts = (line: number, fn: string | null) => ({ level: 'error' as const, name: 'TypeError', message: 'm', topFrame: { file: 'app.ts', function: fn, line } });
    expect(fingerprint(parts(7, 'greet'))).toBe(fingerprint(parts(9, 'greet')));
    expect(fingerprint(parts(7, 'greet'))).not.toBe(fingerprint(parts(7, 'other')));
    expect(fingerprint(parts(7, null))).not.toBe(fingerprint(parts(9, null)));
    expect(fingerprint({ ...parts(7, 'greet'), level: 'limit' })).not.toBe(fingerprint(parts(7, 'greet')));
  });
});

let stack: Stack;
let ws: CreatedWorkspace;
let other: CreatedWorkspace;

beforeAll(async () => {
  stack = await startStack({ deliveries: { random: () => 0 } });
  ws = await stack.createWorkspace();
  other = await stack.createWorkspace({ name: 'Other' });
});
afterAll(async () => stack?.stop());

let n = 0;
function line(appId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  n++;
  return {
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), appId, version: 1, requestId: `req_${n}`, deliveryId: null, installId: null,
    kind: 'route', level: 'log', status: 'ok', message: `line ${n}`, ...overrides,
  };
}
const frame = (fn: string, lineNo: number) => ({ function: fn, file: 'app.ts', line: lineNo, column: 5, raw: { function: 'a', file: 'app:///bundle.js', line: 1, column: 99 } });
const thrown = (appId: string, member: string, overrides: Record<string, unknown> = {}) => line(appId, {
  level: 'error', status: 'error', message: `Error: no greeting for ${member}`, error: { name: 'Error', message: `no greeting for ${member}`, frames: [frame('greet', 7)] }, ...overrides,
});

async function ship(lines: unknown[]): Promise<void> {
  const res = await stack.fetch('/internal/v1/logs', {
    method: 'POST', headers: { authorization: `Bearer ${stack.config.runtimeSecret}`, 'content-type': 'application/json' }, body: JSON.stringify({ node: 'node-a', lines }),
  });
  expect(res.status).toBe(204);
}
const groupsOf = (appId: string, query = '', key = ws.apiKey) => stack.v0(key).get(`/apps/${appId}/errors${query}`);

describe('groups of a hosted app\'s error and limit lines', () => {
  let app: CreatedApp;
  beforeAll(async () => {
    app = await createApp(ws.client, { hosting: 'platform' });
    const id = app.app.id;
    await ship([
      thrown(id, 'mem_aaaaaaaa1', { version: 1, installId: 'ins_one' }),
      thrown(id, 'mem_bbbbbbbb2', { version: 1, installId: 'ins_two' }),
      line(id, { message: 'a console line' }),
      line(id, { level: 'request', status: 'error', message: 'GET / → 500', request: { label: 'GET /', outcome: 'error', httpStatus: 500, cpuMs: 1, wallMs: 1, outbound: 0 } }),
    ]);
    // The next version moved the throw two lines down: the same group.
    await ship([
      thrown(id, 'mem_cccccccc3', { version: 2, installId: 'ins_one', error: { name: 'Error', message: 'no greeting for mem_cccccccc3', frames: [frame('greet', 9)] } }),
      line(id, { version: 2, level: 'limit', status: 'error', message: 'The request used more than its 50 ms of CPU and was stopped', error: { name: 'PlatformRuntimeCpuLimitError', message: 'The request used more than its 50 ms of CPU and was stopped', frames: [frame('spin', 30)] } }),
    ]);
  });

  it('folds occurrences into groups with exact counts per version, installs affected, last seen first; other lines are not errors', async () => {
    const res = await groupsOf(app.app.id);
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    const [limit, thrownGroup] = res.body.items;
    expect(res.body.items).toHaveLength(2);
    expect(limit).toMatchObject({ level: 'limit', name: 'PlatformRuntimeCpuLimitError', message: 'The request used more than its <n> ms of CPU and was stopped', count: 1, installs: 0, topFrame: { file: 'app.ts', function: 'spin', line: 30 } });
    expect(thrownGroup).toMatchObject({
      level: 'error', name: 'Error', message: 'no greeting for <id>', sample: 'no greeting for mem_cccccccc3', count: 3, installs: 2,
      topFrame: { file: 'app.ts', function: 'greet', line: 9 },
      firstSeen: new Date(Date.UTC(2026, 0, 1, 0, 0, n - 5)).toISOString(),
    });
    expect(thrownGroup.versions.map((v: { version: number; count: number }) => [v.version, v.count])).toEqual([[1, 2], [2, 1]]);
    expect(thrownGroup.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('filters by version and level, and pages with a cursor', async () => {
    const v1 = (await groupsOf(app.app.id, '?version=1')).body.items;
    expect(v1).toHaveLength(1);
    expect(v1[0]).toMatchObject({ count: 2, installs: 2, versions: [{ version: 1, count: 2 }] });
    expect((await groupsOf(app.app.id, '?level=limit')).body.items.map((g: { level: string }) => g.level)).toEqual(['limit']);
    const first = await groupsOf(app.app.id, '?limit=1');
    expect(first.body.items).toHaveLength(1);
    const second = await groupsOf(app.app.id, `?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((g: { level: string }) => g.level)).toEqual(['error']);
    expect(second.body.nextCursor).toBeNull();
    for (const bad of ['?cursor=nope', '?limit=0', '?limit=201', '?level=fatal', '?version=0', '?version=2147483648', '?extra=1']) {
      const res = await groupsOf(app.app.id, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    }
    expect((await groupsOf(app.app.id, '?limit=200')).status).toBe(200);
  });

  it('answers one group with its newest examples linked to their log lines', async () => {
    const [, group] = (await groupsOf(app.app.id)).body.items;
    const res = await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/errors/${group.id}`);
    expect(res.status).toBe(200);
    expect(res.body.examples.map((e: any) => [e.version, e.line.error.message])).toEqual([
      [2, 'no greeting for mem_cccccccc3'], [1, 'no greeting for mem_bbbbbbbb2'], [1, 'no greeting for mem_aaaaaaaa1'],
    ]);
    expect((await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/errors/${'0'.repeat(32)}`)).body._tag).toBe('PlatformApiNotFoundError');
    expect((await stack.v0(ws.apiKey).get(`/apps/${app.app.id}/errors/not-a-group`)).status).toBe(404);
  });

  it('is the app\'s tooling\'s only: another workspace reads nothing', async () => {
    const res = await groupsOf(app.app.id, '', other.apiKey);
    expect(res.status).toBe(404);
    expect(res.body._tag).toBe('PlatformAppNotFoundError');
  });

  it('a group\'s example stays listed after its line was pruned, without the line', async () => {
    const scratch = await createApp(ws.client, { hosting: 'platform' });
    await ship([thrown(scratch.app.id, 'mem_dddddddd4')]);
    await stack.db.query('delete from app_logs where app_id = $1', [scratch.app.id]);
    const [group] = (await groupsOf(scratch.app.id)).body.items;
    const res = await stack.v0(ws.apiKey).get(`/apps/${scratch.app.id}/errors/${group.id}`);
    expect(res.body).toMatchObject({ count: 1, examples: [{ version: 1, line: null, deliveryId: null }] });
  });

  it('groups unseen past their retention are pruned, with their versions and installs', async () => {
    const scratch = await createApp(ws.client, { hosting: 'platform' });
    await ship([thrown(scratch.app.id, 'mem_eeeeeeee5', { installId: 'ins_x' })]);
    // The line is dated 2026-01-01; the stack's clock starts there too.
    stack.clock.advance(31 * 86_400_000);
    await stack.controlPlane.apps.errors.prune(stack.config.errorGroupRetentionMs);
    expect((await groupsOf(scratch.app.id)).body.items).toEqual([]);
    const { rows } = await stack.db.query('select count(*)::int as n from app_error_installs where app_id = $1', [scratch.app.id]);
    expect(rows[0]).toEqual({ n: 0 });
  });
});

describe('preview-only readers', () => {
  it('see the occurrences of preview versions only', async () => {
    const scoped = await createApp(ws.client, { hosting: 'self' });
    const production = (await sync(stack, ws.apiKey, scoped.app.id, selfManifest(scoped.app.slug), 'production')).version as number;
    const preview = (await sync(stack, ws.apiKey, scoped.app.id, selfManifest(scoped.app.slug, { description: 'Preview' }), 'preview')).version as number;
    await ship([thrown(scoped.app.id, 'mem_ffffffff6', { version: production }), thrown(scoped.app.id, 'mem_gggggggg7', { version: preview }), thrown(scoped.app.id, 'mem_hhhhhhhh8', { version: production })]);
    expect((await groupsOf(scoped.app.id)).body.items[0]).toMatchObject({ count: 3 });
    const token = await deployToken(stack, scoped.app.id, true);
    const seen = (await groupsOf(scoped.app.id, '', token)).body.items;
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ count: 1, versions: [{ version: preview, count: 1 }] });
    const detail = await stack.v0(token).get(`/apps/${scoped.app.id}/errors/${seen[0].id}`);
    expect(detail.body.examples.map((e: any) => e.line.error.message)).toEqual(['no greeting for mem_gggggggg7']);
  });
});

describe('failed deliveries of any app', () => {
  let receiver: Receiver;
  afterAll(async () => receiver?.stop());

  it('groups a self-hosted app\'s failed lifecycle attempts by type, status and masked error, per version', async () => {
    receiver = await startReceiver();
    const setup = await seedWorkspace(stack);
    const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiver.url });
    await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
    const c = setup.ws.client;
    // Each a conversation's first message: a post.created delivery.
    const post = async (markdown: string) => {
      const conv = (await c.post(`/circles/${setup.publicCircle}/conversations`, { title: markdown })).body.conversation.id;
      await c.post(`/conversations/${conv}/messages`, { markdown });
    };
    receiver.respond = () => 500;
    await post('one');
    await post('two');
    await stack.controlPlane.deliveries.worker.drain();
    stack.clock.advance(1_000);
    receiver.respond = () => 404;
    await post('three');
    await stack.controlPlane.deliveries.worker.drain();
    const items = (await stack.v0(setup.ws.apiKey).get(`/apps/${app.id}/errors?level=delivery`)).body.items;
    expect(items.map((g: any) => [g.name, g.message, g.count, g.installs])).toEqual([
      ['post.created (HTTP 404)', 'The app answered <n>', 1, 1],
      ['post.created (HTTP 500)', 'The app answered <n>', 2, 1],
    ]);
    expect(items[1].versions.map((v: any) => v.count)).toEqual([2]);
    const detail = await stack.v0(setup.ws.apiKey).get(`/apps/${app.id}/errors/${items[1].id}`);
    expect(detail.body.examples).toHaveLength(2);
    expect(detail.body.examples[0]).toMatchObject({ line: null, deliveryId: expect.stringMatching(/\S/) });
  });

  it('groups failed interactive deliveries as the recorder writes them', async () => {
    const setup = await seedWorkspace(stack);
    const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: 'https://app.example.com/hook' });
    const installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
    const recorder = createDeliveryRecorder({ db: stack.db, logger: stack.logger, errors: stack.controlPlane.apps.errors });
    const at = new Date(stack.clock.now());
    recorder.record({ id: 'dlv_int_ok', appId: app.id, installId, type: 'block.action', version: 1, startedAt: at, durationMs: 3, status: 200, error: null });
    recorder.record({ id: 'dlv_int_bad', appId: app.id, installId, type: 'block.action', version: 1, startedAt: at, durationMs: 5001, status: null, error: 'The app did not answer within 5000 ms' });
    await recorder.flush();
    const items = (await stack.v0(setup.ws.apiKey).get(`/apps/${app.id}/errors`)).body.items;
    expect(items.map((g: any) => [g.level, g.name, g.message, g.count])).toEqual([['delivery', 'block.action', 'The app did not answer within <n> ms', 1]]);
  });
});

describe('the OpenAPI document', () => {
  it('describes both operations', async () => {
    const doc = await (await stack.fetch('/v0/openapi.json')).json() as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.paths['/apps/{app_id}/errors']!.get!.operationId).toBe('listAppErrorGroups');
    expect(doc.paths['/apps/{app_id}/errors/{group_id}']!.get!.operationId).toBe('getAppErrorGroup');
  });
});
