/**
 * `platform replay` against a control plane and a runtime node on loopback: a member clicks a
 * block of the sample hosted app (test/fixtures/cli/replay), whose action reads and writes through
 * `/v0`; a preview with another step is deployed; replaying the recorded click runs the preview's
 * code with read-only tokens: its read works, its write is refused with
 * `PlatformReplayReadOnlyError`, its answer is printed beside the recorded one, and nothing in the
 * workspace changes (no memory saved, the block's state as it was, no delivery recorded). A
 * lifecycle delivery (`post.created`, whose handler saves a memory) replays the same way.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWorkspace, Stack } from '../helpers/stack.ts';
import { startStackWithRuntime, type StackWithRuntime } from '../control-plane/apps/runtime.ts';
import { runCli, tempProject, type TempProject } from './helpers.ts';

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;
let project: TempProject;
let appId: string;
let blockId: string;
let deliveryId: string;
let circleId: string;

const cli = (argv: string[]) => runCli(argv, { cwd: project.dir, env: { PLATFORM_URL: stack.url, PLATFORM_API_KEY: ws.apiKey } });
const count = async (sql: string, params: unknown[]) => Number((await stack.db.query<{ n: string }>(sql, params)).rows[0]!.n);
const memories = () => count('select count(*) as n from memories where workspace_id = $1', [ws.workspace.id]);
const deliveries = () => count('select count(*) as n from deliveries where app_id = $1', [appId]);
const blockState = async () => (await stack.db.query<{ state: Record<string, unknown> }>('select state from blocks where id = $1', [blockId])).rows[0]!.state;

beforeAll(async () => {
  env = await startStackWithRuntime();
  stack = env.stack;
  ws = await stack.createWorkspace({ name: 'Acme' });
  project = await tempProject('replay');
  const deployed = await cli(['deploy', '--create', '--production']);
  expect(deployed.code, deployed.stderr).toBe(0);
  appId = (JSON.parse(await readFile(join(project.dir, 'platform.json'), 'utf8')) as { appId: string }).appId;
  expect((await ws.client.post(`/apps/${appId}/installs`, { version: 1 })).status).toBe(201);

  // A member inserts the block and clicks Bump once: the delivery that will be replayed.
  circleId = (await ws.client.post('/circles', { name: 'General', visibility: 'public' })).body.circle.id as string;
  const conversationId = (await ws.client.post(`/circles/${circleId}/conversations`, { title: 'Counting' })).body.conversation.id as string;
  const inserted = await ws.client.post('/blocks', { appId, type: 'counter', props: {}, target: { conversationId } });
  expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
  blockId = inserted.body.block.id;
  const view = (await ws.client.get(`/blocks/${blockId}`)).body.block as { revision: number; tree: unknown };
  const ref = /"ref":"([^"]+)"/.exec(JSON.stringify(view.tree))![1];
  const clicked = await ws.client.post(`/blocks/${blockId}/click`, { revision: view.revision, ref });
  expect(clicked.status, JSON.stringify(clicked.body)).toBe(200);
  await stack.controlPlane.deliveries.interactive.flush();
  const listed = await ws.client.get(`/apps/${appId}/deliveries?type=block.action`);
  deliveryId = listed.body.items[0].id;

  // Version 2, a preview: another step.
  const source = join(project.dir, 'app.ts');
  await writeFile(source, (await readFile(source, 'utf8')).replace('const STEP = 1;', 'const STEP = 100;'));
  expect((await cli(['deploy'])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await env?.stop();
  await project?.remove();
});

describe('the recorded click', () => {
  it('wrote through /v0 and the Deliveries page kept its request and answer', async () => {
    expect(await blockState()).toEqual({ count: 1, read: 'ok', wrote: 'ok' });
    expect(await memories()).toBe(1);
    const detail = (await ws.client.get(`/apps/${appId}/deliveries/${deliveryId}`)).body;
    expect(detail.data).toMatchObject({ action: { name: 'bump' }, block: { id: blockId } });
    expect(JSON.stringify(detail.data)).not.toContain('platint_');
    expect(JSON.parse(detail.attempts[0].response)).toMatchObject({ state: { count: 1, read: 'ok', wrote: 'ok' } });
  });
});

describe('platform replay', () => {
  it('runs the click against the latest preview, read-only, and prints both answers', async () => {
    const before = { memories: await memories(), deliveries: await deliveries() };
    const run = await cli(['replay', deliveryId]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Replayed ${deliveryId} \\(interactive block\\.action, install ins_\\w+\\) against version 2 as dlv_\\w+, read-only$`));
    expect(lines[1]).toBe('recorded  200  (version 1)  attempt 1');
    expect(JSON.parse(lines[2]!)).toMatchObject({ state: { count: 1, read: 'ok', wrote: 'ok' } });
    expect(lines[3]).toMatch(/^replayed {2}200 {2}\(version 2, \d+ ms\)$/);
    // The preview's code ran: its read worked, its write was refused with the tag.
    expect(JSON.parse(lines[4]!)).toMatchObject({ state: { count: 100, read: 'ok', wrote: 'PlatformReplayReadOnlyError' } });
    expect(lines.slice(5, 8)).toEqual([
      'The answers differ (recorded → replayed):',
      '  $.state.count: 1 → 100',
      '  $.state.wrote: "ok" → "PlatformReplayReadOnlyError"',
    ]);
    // Nothing in the workspace changed, and the replay is no delivery of the app.
    expect(await memories()).toBe(before.memories);
    expect(await blockState()).toEqual({ count: 1, read: 'ok', wrote: 'ok' });
    await stack.controlPlane.deliveries.interactive.flush();
    expect(await deliveries()).toBe(before.deliveries);
  });

  it('runs it against the version asked for (--version), with --json', async () => {
    const run = await cli(['replay', deliveryId, '--version', '1', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ deliveryId, version: 1, class: 'interactive', type: 'block.action', hosting: 'platform', recorded: { status: 200, version: 1 }, replayed: { status: 200 } });
    // The replay's own log lines come with it, ending with its request line.
    expect(result.logs.at(-1)).toMatchObject({ level: 'request', deliveryId: result.replayId });
    expect(JSON.parse(result.replayed.response)).toMatchObject({ state: { count: 1, read: 'ok', wrote: 'PlatformReplayReadOnlyError' } });
    expect(await memories()).toBe(1);
  });

  it('replays a lifecycle delivery: its write is refused, so it fails where the recorded one succeeded, and nothing is saved', async () => {
    const before = await memories();
    // The first message of a new conversation: a `post.created`.
    const fresh = (await ws.client.post(`/circles/${circleId}/conversations`, { title: 'News' })).body.conversation.id as string;
    expect((await ws.client.post(`/conversations/${fresh}/messages`, { markdown: 'hello there' })).status).toBe(201);
    expect(await stack.controlPlane.deliveries.worker.drain()).toBe(1);
    expect(await memories()).toBe(before + 1);
    const posted = (await ws.client.get(`/apps/${appId}/deliveries?type=post.created`)).body.items[0].id as string;
    const run = await cli(['replay', posted]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toContain(`Replayed ${posted} (lifecycle post.created, install ins_`);
    expect(lines[1]).toBe('recorded  204  attempt 1');
    // The handler threw on the refused write (the SDK answers 500 without the message).
    expect(lines[2]).toMatch(/^replayed {2}500 {2}\(version 2, \d+ ms\)$/);
    expect(JSON.parse(lines[3]!)).toEqual({ error: 'handler-failed', message: 'event post.created threw' });
    // What the app logged while replaying: the handler's error, its frames in the app's own file.
    const logged = lines.slice(lines.indexOf('What the app logged while replaying:'));
    expect(logged.length).toBeGreaterThan(1);
    expect(logged.join('\n')).toMatch(/ERROR\s+event post\.created threw/);
    expect(logged.join('\n')).toContain('Error: the memory was not saved: PlatformReplayReadOnlyError');
    expect(logged.join('\n')).toMatch(/ {6}at \S[^\n]* \(app\.ts:45:\d+\)/);
    expect(await memories()).toBe(before + 1);
  });

  it('refuses what it cannot replay, with the tags', async () => {
    expect((await cli(['replay', 'dlv_nope'])).stderr).toContain('PlatformApiNotFoundError: No delivery with that id for this app');
    expect((await cli(['replay', deliveryId, '--version', '9'])).stderr).toContain('PlatformApiNotFoundError: The app has no version 9');
    const usage = await cli(['replay']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('platform replay takes one delivery id');
  });

  it('is in the OpenAPI document with every status, and the write refusal is documented on install-token writes', async () => {
    const doc = await (await stack.fetch('/v0/openapi.json')).json() as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    const replay = doc.paths['/apps/{app_id}/deliveries/{delivery_id}/replay']!.post!;
    expect(Object.keys(replay.responses).sort()).toEqual(['200', '400', '401', '404', '409', '413', '414', '431', '500', '503']);
    expect(doc.paths['/memories']!.post!.responses['403']!.description).toContain('PlatformReplayReadOnlyError');
    expect(doc.paths['/blocks/query']!.post!.responses['403']?.description ?? '').not.toContain('PlatformReplayReadOnlyError');
    expect(Object.keys(doc.paths['/apps/{app_id}/rollback']!.post!.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '414', '422', '431', '500', '503']);
    expect(Object.keys(doc.paths['/apps/{app_id}/versions']!.get!.responses).sort()).toEqual(['200', '400', '401', '404', '414', '431', '500', '503']);
  });
});
