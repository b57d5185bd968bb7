/**
 * The queue send's limit read (issue 23's figures; docs/decisions/queues.md) on real Postgres
 * (DATABASE_URL, default the local test database), in a fresh schema created and dropped:
 *
 * - With BENCH_QUEUE_WAITING messages waiting in one install's queue (default 1,000 and 10,000,
 *   written by the send's own statement, delayed a week), the time of the limit read as it was (the
 *   sum of `queued_bytes` over the undelivered messages) and as it is (migration 031's running count).
 * - What the count's triggers add to deliveries statements that are not queue messages (a click's
 *   interactive delivery inserted, which has none; a lifecycle delivery claimed, its outcome): the
 *   same statements with the update and delete triggers enabled and disabled; and a send's insert
 *   of 100 messages (its count is in the outbox trigger, always on).
 *
 * Every figure is server time (`clock_timestamp()` around a loop inside one PL/pgSQL block, so the
 * client's round trips and the load on Node do not count), per statement, median of 5 rounds.
 * `npm run bench -- queue-usage`.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { createPgDb, migrate, type Db } from '@platform/control-plane';
import { insertMessages, queueUsage, type MessageRow } from '../../control-plane/src/deliveries/queues/store.ts';
import type { BenchRow } from './run.ts';

const WAITING = (process.env.BENCH_QUEUE_WAITING ?? '1000,10000').split(',').map(Number);
const ROUNDS = 5;
const OLD_SUM = `select coalesce(sum(e.queued_bytes), 0)::int from deliveries d join outbox_events e on e.id = d.event_id
  where d.install_id = 'ins_q' and d.type = 'queue.message' and d.status in ('pending', 'paused')`;
const NEW_READ = `select queued_bytes from queue_usage where install_id = 'ins_q'`;

async function seed(db: Db): Promise<void> {
  const at = new Date();
  await db.query(`insert into workspaces (id, name, created_at) values ('ws_q', 'Bench', $1)`, [at]);
  await db.query(`insert into members (id, workspace_id, name, role, created_at) values ('mem_q', 'ws_q', 'Owner', 'owner', $1)`, [at]);
  await db.query(
    `insert into apps (id, workspace_id, owner_member_id, slug, name, hosting, endpoint_url, client_id, client_secret_hash, signing_secret_enc, created_at)
     values ('app_q', 'ws_q', 'mem_q', 'bench-q', 'Bench', 'self', 'http://127.0.0.1:9/', 'cli_q', 'unused', 'unused', $1)`, [at]);
  const manifest = { schemaVersion: 1, name: 'Bench', slug: 'bench-q', hosting: 'self', endpoint: { url: 'http://127.0.0.1:9/' }, events: ['app.installed'], queue: { maxAttempts: 5 } };
  await db.query(`insert into app_versions (app_id, version, target, manifest, manifest_hash, created_at) values ('app_q', 1, 'production', $1, 'x', $2)`, [JSON.stringify(manifest), at]);
  await db.query(`insert into installs (id, app_id, workspace_id, kind, version, approved_scopes, status, created_at, updated_at) values ('ins_q', 'app_q', 'ws_q', 'workspace', 1, '[]', 'active', $1, $1)`, [at]);
}

/** Fills the install's queue up to `total` waiting messages, 1,000 per send statement. */
async function fill(db: Db, total: number): Promise<void> {
  const now = new Date();
  const later = new Date(now.getTime() + 7 * 86_400_000);
  let have = (await queueUsage(db, 'ins_q', now)).queuedBytes / 100;
  while (have < total) {
    const n = Math.min(1_000, total - have);
    const rows: MessageRow[] = Array.from({ length: n }, () => ({ id: `evt_${randomBytes(9).toString('hex')}`, key: null, payload: { message: { body: 'x'.repeat(80) } }, bytes: 100, deliver_at: later }));
    await db.transaction((tx) => insertMessages(tx, 'ins_q', rows, now, later));
    have += n;
  }
  await db.query('analyze deliveries; analyze outbox_events');
}

/** Server time per run of `sql` (µs), `times` runs inside one block; median of the rounds. */
async function timed(db: Db, sql: string, times: number): Promise<number> {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const { rows } = await db.query<{ us: number }>(
      `select bench_time($1, $2) as us`, [sql, times]);
    rounds.push(rows[0]!.us);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

const TIMER = `create function bench_time(statement text, times int) returns double precision language plpgsql as $$
declare t0 timestamptz; begin
  t0 := clock_timestamp();
  for i in 1..times loop execute statement; end loop;
  return extract(epoch from clock_timestamp() - t0) * 1e6 / times;
end $$`;

const OTHER: Record<string, [string, number]> = {
  'click delivery insert': [`insert into deliveries (id, app_id, install_id, class, type, status, created_at) values ('dlv_' || gen_random_uuid(), 'app_q', 'ins_q', 'interactive', 'block.action', 'failed', now())`, 200],
  'event delivery claim': [`update deliveries set lease = gen_random_uuid()::text, attempts = attempts + 1 where id = 'evt_other'`, 200],
  'event delivery outcome': [`update deliveries set status = 'pending', lease = null, last_status = 500 where id = 'evt_other'`, 200],
  // The send's own insert (its outbox trigger makes the deliveries and counts their bytes).
  'queue send of 100 messages': [`insert into outbox_events (id, install_id, type, payload, actor, created_at, deliver_at, queued_bytes)
    select 'evt_' || gen_random_uuid(), 'ins_q', 'queue.message', '{}', null, now(), now() + interval '7 days', 100 from generate_series(1, 100)`, 10],
};

/** Each statement with the update and delete triggers on and off, alternating round by round (µs, medians). */
async function otherStatements(db: Db): Promise<Record<string, { on: number; off: number }>> {
  await db.query(`insert into outbox_events (id, install_id, type, payload, actor, created_at) values ('evt_other', 'ins_q', 'app.installed', '{}', null, now())`);
  const out: Record<string, { on: number[]; off: number[] }> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const on of [true, false]) {
      await setTriggers(db, on);
      for (const [name, [sql, times]] of Object.entries(OTHER)) {
        const { rows } = await db.query<{ us: number }>('select bench_time($1, $2) as us', [sql, times]);
        ((out[name] ??= { on: [], off: [] })[on ? 'on' : 'off']).push(rows[0]!.us);
      }
    }
  }
  await setTriggers(db, true);
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return Object.fromEntries(Object.entries(out).map(([name, v]) => [name, { on: median(v.on), off: median(v.off) }]));
}

async function setTriggers(db: Db, on: boolean): Promise<void> {
  for (const t of ['update', 'delete']) await db.query(`alter table deliveries ${on ? 'enable' : 'disable'} trigger deliveries_queue_usage_${t}`);
}

export async function run(): Promise<BenchRow[]> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (err) {
    process.stdout.write(`  queue-usage: no Postgres at ${url} (${(err as Error).message}); skipped\n`);
    return [];
  }
  await admin.query(`create schema "${schema}"`);
  const db = createPgDb({ connectionString: url, schema, max: 1 });
  const rows: BenchRow[] = [];
  try {
    await migrate(db);
    await seed(db);
    await db.query(TIMER);
    for (const waiting of WAITING) {
      await fill(db, waiting);
      const before = await timed(db, OLD_SUM, 20);
      const after = await timed(db, NEW_READ, 200);
      rows.push({ name: `limit read, ${waiting} waiting: the sum (before)`, value: before / 1000, unit: 'ms', target: '', ratio: null });
      rows.push({ name: `limit read, ${waiting} waiting: the count (after)`, value: after / 1000, unit: 'ms', target: '', ratio: null });
    }
    for (const [name, { on, off }] of Object.entries(await otherStatements(db))) {
      rows.push({ name: `${name}, triggers off`, value: off / 1000, unit: 'ms', target: '', ratio: null });
      rows.push({ name: `${name}, triggers on`, value: on / 1000, unit: 'ms', target: '', ratio: null });
    }
    process.stdout.write(`  load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
    return rows;
  } finally {
    await db.close();
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  }
}
