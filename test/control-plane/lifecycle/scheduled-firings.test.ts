/**
 * Schedules (issue 23; docs/decisions/schedules.md) over real HTTP: the schedule loop writes
 * `schedule.fired` outbox events, the delivery loop sends them signed to a self-hosted receiver
 * and through a real runtime node to a hosted SDK app. Time moves by the stack's manual clock.
 * With real Postgres (DATABASE_URL), two loops on two connection pools race for the same due rows
 * and exactly one firing comes out; a suspended, paused or uninstalled install does not fire.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '@platform/sdk';
import { createLogger, createPgDb, type Db } from '@platform/control-plane';
import { createScheduleLoop, type ScheduleLoop } from '../../../control-plane/src/deliveries/schedules/loop.ts';
import { recordRowOutcomes } from '../../../control-plane/src/deliveries/schedules/store.ts';
import { SECRET, startRuntime, type TestRuntime } from '../../runtime/support/runtime.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { deliveriesOf, eventsOf, seedApp, seedInstall, seedWorkspace } from './fixtures.ts';

const MINUTE = 60_000;
let stack: Stack;
let rt: TestRuntime;
let receiver: Receiver;
let loop: ScheduleLoop;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  rt = await startRuntime();
  stack = await startStack({ env: { RUNTIME_URL: rt.url, RUNTIME_SECRET: SECRET } });
  receiver = await startReceiver();
  loop = stack.controlPlane.deliveries.schedules;
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await receiver?.stop();
  await stack?.stop();
  await rt?.stop();
});

const iso = (ms: number) => new Date(ms).toISOString();
/** The clock at the next whole minute plus `seconds`. */
function toNextMinute(seconds = 0): number {
  const now = stack.clock.now();
  stack.clock.set(Math.floor(now / MINUTE) * MINUTE + MINUTE + seconds * 1000);
  return stack.clock.now();
}

async function scheduleRows(installId: string) {
  const { rows } = await stack.db.query<{ name: string; next_due_at: Date | null; last_due_at: Date | null; skipped: number }>(
    'select name, next_due_at, last_due_at, skipped from install_schedules where install_id = $1 order by name', [installId]);
  return rows;
}

const firingsOf = async (installId: string) => (await eventsOf(stack, installId)).filter((e) => e.type === 'schedule.fired');

describe('schedules of a self-hosted app', () => {
  let installId: string;
  let signingSecret: string;
  let appId: string;
  let tooling: ReturnType<Stack['v0']>;

  it('are read from the version the install runs and fire at their due time, signed, through the outbox', async () => {
    const setup = await seedWorkspace(stack);
    const app = await seedApp(stack, {
      workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiver.url, events: [],
      schedules: [{ name: 'tick', cron: '* * * * *' }, { name: 'nightly', cron: '0 3 * * *', timeZone: 'Europe/Berlin' }],
    });
    signingSecret = app.signingSecret;
    appId = app.id;
    tooling = stack.v0(setup.ws.apiKey);
    installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });

    const start = stack.clock.now();
    expect(await loop.runOnce()).toMatchObject({ synced: 1, fired: 0 });
    const rows = await scheduleRows(installId);
    expect(rows.map((r) => [r.name, r.next_due_at?.toISOString()])).toEqual([
      ['nightly', '2026-01-01T02:00:00.000Z'],
      ['tick', iso(Math.floor(start / MINUTE) * MINUTE + MINUTE)],
    ]);

    const due = toNextMinute(0);
    expect(await loop.runOnce()).toMatchObject({ synced: 0, fired: 1 });
    expect(await stack.controlPlane.deliveries.worker.drain()).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req!.envelope).toMatchObject({ type: 'schedule.fired', data: { schedule: { name: 'tick', cron: '* * * * *', timeZone: 'UTC', dueAt: iso(due), missed: 0 } } });
    expect(req!.headers['webhook-id']).toBe(req!.envelope.id);
    expect(await verifyDelivery({ headers: req!.headers as Record<string, string>, body: req!.body, secret: signingSecret, now: stack.clock.now() })).toMatchObject({ ok: true });
    expect((await deliveriesOf(stack, installId)).map((d) => [d.type, d.status])).toEqual([['schedule.fired', 'delivered']]);
    // Nothing more is due in the same minute.
    expect(await loop.runOnce()).toMatchObject({ fired: 0 });
    // Operator metrics by app: the firing and its lag (due time to the event: the pass ran at the due time).
    const metrics = await (await fetch(stack.metricsUrl)).text();
    expect(metrics).toContain(`platform_schedule_firings_total{app="${app.slug}"} 1`);
    expect(metrics).toContain(`platform_schedule_firing_lag_seconds_bucket{le="0.1",app="${app.slug}"} 1`);
  });

  it('after downtime fire once for the latest due time, saying how many were missed', async () => {
    const before = (await firingsOf(installId)).length;
    stack.clock.advance(10 * MINUTE + 30_000);
    const latest = Math.floor(stack.clock.now() / MINUTE) * MINUTE;
    expect(await loop.runOnce()).toMatchObject({ fired: 1 });
    const firings = await firingsOf(installId);
    expect(firings).toHaveLength(before + 1);
    expect(firings.at(-1)!.payload.schedule).toMatchObject({ name: 'tick', dueAt: iso(latest), missed: 9 });
    await stack.controlPlane.deliveries.worker.drain();
  });

  it('retry a failed firing on the outbox schedule with the first attempt\'s webhook-id', async () => {
    receiver.respond = (req) => (req.attempt === 1 ? 500 : 204);
    const seen = receiver.requests.length;
    toNextMinute(1);
    await loop.runOnce();
    await stack.controlPlane.deliveries.worker.drain();
    const failed = (await deliveriesOf(stack, installId)).at(-1)!;
    expect(failed).toMatchObject({ type: 'schedule.fired', status: 'pending', last_status: 500 });
    stack.clock.advance(MINUTE);
    // The next minute's firing and the retry go out together.
    await loop.runOnce();
    await stack.controlPlane.deliveries.worker.drain();
    const attempts = receiver.requests.slice(seen).filter((r) => r.envelope.id === failed.id);
    expect(attempts.map((r) => [r.attempt, r.headers['webhook-id']])).toEqual([[1, failed.id], [2, failed.id]]);
    receiver.respond = () => 204;
  });

  it('are listed for their author with next and last firing and outcome, and fire on demand', async () => {
    const list = await tooling.get(`/apps/${appId}/schedules`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const tick = list.body.items.find((s: { name: string }) => s.name === 'tick');
    // The last firing's first attempt was answered 500 (the receiver still fails every first attempt): it waits for its retry.
    expect(tick).toMatchObject({ installId, installKind: 'workspace', cron: '* * * * *', timeZone: 'UTC', lastOutcome: 'pending', skipped: 0 });
    expect(Date.parse(tick.nextDueAt)).toBeGreaterThan(stack.clock.now());
    expect(list.body.items.find((s: { name: string }) => s.name === 'nightly')).toMatchObject({ lastDueAt: null, lastOutcome: null, timeZone: 'Europe/Berlin' });

    const run = await tooling.post(`/apps/${appId}/schedules/nightly/run`, { installId });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body).toMatchObject({ installId, dueAt: iso(stack.clock.now()) });
    await stack.controlPlane.deliveries.worker.drain();
    expect(receiver.requests.at(-1)!.envelope).toMatchObject({ id: run.body.id, type: 'schedule.fired', data: { schedule: { name: 'nightly', missed: 0 } } });
    // The schedule's own next firing did not move.
    expect((await tooling.get(`/apps/${appId}/schedules`)).body.items.find((s: { name: string }) => s.name === 'nightly').nextDueAt).toBe(
      list.body.items.find((s: { name: string }) => s.name === 'nightly').nextDueAt);
    expect((await tooling.post(`/apps/${appId}/schedules/nope/run`, { installId })).body._tag).toBe('PlatformApiNotFoundError');
    expect((await tooling.post(`/apps/${appId}/schedules/tick/run`, {})).body._tag).toBe('PlatformAppInstallNotFoundError');
  });

  it('exactly one firing per due time when two control planes race, whatever the row locks saw', async (ctx) => {
    if (!process.env.DATABASE_URL) return ctx.skip();
    const { rows } = await stack.db.query<{ schema: string }>('select current_schema() as schema');
    const other: Db = createPgDb({ connectionString: process.env.DATABASE_URL, schema: rows[0]!.schema, max: 4 });
    cleanups.push(() => other.close());
    const rival = createScheduleLoop({
      db: other, clock: stack.clock, logger: createLogger(stack.config), wake: () => undefined, settings: { batchSize: 1, pollMs: 1_000 },
    });
    const before = (await firingsOf(installId)).length;
    for (let i = 0; i < 5; i++) {
      stack.clock.advance(MINUTE);
      const [a, b] = await Promise.all([loop.runOnce(), rival.runOnce()]);
      expect(a.fired + b.fired).toBe(1);
    }
    const firings = await firingsOf(installId);
    expect(firings).toHaveLength(before + 5);
    expect(new Set(firings.map((f) => f.payload.schedule.dueAt)).size).toBe(firings.length);

    // Two writers that both decided the same due time (a row read before the other's commit): the
    // unique firing key keeps the second out.
    const dueAt = iso(Math.floor(stack.clock.now() / MINUTE) * MINUTE);
    const outcome = (id: string) => ({ install_id: installId, name: 'tick', next_due_at: null, skipped: 0, event: { id, due_at: dueAt, payload: { schedule: { name: 'tick', dueAt, missed: 0 } } } });
    const written = await Promise.all([
      stack.db.transaction((tx) => recordRowOutcomes(tx, [outcome('evt_race_a')], new Date(stack.clock.now()))),
      other.transaction((tx) => recordRowOutcomes(tx, [outcome('evt_race_b')], new Date(stack.clock.now()))),
    ]);
    expect(written.map((set) => set.size)).toEqual([0, 0]);
    await stack.db.query(`update install_schedules set next_due_at = date_trunc('minute', $2::timestamptz) + interval '1 minute' where install_id = $1 and name = 'tick'`, [installId, new Date(stack.clock.now())]);
    await stack.controlPlane.deliveries.worker.drain();
  });

  it('do not fire while the install is paused or suspended, and go with uninstall or a version without them', async () => {
    const before = (await firingsOf(installId)).length;
    await stack.db.query('update installs set deliveries_paused_at = $2 where id = $1', [installId, new Date(stack.clock.now())]);
    toNextMinute(0);
    expect(await loop.runOnce()).toMatchObject({ fired: 0, skipped: 1 });
    await stack.db.query(`update installs set deliveries_paused_at = null, status = 'suspended' where id = $1`, [installId]);
    stack.clock.advance(3 * MINUTE);
    expect(await loop.runOnce()).toMatchObject({ fired: 0, skipped: 3 });
    expect((await firingsOf(installId)).length).toBe(before);
    expect((await scheduleRows(installId)).find((r) => r.name === 'tick')!.skipped).toBe(4);

    // Active again: the next due time fires; the passed-over ones are not owed.
    await stack.db.query(`update installs set status = 'active' where id = $1`, [installId]);
    stack.clock.advance(MINUTE);
    const fired = await loop.runOnce();
    expect(fired).toMatchObject({ fired: 1 });
    expect((await firingsOf(installId)).at(-1)!.payload.schedule.missed).toBe(0);

    // A version without `nightly`: its row goes; `tick` keeps its state.
    const { rows: [current] } = await stack.db.query<{ app_id: string; manifest: any }>(
      'select v.app_id, v.manifest from installs i join app_versions v on v.app_id = i.app_id and v.version = i.version where i.id = $1', [installId]);
    const manifest = { ...current!.manifest, schedules: current!.manifest.schedules.filter((s: { name: string }) => s.name === 'tick') };
    await stack.db.query(`insert into app_versions (app_id, version, target, manifest, manifest_hash, created_at) values ($1, 2, 'production', $2, 'v2', $3)`,
      [current!.app_id, JSON.stringify(manifest), new Date(stack.clock.now())]);
    const tickBefore = (await scheduleRows(installId)).find((r) => r.name === 'tick')!;
    await stack.db.query('update installs set version = 2 where id = $1', [installId]);
    expect(await loop.runOnce()).toMatchObject({ synced: 1, fired: 0 });
    expect(await scheduleRows(installId)).toEqual([tickBefore]);

    await stack.db.query(`update installs set status = 'uninstalled' where id = $1`, [installId]);
    stack.clock.advance(5 * MINUTE);
    expect(await loop.runOnce()).toMatchObject({ synced: 1, fired: 0 });
    expect(await scheduleRows(installId)).toEqual([]);
    await stack.controlPlane.deliveries.worker.drain();
  });
});

describe('schedules of a hosted app', () => {
  it('run the SDK handler in the runtime node: acknowledged, or failed and retried when it throws', async () => {
    const built = await build({
      entryPoints: [fileURLToPath(new URL('../../fixtures/runtime/sdk-schedules-app.ts', import.meta.url))],
      bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
      define: { __PLATFORM_BUNDLE__: 'true' },
    });
    const sha = await rt.push(built.outputFiles[0]!.text);
    const setup = await seedWorkspace(stack);
    const app = await seedApp(stack, {
      workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, hosting: 'platform', bundleSha256: sha, slug: 'hosted-clock', events: [],
      schedules: [{ name: 'tick', cron: '* * * * *' }, { name: 'failing', cron: '*/5 * * * *', timeZone: 'Europe/Berlin' }],
    });
    const installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
    await loop.runOnce();
    // To the next multiple of five minutes: both are due.
    const now = stack.clock.now();
    stack.clock.set(Math.floor(now / (5 * MINUTE)) * 5 * MINUTE + 5 * MINUTE);
    expect(await loop.runOnce()).toMatchObject({ fired: 2 });
    await stack.controlPlane.deliveries.worker.drain();
    const deliveries = await deliveriesOf(stack, installId);
    const byName = new Map((await firingsOf(installId)).map((e) => [e.id, e.payload.schedule.name as string]));
    const outcome = Object.fromEntries(deliveries.map((d) => [byName.get(d.id), [d.status, d.last_status]]));
    expect(outcome).toEqual({ tick: ['delivered', 204], failing: ['pending', 500] });
  });
});
