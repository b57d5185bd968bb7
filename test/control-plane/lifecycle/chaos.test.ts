/**
 * Bounded chaos: 2,000 events, a receiver that fails about half of the requests, and a control
 * plane process killed with SIGKILL in the middle of a batch, then started again. Every event is
 * acknowledged at least once and none is lost.
 *
 * Real Postgres (DATABASE_URL, always set under CI): the workers run in a child process that is
 * really killed. Without it, PGlite in this process: a worker "dies" by claiming a batch and never
 * finishing it, and the running loops must recover it. Both run on a clock 600 times faster than
 * real time from the seeded events' timestamp, so retries (1 minute and up) and leases (30 minutes
 * here, 3 real seconds) pass within the bound.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createControlPlane, createLogger, createMemoryKv, type Clock } from '@platform/control-plane';
import { insertOutboxRows } from '../../../control-plane/src/workspace/events/store.ts';
import { newEventId } from '../../../control-plane/src/workspace/events/ids.ts';
import { claimDue } from '../../../control-plane/src/deliveries/outbox/store.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { postgresState } from '../../helpers/services.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedInstall, seedWorkspace } from './fixtures.ts';

const EVENTS = 2_000;
const SCALE = 600;
const LEASE_MS = 30 * 60_000;
const pg = await postgresState();
const usePostgres = pg.kind === 'up';
if (pg.kind === 'down' && process.env.CI === 'true') throw new Error(`DATABASE_URL is set but unreachable (${pg.error}); CI never skips`);

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** Fails a request with probability 1/2, but a given delivery at most 3 times, so each one succeeds within its 20 attempts. */
function halfFailing(receiver: Receiver, random: () => number): void {
  receiver.respond = (req) => (req.attempt <= 3 && random() < 0.5 ? 500 : 204);
}

async function seed(stack: Stack, receiverUrl: string, at: Date) {
  const setup = await seedWorkspace(stack);
  const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, endpoint: receiverUrl, events: ['post.created'] });
  const installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
  for (let i = 0; i < EVENTS; i += 500) {
    await insertOutboxRows(stack.db, Array.from({ length: Math.min(500, EVENTS - i) }, (_, k) => ({
      id: newEventId(), install_id: installId, type: 'post.created', actor: null, created_at: at,
      payload: { post: { id: `msg_${i + k}`, circleId: setup.publicCircle, conversationId: null, text: `event ${i + k}`, author: { kind: 'member', id: setup.ws.owner.id, name: 'Olive' }, createdAt: at.toISOString(), version: 1 } },
    })));
  }
  return installId;
}

/**
 * Waits until every delivery is recorded as delivered. Acknowledgements the killed worker got but
 * never recorded are sent again once their lease ends (at least once), so the table catches up
 * with the receiver a little later; this checks it every 100 ms, within `timeoutMs`.
 */
async function allRecorded(stack: Stack, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await stack.db.query<{ n: number }>(`select count(*)::int as n from deliveries where status = 'delivered'`);
    if (rows[0]!.n === EVENTS || Date.now() > until) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function verifyNothingLost(stack: Stack, receiver: Receiver) {
  expect(receiver.acknowledged.size).toBe(EVENTS);
  await allRecorded(stack, 15_000);
  const { rows } = await stack.db.query<{ status: string; n: number }>('select status, count(*)::int as n from deliveries group by status');
  expect(rows).toEqual([{ status: 'delivered', n: EVENTS }]);
  const ids = (await stack.db.query<{ id: string }>('select id from deliveries')).rows.map((r) => r.id);
  expect(new Set(ids)).toEqual(receiver.acknowledged);
  const abandoned = await stack.db.query<{ n: number }>(`select count(*)::int as n from delivery_attempts where duration_ms is null`);
  return abandoned.rows[0]!.n;
}

describe(`chaos: ${EVENTS} events, half the requests failing, a worker killed mid-batch (${usePostgres ? 'Postgres, child processes' : 'PGlite, in process'})`, () => {
  it.runIf(usePostgres)('SIGKILL of a control plane process mid-batch loses nothing', async () => {
    const stack = await startStack({ db: 'postgres' });
    cleanups.push(() => stack.stop());
    const receiver = await startReceiver();
    cleanups.push(() => receiver.stop());
    let seedRandom = 42;
    halfFailing(receiver, () => ((seedRandom = (seedRandom * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31));
    const epoch = stack.clock.now();
    await seed(stack, receiver.url, new Date(epoch));
    const schema = (await stack.db.query<{ s: string }>('select current_schema() as s')).rows[0]!.s;
    const spawnWorker = (): Promise<ChildProcess> => new Promise((resolve, reject) => {
      const child = fork(fileURLToPath(new URL('./chaos-worker.ts', import.meta.url)), [], {
        execArgv: ['--no-node-snapshot', '--conditions=source'],
        env: {
          ...process.env, DATABASE_URL: pg.kind === 'up' ? pg.url : '', CHAOS_SCHEMA: schema, MASTER_KEY: stack.config.masterKey.toString('base64'),
          CHAOS_EPOCH: String(epoch), CHAOS_TIME_SCALE: String(SCALE), CHAOS_LEASE_MS: String(LEASE_MS), CHAOS_DATA_DIR: stack.config.dataDir,
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      cleanups.push(async () => child.kill('SIGKILL'));
      child.once('message', () => resolve(child));
      child.once('exit', (code) => reject(new Error(`chaos worker exited early (${code})`)));
    });

    const first = await spawnWorker();
    // Killed from inside a request: the batch that request belongs to is certainly in flight.
    const respond = receiver.respond;
    const killedAt = EVENTS / 4;
    const killed = new Promise<void>((resolve) => {
      receiver.respond = (req) => {
        if (req.seq === killedAt) {
          first.kill('SIGKILL');
          first.once('exit', () => resolve());
          return 'hang';
        }
        return respond(req);
      };
    });
    await killed;
    const second = await spawnWorker();
    await receiver.waitFor(() => receiver.acknowledged.size === EVENTS, 45_000);
    const abandoned = await verifyNothingLost(stack, receiver);
    second.kill('SIGTERM');
    expect(abandoned).toBeGreaterThan(0);
  }, 60_000);

  it.runIf(!usePostgres)('a worker that claimed a batch and died mid-way loses nothing', async () => {
    const stack = await startStack({ db: 'pglite' });
    cleanups.push(() => stack.stop());
    const receiver = await startReceiver();
    cleanups.push(() => receiver.stop());
    let seedRandom = 7;
    halfFailing(receiver, () => ((seedRandom = (seedRandom * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31));
    const epoch = stack.clock.now();
    await seed(stack, receiver.url, new Date(epoch));
    // The dead worker: it claimed a batch (counting the attempts and taking a lease) and never came back.
    const lost = await claimDue(stack.db, { now: new Date(epoch), limit: 100, lease: randomBytes(6).toString('hex'), leaseUntil: new Date(epoch + LEASE_MS) });
    expect(lost).toHaveLength(100);
    const started = Date.now();
    const clock: Clock = { now: () => epoch + (Date.now() - started) * SCALE };
    const config = { ...stack.config, outbox: { workers: 2, batchSize: 100, concurrency: 50, pollMs: 100, leaseMs: LEASE_MS } };
    const survivor = createControlPlane({ config, logger: createLogger(config), db: stack.db, kv: createMemoryKv({ clock }), clock });
    await survivor.start();
    cleanups.push(() => survivor.stop());
    await receiver.waitFor(() => receiver.acknowledged.size === EVENTS, 50_000);
    await survivor.stop();
    expect(await verifyNothingLost(stack, receiver)).toBe(100);
  }, 60_000);
});
