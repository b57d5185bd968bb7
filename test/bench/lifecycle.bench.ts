/**
 * Benchmark of lifecycle deliveries (issue 8) on real Postgres (DATABASE_URL, default the local
 * test database), through a whole control plane: its outbox loops claim, sign and send to a
 * receiver on loopback answering `204` at once, and record every attempt.
 *
 * - Sustained throughput: 20,000 events across 10 installs written before the loops start; the
 *   figure is events acknowledged per second until the last one. Target ≥ 2,000/s.
 * - Commit-to-first-attempt latency when idle: one event at a time, committed by a plain insert
 *   (the database's notification wakes the loops); the time from the commit returning to the
 *   request arriving. Target p99 ≤ 250 ms.
 *
 * Run by `npm run bench` (test/bench/run.ts). A fresh schema is created and dropped.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { EVENT_TYPES, generateSigningSecret } from '@platform/sdk';
import { createControlPlane, createLogger, createMemoryKv, createPgDb, loadConfig, migrate, systemClock, type Db } from '@platform/control-plane';
import { sealSigningSecret } from '../../control-plane/src/apps/apps/signing.ts';
import { createSecrets } from '../../control-plane/src/core/crypto/secrets.ts';
import { newEventId } from '../../control-plane/src/workspace/events/ids.ts';
import { insertOutboxRows, type OutboxRow } from '../../control-plane/src/workspace/events/store.ts';

interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  ratio: number | null;
}

const EVENTS = 20_000;
const INSTALLS = 10;
const LATENCY_SAMPLES = 200;
const THROUGHPUT_TARGET = 2_000;
const LATENCY_TARGET_MS = 250;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A receiver that only counts: arrival time per `webhook-id`, and a hook for the next arrival. */
async function startCounter() {
  const arrived = new Map<string, number>();
  let onArrival: (() => void) | null = null;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!arrived.has(id)) arrived.set(id, performance.now());
      res.writeHead(204).end();
      onArrival?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/platform`,
    arrived,
    until(condition: () => boolean): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (condition()) {
            onArrival = null;
            resolve();
          }
        };
        onArrival = check;
        check();
      });
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function seed(db: Db, masterKey: Buffer, endpoint: string): Promise<string[]> {
  const secrets = createSecrets({ masterKey });
  const at = new Date();
  const ws = `ws_${randomBytes(6).toString('hex')}`;
  const owner = `mem_${randomBytes(6).toString('hex')}`;
  await db.query('insert into workspaces (id, name, created_at) values ($1, $2, $3)', [ws, 'Bench', at]);
  await db.query(`insert into members (id, workspace_id, name, role, created_at) values ($1, $2, 'Owner', 'owner', $3)`, [owner, ws, at]);
  const installs: string[] = [];
  for (let i = 0; i < INSTALLS; i++) {
    const app = `app_bench${i}`;
    const manifest = { schemaVersion: 1, name: `Bench ${i}`, slug: `bench-${i}`, hosting: 'self', endpoint: { url: endpoint }, scopes: ['conversations:read', 'decisions:read', 'calls:read'], events: EVENT_TYPES };
    await db.query(
      `insert into apps (id, workspace_id, owner_member_id, slug, name, hosting, endpoint_url, client_id, client_secret_hash, signing_secret_enc, created_at)
       values ($1, $2, $3, $4, $5, 'self', $6, $7, 'unused', $8, $9)`,
      [app, ws, owner, manifest.slug, manifest.name, endpoint, `cli_${app}`, sealSigningSecret(secrets, app, generateSigningSecret()), at]);
    await db.query(`insert into app_versions (app_id, version, target, manifest, manifest_hash, created_at) values ($1, 1, 'production', $2, 'x', $3)`, [app, JSON.stringify(manifest), at]);
    const install = `ins_bench${i}`;
    await db.query(
      `insert into installs (id, app_id, workspace_id, kind, version, approved_scopes, status, created_at, updated_at) values ($1, $2, $3, 'workspace', 1, $4, 'active', $5, $5)`,
      [install, app, ws, JSON.stringify(manifest.scopes), at]);
    installs.push(install);
  }
  return installs;
}

const event = (installId: string, n: number): OutboxRow => ({
  id: newEventId(), install_id: installId, type: 'post.created', actor: { memberId: 'mem_bench', name: 'Bench' }, created_at: new Date(),
  payload: { post: { id: `msg_${n}`, circleId: 'cir_bench', conversationId: null, text: `benchmark event ${n}`, author: { kind: 'member', id: 'mem_bench', name: 'Bench' }, createdAt: new Date().toISOString(), version: 1 } },
});

export async function run(): Promise<BenchRow[]> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (err) {
    process.stdout.write(`  lifecycle: no Postgres at ${url} (${(err as Error).message}); skipped\n`);
    return [];
  }
  await admin.query(`create schema "${schema}"`);
  const db = createPgDb({ connectionString: url, schema, max: 12 });
  const receiver = await startCounter();
  const dataDir = `/tmp/platform-bench-${schema}`;
  try {
    await migrate(db);
    const config = loadConfig({
      NODE_ENV: 'development', LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0', DATA_DIR: dataDir, DATABASE_URL: url,
      MASTER_KEY: randomBytes(32).toString('base64'), RUNTIME_SECRET: randomBytes(24).toString('base64url'), OPERATOR_TOKEN: randomBytes(24).toString('base64url'),
      OUTBOX_WORKERS: '3', OUTBOX_BATCH_SIZE: '200', OUTBOX_CONCURRENCY: '100', OUTBOX_POLL_MS: '1000',
    });
    const installs = await seed(db, config.masterKey, receiver.url);
    for (let i = 0; i < EVENTS; i += 1_000) {
      await insertOutboxRows(db, Array.from({ length: Math.min(1_000, EVENTS - i) }, (_, k) => event(installs[(i + k) % INSTALLS]!, i + k)));
    }
    const controlPlane = createControlPlane({ config, logger: createLogger(config), db, kv: createMemoryKv({ clock: systemClock }), clock: systemClock });
    const started = performance.now();
    await controlPlane.start();
    try {
      await receiver.until(() => receiver.arrived.size >= EVENTS);
      const throughput = EVENTS / ((performance.now() - started) / 1000);

      // Idle: the loops wait on the database's notification; one event at a time.
      const latencies: number[] = [];
      for (let i = 0; i < LATENCY_SAMPLES; i++) {
        const row = event(installs[i % INSTALLS]!, EVENTS + i);
        await insertOutboxRows(db, [row]);
        const committed = performance.now();
        await receiver.until(() => receiver.arrived.has(row.id));
        latencies.push(receiver.arrived.get(row.id)! - committed);
      }
      const p99 = percentile(latencies, 99);
      return [
        { name: `lifecycle deliveries acknowledged per second (${EVENTS} events, real Postgres)`, value: throughput, unit: '/s', target: `≥ ${THROUGHPUT_TARGET}/s`, ratio: throughput / THROUGHPUT_TARGET },
        { name: 'commit to first attempt, idle, p99', value: p99, unit: 'ms', target: `≤ ${LATENCY_TARGET_MS} ms`, ratio: LATENCY_TARGET_MS / p99 },
        { name: 'commit to first attempt, idle, p50', value: percentile(latencies, 50), unit: 'ms', target: '(informative)', ratio: null },
      ];
    } finally {
      await controlPlane.stop();
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
