/**
 * Benchmark of log drains (issue 25 item 5) on real Postgres (DATABASE_URL, default the local test
 * database), through a whole control plane with its loops running (the drains' shipper among them)
 * and a receiver on loopback answering `204` at once.
 *
 * What it answers: does a drain slow log ingestion? The figure is the wall time of storing a node's
 * batch (`logs.ingest`, BENCH_DRAIN_LINES lines a batch, default 100), p50 and p99, with no drain and
 * with 3 drains on the app being shipped meanwhile; the ratio of the two is the target (≤ 1.05 at
 * p50). Beside it, informative: this process's CPU per line stored with and without the drains
 * (the shipper's reads, signing and POSTs run in the same process), the time from the last batch
 * stored to its last line received by every drain, and what `wake()` (the only code ingestion runs
 * for drains) costs per call. The load average is printed: figures on a busy machine are noisy.
 *
 * `BENCH_DRAIN_BATCHES=50 npm run bench -- log-drains` checks it runs. A fresh schema is created and dropped.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import pg from 'pg';
import { generateSigningSecret } from '@platform/sdk';
import { createControlPlane, createLogger, createMemoryKv, createPgDb, loadConfig, migrate, systemClock, type Db } from '@platform/control-plane';
import { sealSigningSecret } from '../../control-plane/src/apps/apps/signing.ts';
import { newDrainSecret } from '../../control-plane/src/apps/log-drains/send.ts';
import { insertDrain } from '../../control-plane/src/apps/log-drains/store.ts';
import { createSecrets } from '../../control-plane/src/core/crypto/secrets.ts';

interface BenchRow { name: string; value: number; unit: string; target: string; ratio: number | null }

const BATCHES = Number(process.env.BENCH_DRAIN_BATCHES ?? 300);
const LINES = Number(process.env.BENCH_DRAIN_LINES ?? 100);
const DRAINS = 3;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function seedApp(db: Db, masterKey: Buffer, id: string): Promise<void> {
  const secrets = createSecrets({ masterKey });
  const at = new Date();
  await db.query(`insert into workspaces (id, name, created_at) values ($1, 'Bench', $2)`, [`ws_${id}`, at]);
  await db.query(`insert into members (id, workspace_id, name, role, created_at) values ($1, $2, 'Owner', 'owner', $3)`, [`mem_${id}`, `ws_${id}`, at]);
  await db.query(
    `insert into apps (id, workspace_id, owner_member_id, slug, name, hosting, client_id, client_secret_hash, signing_secret_enc, created_at)
     values ($1, $2, $3, $4, 'Bench', 'platform', $5, 'unused', $6, $7)`,
    [id, `ws_${id}`, `mem_${id}`, id.replace('_', '-'), `cli_${id}`, sealSigningSecret(secrets, id, generateSigningSecret()), at]);
}

function startReceiver() {
  let lines = 0;
  let waiter: { target: number; resolve: () => void } | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      lines += (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { lines: unknown[] }).lines.length;
      res.writeHead(204).end();
      if (waiter !== null && lines >= waiter.target) waiter.resolve();
    });
  });
  return {
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/drain`))),
    reached: (target: number) => (lines >= target ? Promise.resolve() : new Promise<void>((resolve) => { waiter = { target, resolve }; })),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export async function run(): Promise<BenchRow[]> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (err) {
    process.stdout.write(`  log-drains: no Postgres at ${url} (${(err as Error).message}); skipped\n`);
    return [];
  }
  await admin.query(`create schema "${schema}"`);
  const db = createPgDb({ connectionString: url, schema, max: 8 });
  const receiver = startReceiver();
  const drainUrl = await receiver.listen();
  try {
    await migrate(db);
    const config = loadConfig({
      NODE_ENV: 'development', LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', DATA_DIR: `/tmp/platform-bench-${schema}`, DATABASE_URL: url,
      MASTER_KEY: randomBytes(32).toString('base64'), RUNTIME_SECRET: randomBytes(24).toString('base64url'), OPERATOR_TOKEN: randomBytes(24).toString('base64url'), OUTBOX_WORKERS: '1',
    });
    await seedApp(db, config.masterKey, 'app_plain');
    await seedApp(db, config.masterKey, 'app_drained');
    const controlPlane = createControlPlane({ config, logger: createLogger(config), db, kv: createMemoryKv({ clock: systemClock }), clock: systemClock });
    await controlPlane.start();
    try {
      const logs = controlPlane.apps.logs;
      const batch = (appId: string, n: number) => Array.from({ length: LINES }, (_, i) => ({
        at: new Date().toISOString(), appId, version: 1, requestId: `req_${n}_${i}`, deliveryId: null, installId: 'ins_bench', kind: 'route',
        level: 'info' as const, status: 'ok' as const, message: `GET /items/${n}/${i} answered in 3 ms with a body of some length, as apps log`,
      }));
      const phase = async (appId: string) => {
        const walls: number[] = [];
        const cpu = process.cpuUsage();
        for (let n = 0; n < BATCHES; n++) {
          const started = performance.now();
          await logs.ingest('node-bench', batch(appId, n));
          walls.push(performance.now() - started);
        }
        const used = process.cpuUsage(cpu);
        walls.sort((a, b) => a - b);
        return { p50: quantile(walls, 0.5), p99: quantile(walls, 0.99), cpuPerLineUs: (used.user + used.system) / (BATCHES * LINES) };
      };
      for (let n = 0; n < 30; n++) await logs.ingest('node-bench', batch('app_plain', n));

      const off = await phase('app_plain');
      const secrets = createSecrets({ masterKey: config.masterKey });
      for (let i = 0; i < DRAINS; i++) {
        const id = `drn_bench${i}`;
        await insertDrain(db, { id, appId: 'app_drained', url: `${drainUrl}?d=${i}`, secretEnc: newDrainSecret(secrets, id).sealed, at: new Date() }, DRAINS);
      }
      const on = await phase('app_drained');
      const stored = performance.now();
      await receiver.reached(DRAINS * BATCHES * LINES);
      const lagMs = performance.now() - stored;

      const shipper = controlPlane.logDrains.shipper;
      const wakes = 1_000_000;
      const w = performance.now();
      for (let i = 0; i < wakes; i++) shipper.wake();
      const wakeNs = ((performance.now() - w) * 1e6) / wakes;

      process.stdout.write(`  log-drains: load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${BATCHES} batches of ${LINES} lines each phase, ${DRAINS} drains\n`);
      const ratio = on.p50 / off.p50;
      return [
        { name: 'ingest p50, no drain', value: off.p50, unit: 'ms', target: '–', ratio: null },
        { name: `ingest p50, ${DRAINS} drains shipping`, value: on.p50, unit: 'ms', target: '≤ 1.05× no drain', ratio: 1.05 / ratio },
        { name: 'ingest p99, no drain', value: off.p99, unit: 'ms', target: '–', ratio: null },
        { name: `ingest p99, ${DRAINS} drains shipping`, value: on.p99, unit: 'ms', target: '–', ratio: null },
        { name: 'process CPU per line stored, no drain', value: off.cpuPerLineUs, unit: 'µs', target: '–', ratio: null },
        { name: `process CPU per line stored and shipped to ${DRAINS} drains`, value: on.cpuPerLineUs, unit: 'µs', target: '–', ratio: null },
        { name: 'last batch stored → received by every drain', value: lagMs, unit: 'ms', target: '–', ratio: null },
        { name: 'wake() per call (ingestion\'s only drain code)', value: wakeNs, unit: 'ns', target: '–', ratio: null },
      ];
    } finally {
      await controlPlane.stop();
    }
  } finally {
    await receiver.close();
    await db.close();
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  }
}
