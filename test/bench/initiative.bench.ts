/**
 * Benchmark of schedules and queues (issue 23, item 6) on real Postgres (DATABASE_URL, default the
 * local test database), through a whole control plane with its loops running, and a self-hosted
 * receiver on loopback answering `204` at once.
 *
 * - Schedules: BENCH_SCHEDULE_INSTALLS installs (default 10,000) of an app with a schedule every
 *   minute. The control plane's clock is the system clock shifted so that a minute boundary comes
 *   a few seconds after the rows are read; the figure is the firing lag, from the due time to the
 *   first attempt's arrival, p99. Target ≤ 2 s.
 * - Queues: BENCH_QUEUE_MESSAGES messages (default 50,000) sent through `POST /v0/queue/messages`
 *   in batches of 100 by 8 concurrent senders over 20 installs (the per-install rate limit is
 *   1,000/s). Figures: messages acknowledged per second, first send to last acknowledgement
 *   (target ≥ 5,000/s); send (request start) to the first attempt's arrival, p99 (target ≤ 250 ms).
 *   Then BENCH_QUEUE_PACED_RATE messages a second (default 1,000) for 5 s, sent in a batch every
 *   50 ms: the same latency at a rate the loops keep up with (informative; the flat-out figure
 *   measures the backlog when senders outrun the loops).
 * - Beside each phase: the control plane's CPU per firing or message (this process: it also runs
 *   the senders and the receiver), its Postgres backends' CPU (found by application_name, read from
 *   /proc: a local server) and statements per operation, which do not depend on the machine's
 *   load, and the load average. BENCH_STATEMENTS=1 prints the statements by wall time.
 *
 * `BENCH_SCHEDULE_INSTALLS=20 BENCH_QUEUE_MESSAGES=400 npm run bench -- initiative` checks it runs.
 * A fresh schema is created and dropped.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { generateSigningSecret } from '@platform/sdk';
import { createControlPlane, createLogger, createMemoryKv, createPgDb, loadConfig, migrate, type Clock, type Db } from '@platform/control-plane';
import { sealSigningSecret } from '../../control-plane/src/apps/apps/signing.ts';
import { createSecrets } from '../../control-plane/src/core/crypto/secrets.ts';

interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  ratio: number | null;
}

const SCHEDULE_INSTALLS = Number(process.env.BENCH_SCHEDULE_INSTALLS ?? 10_000);
const QUEUE_MESSAGES = Number(process.env.BENCH_QUEUE_MESSAGES ?? 50_000);
const QUEUE_INSTALLS = 20;
const SENDERS = 8;
/** The paced phase: messages per second (in batches every 50 ms) and how long. */
const PACED_RATE = Number(process.env.BENCH_QUEUE_PACED_RATE ?? 1_000);
const PACED_SECONDS = 5;
const BATCH = 100;

/** BENCH_STATEMENTS=1: each statement's count and wall time (waits included), printed at the end; to find the hot ones. */
const STATEMENT_TIMES = process.env.BENCH_STATEMENTS === '1';
const statementTimes = new Map<string, { n: number; ms: number }>();

/** Counts statements (inside transactions too) so a phase can say how many it ran per operation. */
function countingDb(inner: Db, counter: { n: number }): Db {
  const wrap = (db: Db): Db => ({
    query: async (sql, params) => {
      counter.n += 1;
      if (!STATEMENT_TIMES) return db.query(sql, params);
      const started = performance.now();
      try {
        return await db.query(sql, params);
      } finally {
        const key = sql.replace(/\s+/g, ' ').slice(0, 90);
        const seen = statementTimes.get(key) ?? { n: 0, ms: 0 };
        statementTimes.set(key, { n: seen.n + 1, ms: seen.ms + performance.now() - started });
      }
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn) => {
      counter.n += 2; // begin and commit
      return db.transaction((tx) => fn(wrap(tx)));
    },
    close: () => db.close(),
  });
  return wrap(inner);
}

/** CPU seconds (user + system) of the Postgres backends serving `applicationName` (local server, /proc). */
async function postgresCpu(admin: pg.Client, applicationName: string): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [applicationName]);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // a backend that ended in between: its time is lost, which only lowers the figure
    }
  }
  return ticks / 100;
}

/** What one phase cost: this process's CPU (the control plane runs in it), its Postgres backends' CPU, statements. */
async function phaseCost(admin: pg.Client, applicationName: string, counter: { n: number }) {
  const cpu0 = process.cpuUsage();
  const pg0 = await postgresCpu(admin, applicationName);
  const q0 = counter.n;
  return async (operations: number) => {
    const cpu = process.cpuUsage(cpu0);
    const pgCpu = await postgresCpu(admin, applicationName) - pg0;
    return {
      nodeMsPerOp: (cpu.user + cpu.system) / 1000 / operations,
      pgMsPerOp: (pgCpu * 1000) / operations,
      queriesPerOp: (counter.n - q0) / operations,
    };
  };
}

/** The load-independent measures of a phase, as informative rows. */
function costRows(what: string, cost: { nodeMsPerOp: number; pgMsPerOp: number; queriesPerOp: number }): BenchRow[] {
  return [
    { name: `control-plane CPU per ${what} (sends, loops, receiver)`, value: cost.nodeMsPerOp, unit: 'ms', target: '(informative)', ratio: null },
    { name: `Postgres CPU per ${what} (its backends)`, value: cost.pgMsPerOp, unit: 'ms', target: '(informative)', ratio: null },
    { name: `statements per ${what}`, value: cost.queriesPerOp, unit: '', target: '(informative)', ratio: null },
  ];
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/**
 * Counts first arrivals per `webhook-id` (on `clock`), keeping each envelope's data, and firings
 * per due time. The receiver runs in the control plane's process, so what it does per request is
 * kept O(1): a wait condition that rescanned every arrival made the first bench measure itself.
 */
async function startReceiver(clock: Clock) {
  const arrived = new Map<string, { at: number; data: any }>();
  const firingsByDue = new Map<string, number>();
  let waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!arrived.has(id)) {
        const data = JSON.parse(Buffer.concat(chunks).toString('utf8')).data;
        arrived.set(id, { at: clock.now(), data });
        const dueAt = data?.schedule?.dueAt;
        if (typeof dueAt === 'string') firingsByDue.set(dueAt, (firingsByDue.get(dueAt) ?? 0) + 1);
      }
      res.writeHead(204).end();
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/platform`,
    arrived,
    firingsByDue,
    until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => done(false), timeoutMs);
        const check = () => { if (condition()) done(true); };
        const done = (ok: boolean) => {
          clearTimeout(timer);
          waiters = waiters.filter((w) => w !== check);
          resolve(ok);
        };
        waiters.push(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** One app (manifest given) with `count` installs, each in a workspace of its own (one install per app and workspace). */
async function seedApp(db: Db, masterKey: Buffer, input: { id: string; endpoint: string; manifest: Record<string, unknown>; count: number }): Promise<string[]> {
  const secrets = createSecrets({ masterKey });
  const at = new Date();
  const owner = `mem_${input.id}`;
  await db.query(`insert into workspaces (id, name, created_at) select 'ws_' || $1 || '_' || g, 'Bench', $2 from generate_series(0, $3 - 1) g`, [input.id, at, input.count]);
  await db.query(`insert into members (id, workspace_id, name, role, created_at) values ($1, 'ws_' || $2 || '_0', 'Owner', 'owner', $3)`, [owner, input.id, at]);
  await db.query(
    `insert into apps (id, workspace_id, owner_member_id, slug, name, hosting, endpoint_url, client_id, client_secret_hash, signing_secret_enc, created_at)
     values ($1, 'ws_' || $1 || '_0', $2, $3, 'Bench', 'self', $4, $5, 'unused', $6, $7)`,
    [input.id, owner, input.manifest.slug, input.endpoint, `cli_${input.id}`, sealSigningSecret(secrets, input.id, generateSigningSecret()), at]);
  await db.query(`insert into app_versions (app_id, version, target, manifest, manifest_hash, created_at) values ($1, 1, 'production', $2, 'x', $3)`, [input.id, JSON.stringify(input.manifest), at]);
  await db.query(
    `insert into installs (id, app_id, workspace_id, kind, version, approved_scopes, status, created_at, updated_at)
     select 'ins_' || $1 || '_' || g, $1, 'ws_' || $1 || '_' || g, 'workspace', 1, '[]', 'active', $2, $2 from generate_series(0, $3 - 1) g`,
    [input.id, at, input.count]);
  return Array.from({ length: input.count }, (_, g) => `ins_${input.id}_${g}`);
}

export async function run(): Promise<BenchRow[]> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (err) {
    process.stdout.write(`  initiative: no Postgres at ${url} (${(err as Error).message}); skipped\n`);
    return [];
  }
  await admin.query(`create schema "${schema}"`);
  // Named so the Postgres backends serving the control plane can be found (their CPU is measured).
  const applicationName = `platform-${schema}`;
  const appUrl = `${url}${url.includes('?') ? '&' : '?'}application_name=${applicationName}`;
  const counter = { n: 0 };
  const rawDb = createPgDb({ connectionString: appUrl, schema, max: 12 });
  const db = countingDb(rawDb, counter);
  // Shifted just before the control plane starts, so that a minute boundary comes 8 s later.
  let offset = 0;
  const clock: Clock = { now: () => Date.now() + offset };
  const receiver = await startReceiver(clock);
  const dataDir = `/tmp/platform-bench-${schema}`;
  try {
    await migrate(db);
    const config = loadConfig({
      NODE_ENV: 'development', LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', DATA_DIR: dataDir, DATABASE_URL: appUrl,
      MASTER_KEY: randomBytes(32).toString('base64'), RUNTIME_SECRET: randomBytes(24).toString('base64url'), OPERATOR_TOKEN: randomBytes(24).toString('base64url'),
      OUTBOX_WORKERS: '3', OUTBOX_BATCH_SIZE: '200', OUTBOX_CONCURRENCY: '100', OUTBOX_POLL_MS: '1000', SCHEDULE_POLL_MS: '250', SCHEDULE_BATCH_SIZE: '2000',
    });
    const base = { schemaVersion: 1, name: 'Bench', hosting: 'self', endpoint: { url: receiver.url }, events: [] };
    await seedApp(db, config.masterKey, { id: 'app_sched', endpoint: receiver.url, count: SCHEDULE_INSTALLS, manifest: { ...base, slug: 'bench-schedules', schedules: [{ name: 'tick', cron: '* * * * *', timeZone: 'UTC' }] } });
    const queueInstalls = await seedApp(db, config.masterKey, { id: 'app_queue', endpoint: receiver.url, count: QUEUE_INSTALLS, manifest: { ...base, slug: 'bench-queue', queue: { maxAttempts: 5 } } });
    const now = Date.now();
    offset = Math.ceil(now / 60_000) * 60_000 - 8_000 - now;
    const controlPlane = createControlPlane({ config, logger: createLogger(config), db, kv: createMemoryKv({ clock }), clock });
    const { url: serviceUrl } = await controlPlane.start();
    try {
      // Schedules: the first minute boundary after every install's schedule was read (large sizes
      // take several passes to read) is due for all of them.
      for (;;) {
        const { rows } = await db.query<{ n: number }>('select count(*)::int as n from install_schedules');
        if (rows[0]!.n >= SCHEDULE_INSTALLS) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const scheduleCost = await phaseCost(admin, applicationName, counter);
      const due = Math.ceil(clock.now() / 60_000) * 60_000;
      const dueIso = new Date(due).toISOString();
      const firings = () => [...receiver.arrived.values()].filter((a) => a.data?.schedule?.dueAt === dueIso);
      const allFired = await receiver.until(() => (receiver.firingsByDue.get(dueIso) ?? 0) >= SCHEDULE_INSTALLS, Math.max(30_000, due - clock.now() + 120_000));
      const lags = firings().map((a) => a.at - due);
      const perFiring = await scheduleCost(SCHEDULE_INSTALLS);
      const scheduleRows: BenchRow[] = [
        { name: `schedule firing lag p99 (${SCHEDULE_INSTALLS} installs, every minute${allFired ? '' : `, only ${lags.length} fired in time`})`, value: percentile(lags, 99), unit: 'ms', target: '≤ 2000 ms', ratio: 2000 / percentile(lags, 99) },
        { name: 'schedule firing lag p50', value: percentile(lags, 50), unit: 'ms', target: '(informative)', ratio: null },
        ...costRows('firing', perFiring),
      ];
      receiver.arrived.clear();

      // Queues: tokens per install, then senders in parallel.
      const tokens = await Promise.all(queueInstalls.map(async (installId, i) => (await controlPlane.tokens.mint('install', { installId, appId: 'app_queue', workspaceId: `ws_app_queue_${i}` })).token));
      const sentAt = new Map<string, number>();
      let next = 0;
      const queueCost = await phaseCost(admin, applicationName, counter);
      const started = clock.now();
      const send = async (token: string, count: number) => {
        const at = clock.now();
        const res = await fetch(`${serviceUrl}/v0/queue/messages`, {
          method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ messages: Array.from({ length: count }, (_, i) => ({ body: { n: i } })) }),
        });
        const body = await res.json() as { messages?: Array<{ id: string }> };
        if (!res.ok || !body.messages) throw new Error(`send answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
        for (const m of body.messages) sentAt.set(m.id, at);
      };
      const sender = async (k: number) => {
        while (next < QUEUE_MESSAGES) {
          const count = Math.min(BATCH, QUEUE_MESSAGES - next);
          next += count;
          await send(tokens[(k + next / BATCH) % tokens.length | 0]!, count);
        }
      };
      await Promise.all(Array.from({ length: SENDERS }, (_, k) => sender(k)));
      await receiver.until(() => receiver.arrived.size >= QUEUE_MESSAGES, 300_000);
      const perMessage = await queueCost(QUEUE_MESSAGES);
      const last = Math.max(...[...receiver.arrived.values()].map((a) => a.at));
      const throughput = receiver.arrived.size / ((last - started) / 1000);
      const latencies = [...receiver.arrived].flatMap(([id, a]) => (sentAt.has(id) ? [a.at - sentAt.get(id)!] : []));

      // The same path at a rate the loops keep up with: one message's latency without a backlog.
      receiver.arrived.clear();
      sentAt.clear();
      const tick = 50;
      const perTick = Math.max(1, Math.round(PACED_RATE * tick / 1000));
      const ticks = Math.round(PACED_SECONDS * 1000 / tick);
      const pacedStart = Date.now();
      const sends: Promise<void>[] = [];
      for (let t = 0; t < ticks; t++) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, pacedStart + t * tick - Date.now())));
        sends.push(send(tokens[t % tokens.length]!, perTick));
      }
      await Promise.all(sends);
      await receiver.until(() => receiver.arrived.size >= perTick * ticks, 60_000);
      const paced = [...receiver.arrived].flatMap(([id, a]) => (sentAt.has(id) ? [a.at - sentAt.get(id)!] : []));
      return [
        ...scheduleRows,
        { name: `queue send → self-hosted ack (${QUEUE_MESSAGES} messages, ${QUEUE_INSTALLS} installs)`, value: throughput, unit: '/s', target: '≥ 5000/s', ratio: throughput / 5000 },
        { name: 'queue send → first attempt p99 (senders flat out)', value: percentile(latencies, 99), unit: 'ms', target: '≤ 250 ms', ratio: 250 / percentile(latencies, 99) },
        { name: 'queue send → first attempt p50 (senders flat out)', value: percentile(latencies, 50), unit: 'ms', target: '(informative)', ratio: null },
        { name: `queue send → first attempt p99, paced at ${PACED_RATE}/s for ${PACED_SECONDS} s`, value: percentile(paced, 99), unit: 'ms', target: '(informative: no backlog)', ratio: null },
        ...costRows('message', perMessage),
        { name: 'load average (1 min) at the end', value: loadavg()[0]!, unit: '', target: '(informative)', ratio: null },
      ];
    } finally {
      await controlPlane.stop();
      if (STATEMENT_TIMES) {
        for (const [sql, t] of [...statementTimes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) {
          process.stdout.write(`  ${t.ms.toFixed(0).padStart(8)} ms ${String(t.n).padStart(7)}× ${sql}\n`);
        }
      }
    }
  } finally {
    await receiver.close();
    await db.close();
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
    const { rm } = await import('node:fs/promises');
    await rm(dataDir, { recursive: true, force: true });
  }
}
