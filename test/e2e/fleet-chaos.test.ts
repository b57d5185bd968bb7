/**
 * Issue 15's chaos run, bounded: two control planes and two runtime nodes (real processes, the
 * entry points operators run) behind round-robin proxies, on a PostgreSQL of the test's own and the
 * machine's Redis. Members post 5,000 messages, each a lifecycle event (`post.created` for the
 * first, `reply.created` for the rest) for a
 * self-hosted app whose endpoint fails every first attempt (half of its requests); meanwhile members
 * click a hosted app's blocks and call its route. During the load, one runtime node (the one the
 * hosted app lives on) and one control plane are killed with SIGKILL, and PostgreSQL is stopped as if
 * it crashed and started again.
 *
 * The same app has a schedule every minute and a queue (issue 23): queue messages are sent through
 * the load balancer during the load (some delayed into the faults), and the schedule fires at every
 * minute boundary of the run, whichever control plane is alive.
 *
 * Expected: every event that was recorded is acknowledged by the app (0 lost), every repeat is
 * identifiable by its `webhook-id`; interactive requests fail only if they were in flight on a
 * killed process (or within the database's restart), each with a tagged error; and from 5 s after
 * each fault every request succeeds again.
 */
import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendezvousOrder } from '../../control-plane/src/core/runtime-node/rendezvous.ts';
import { fleetKeys, parseFleetNode } from '@platform/runtime/fleet';
import { createFleet, freePort, type Fleet, type FleetProcess } from '../helpers/fleet-processes.ts';
import { startPrivatePostgres, postgresBin, type PrivatePostgres } from '../helpers/private-postgres.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.ts';
import { apiClient, type ApiClient } from '../helpers/stack.ts';
import { nameNeeding, redisUrl } from '../helpers/services.ts';

// REDIS_URL, or the run's private Redis (helpers/services.global.ts).
const REDIS_URL = redisUrl() ?? undefined;
const EVENTS = Number(process.env.CHAOS_EVENTS ?? 5_000);
/**
 * The long run (scripts/fleet-chaos-long.sh): a kill -9 every this many ms, taking turns over the
 * four processes, each started again on its port at once; the database restart at half way. 0: the
 * bounded run of CI (one node, one control plane, one restart).
 */
const KILL_EVERY_MS = Number(process.env.CHAOS_KILL_EVERY_MS ?? 0);
/** Messages posted at once. */
const POSTERS = 12;
/** After a fault, this long the fleet has to serve normally again. */
const RECOVERY_MS = 5_000;
const PREFIX = `test-chaos-${randomBytes(4).toString('hex')}:`;
const OPERATOR_TOKEN = randomBytes(24).toString('base64url');

interface Outcome {
  kind: 'post' | 'click' | 'route' | 'queue';
  started: number;
  ended: number;
  ok: boolean;
  status: number;
  tag: string | null;
}

interface Fault {
  what: string;
  at: number;
  /** Requests in flight on a killed process may fail; a restart's window lasts until it is done. */
  until: number;
}

const cleanups: Array<() => Promise<unknown>> = [];
let fleet: Fleet;
let database: PrivatePostgres;
let receiver: Receiver;
let cpLb: RoundRobinProxy;
let nodeLb: RoundRobinProxy;
const controlPlanes: FleetProcess[] = [];
const nodes: FleetProcess[] = [];
let startControlPlane: (i: number) => Promise<FleetProcess>;
let startNode: (i: number) => Promise<FleetProcess>;
let member: ApiClient;
let memberKey: string;
let conversationId: string;
let receiverInstall: string;
/** A fresh install token of the listener (its queue). */
let listenerToken: () => Promise<string>;
const QUEUE_MESSAGES = 200;
let hostedAppId: string;
let blockIds: string[];

async function expectOk(res: { status: number; body: any }, status = 201): Promise<any> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** The hosted app's bundle, built as `platform deploy` builds one. */
async function chaosBundle(): Promise<Uint8Array> {
  const out = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/fleet/chaos-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent', minify: true,
  });
  return out.outputFiles[0]!.contents;
}

async function installApp(appId: string, created: any): Promise<{ installId: string; token: () => Promise<string> }> {
  const consent = await expectOk(await member.get(`/apps/${appId}/consent`), 200);
  const installed = await expectOk(await member.post(`/apps/${appId}/installs`, { version: consent.consent.version }));
  const basic = Buffer.from(`${created.clientId}:${created.clientSecret}`).toString('base64');
  const installId: string = installed.install.id;
  const token = async () => (await expectOk(await apiClient(cpLb.url, '/v0').request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } }))).token as string;
  return { installId, token };
}

beforeAll(async () => {
  database = await startPrivatePostgres();
  cleanups.push(() => database.stop());
  receiver = await startReceiver();
  cleanups.push(() => receiver.stop());
  // Every first attempt fails: half of the app's requests, and every event needs the outbox's retry.
  receiver.respond = (req) => (req.attempt === 1 ? 500 : 204);

  const cpPorts = [await freePort(), await freePort()];
  const nodePorts = [await freePort(), await freePort()];
  cpLb = await startRoundRobinProxy(cpPorts.map((p) => `http://127.0.0.1:${p}`));
  nodeLb = await startRoundRobinProxy(nodePorts.map((p) => `http://127.0.0.1:${p}`));
  cleanups.push(() => cpLb.close(), () => nodeLb.close());

  fleet = createFleet({
    shared: {
      DATABASE_URL: database.url, REDIS_URL: REDIS_URL!, REDIS_PREFIX: PREFIX, RUNTIME_FLEET: 'redis',
      RUNTIME_SECRET: randomBytes(24).toString('base64url'), MASTER_KEY: randomBytes(32).toString('base64'), OPERATOR_TOKEN,
      NODE_ENV: 'development',
    },
  });
  cleanups.push(() => fleet.stopAll());
  startControlPlane = (i) => fleet.controlPlane(`cp-${i + 1}`, {
    PUBLIC_URL: cpLb.url, OUTBOX_LEASE_MS: '20000', OUTBOX_POLL_MS: '200', RUNTIME_URL: nodeLb.url,
  }, cpPorts[i]);
  startNode = (i) => fleet.runtimeNode(`node-${'ab'[i]}`, {
    CONTROL_PLANE_URL: cpLb.url, RUNTIME_PUBLIC_URL: nodeLb.url, RUNTIME_WORKERS: '1',
    RUNTIME_HEARTBEAT_MS: '500', RUNTIME_NODE_TTL_MS: '2500', RUNTIME_DIRECTORY_TTL_MS: '1000', RUNTIME_STARTUP_CPU_MS: '1000',
  }, nodePorts[i]);
  // One after the other: the first migrates the new database.
  for (const i of cpPorts.keys()) controlPlanes.push(await startControlPlane(i));
  nodes.push(...await Promise.all(nodePorts.map((_, i) => startNode(i))));

  const created = await expectOk(await apiClient(cpLb.url, '/client/v1').request('POST', '/workspaces', {
    body: { name: 'Chaos', owner: { name: 'Olive Owner' } }, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
  }));
  memberKey = created.apiKey;
  member = apiClient(cpLb.url, '/client/v1', created.apiKey);
  const circle = await expectOk(await member.post('/circles', { name: 'General', visibility: 'public', chat: true }));
  conversationId = (await expectOk(await member.post(`/circles/${circle.circle.id}/conversations`, { title: 'Load' }))).conversation.id;

  // The self-hosted app that hears of every post.
  const manifest = {
    schemaVersion: 1, name: 'Listener', slug: 'chaos-listener', hosting: 'self', endpoint: { url: receiver.url.replace('127.0.0.1', 'localhost') },
    scopes: ['conversations:read'], events: ['post.created', 'reply.created'],
    schedules: [{ name: 'tick', cron: '* * * * *' }], queue: { maxAttempts: 20 },
  };
  const listener = await expectOk(await member.post('/apps', { name: manifest.name, slug: manifest.slug, hosting: 'self', endpoint: manifest.endpoint }));
  await expectOk(await apiClient(cpLb.url, '/v0', created.apiKey).put(`/apps/${listener.app.id}/manifest`, { manifest, target: 'production' }), 200);
  const listening = await installApp(listener.app.id, listener);
  receiverInstall = listening.installId;
  listenerToken = listening.token;

  // The hosted app members click.
  const hosted = await expectOk(await member.post('/apps', { name: 'Fleet chaos', slug: 'fleet-chaos', hosting: 'platform' }));
  hostedAppId = hosted.app.id;
  await expectOk(await apiClient(cpLb.url, '/v0', created.apiKey).request('POST', `/apps/${hostedAppId}/versions?target=production`, {
    rawBody: await chaosBundle(), headers: { 'content-type': 'application/javascript' },
  }), 200);
  const { token } = await installApp(hostedAppId, hosted);
  const app = apiClient(cpLb.url, '/v0', await token());
  blockIds = [];
  for (let i = 0; i < 2; i++) blockIds.push((await expectOk(await app.post('/blocks', { type: 'counter', props: { title: `Counter ${i}` }, circleId: circle.circle.id }))).id);
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  const redis = new Redis(REDIS_URL!);
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

/** One request, timed, with its status and `_tag` (the platform's, or the test proxy's). */
async function timed(kind: Outcome['kind'], call: () => Promise<Response>): Promise<Outcome> {
  const started = Date.now();
  try {
    const res = await call();
    const text = await res.text();
    let body: { _tag?: string; outcome?: string; error?: { message?: string } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = {};
    }
    // A click the app could not answer is a 200 whose outcome is `failed`, with the member's inline error.
    if (body.outcome === 'failed') return { kind, started, ended: Date.now(), ok: false, status: res.status, tag: `outcome:failed (${body.error?.message ?? ''})` };
    return { kind, started, ended: Date.now(), ok: res.ok, status: res.status, tag: body._tag ?? null };
  } catch (err) {
    return { kind, started, ended: Date.now(), ok: false, status: 0, tag: `fetch failed: ${(err as Error).message}` };
  }
}

const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/** The hosted app's node: the first, in rendezvous order, of the registered nodes. */
async function homeOfHostedApp(): Promise<FleetProcess> {
  const redis = new Redis(REDIS_URL!);
  try {
    const keys = fleetKeys(PREFIX);
    const ids = await redis.smembers(keys.nodes);
    const records = (await redis.mget(ids.map((id) => keys.node(id)))).map(parseFleetNode).filter((n) => n !== null);
    const home = rendezvousOrder(`${hostedAppId}@1`, records)[0]!;
    return nodes.find((n) => n.name === home.id)!;
  } finally {
    redis.disconnect();
  }
}

describe.skipIf(REDIS_URL === undefined || postgresBin() === null)(nameNeeding('fleet chaos', { redis: REDIS_URL, postgres: postgresBin() }), () => {
  it(`${EVENTS} events, clicks and routes through a kill -9 of a node and of a control plane and a database restart`, { timeout: KILL_EVERY_MS > 0 ? 3_600_000 : 600_000 }, async () => {
    const key = memberKey;
    const began = Date.now();
    const outcomes: Outcome[] = [];
    const faults: Fault[] = [];
    let posted = 0;
    let done = false;
    // The chaos steps wait on the posters' progress: each success wakes the waiters.
    const waiting: Array<{ n: number; resolve: () => void }> = [];
    const progressed = () => {
      for (const w of waiting.filter((x) => posted >= x.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    };

    const poster = async () => {
      while (posted < EVENTS) {
        const o = await timed('post', () => fetch(`${cpLb.url}/client/v1/conversations/${conversationId}/messages`, { method: 'POST', headers: headers(key), body: JSON.stringify({ markdown: `message ${posted}` }) }));
        outcomes.push(o);
        if (o.ok) {
          posted++;
          progressed();
        }
      }
    };
    const clicker = async (blockId: string) => {
      while (!done) {
        outcomes.push(await timed('click', async () => {
          const view = await fetch(`${cpLb.url}/client/v1/blocks/${blockId}`, { headers: headers(key) });
          if (!view.ok) return view;
          const { block } = await view.json() as { block: { revision: number; tree: any } };
          const ref = JSON.stringify(block.tree).match(/"ref":"([^"]+)"/)?.[1];
          return fetch(`${cpLb.url}/client/v1/blocks/${blockId}/click`, { method: 'POST', headers: headers(key), body: JSON.stringify({ revision: block.revision, ref }) });
        }));
      }
    };
    const router = async () => {
      while (!done) outcomes.push(await timed('route', () => fetch(`${nodeLb.url}/apps/fleet-chaos/ping`)));
    };

    const at = (n: number) => new Promise<void>((resolve) => {
      waiting.push({ n, resolve });
      progressed();
    });
    // A fault every KILL_EVERY_MS: the time is the schedule itself, so this waits on a timer.
    const longChaos = async () => {
      let restarted = false;
      for (let turn = 0; posted < EVENTS; turn++) {
        await new Promise((r) => setTimeout(r, KILL_EVERY_MS));
        if (posted >= EVENTS) break;
        if (!restarted && posted >= EVENTS / 2) {
          restarted = true;
          const restart: Fault = { what: 'PostgreSQL stopped as if it crashed, and started again', at: Date.now(), until: 0 };
          faults.push(restart);
          await database.restart({ crash: true });
          restart.until = Date.now();
          continue;
        }
        const [list, start] = turn % 2 === 0 ? [nodes, startNode] as const : [controlPlanes, startControlPlane] as const;
        const i = Math.floor(turn / 2) % list.length;
        faults.push({ what: `kill -9 ${list[i]!.name}`, at: Date.now(), until: Date.now() });
        process.kill(list[i]!.pid, 'SIGKILL');
        await list[i]!.exited;
        list[i] = await start(i);
      }
    };

    const chaos = async () => {
      if (KILL_EVERY_MS > 0) return longChaos();
      await at(EVENTS * 0.2);
      const home = await homeOfHostedApp();
      faults.push({ what: `kill -9 ${home.name} (the hosted app's node)`, at: Date.now(), until: Date.now() });
      process.kill(home.pid, 'SIGKILL');
      await at(EVENTS * 0.4);
      faults.push({ what: `kill -9 ${controlPlanes[0]!.name}`, at: Date.now(), until: Date.now() });
      process.kill(controlPlanes[0]!.pid, 'SIGKILL');
      await at(EVENTS * 0.6);
      const restart: Fault = { what: 'PostgreSQL stopped as if it crashed, and started again', at: Date.now(), until: 0 };
      faults.push(restart);
      await database.restart({ crash: true });
      restart.until = Date.now();
    };

    // The processes' error lines, for a failed run's messages.
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return 'running';
      } catch {
        return 'exited';
      }
    };
    const errors = () => [...controlPlanes, ...nodes].map((p) => {
      const lines = p.output().split('\n').filter((l) => l.trim() !== '');
      const errorLines = lines.filter((l) => /"level":(50|60)/.test(l) || !l.startsWith('{'));
      return `${p.name} (${alive(p.pid)}):\n${errorLines.slice(-30).map((l) => l.slice(0, 1500)).join('\n')}`;
    }).join('\n');
    let lastPosted = -1;
    // Progress on stderr every 5 s: what a failed run shows of where it stood.
    const report = setInterval(() => {
      const failed = outcomes.filter((o) => !o.ok);
      const tags = new Map<string, number>();
      for (const f of failed) tags.set(`${f.kind} ${f.status} ${f.tag}`, (tags.get(`${f.kind} ${f.status} ${f.tag}`) ?? 0) + 1);
      process.stderr.write(`chaos: posted ${posted}/${EVENTS}, requests ${outcomes.length}, failed ${failed.length} ${JSON.stringify([...tags].slice(0, 5))}, acknowledged ${receiver.acknowledged.size}, faults ${faults.map((f) => f.what).join('; ')}\n`);
      if (posted === lastPosted && posted < EVENTS) process.stderr.write(`chaos: no progress; processes' errors:\n${errors()}\n`);
      lastPosted = posted;
    }, 5_000);
    cleanups.push(async () => clearInterval(report));
    // Queue messages in batches through the load balancer during the load: half at once, half 20 s
    // later. A batch refused by a fault is sent again; its keys make a repeat of one that committed harmless.
    const queueSender = async () => {
      for (let i = 0; i < QUEUE_MESSAGES; i += 20) {
        const token = await listenerToken();
        for (;;) {
          const o = await timed('queue', () => fetch(`${cpLb.url}/v0/queue/messages`, {
            method: 'POST', headers: headers(token),
            body: JSON.stringify({ messages: Array.from({ length: 20 }, (_, k) => ({ body: { n: i + k }, key: `q-${i + k}`, ...(i >= QUEUE_MESSAGES / 2 ? { delaySeconds: 20 } : {}) })) }),
          }));
          outcomes.push(o);
          if (o.ok) break;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    const load = [...Array.from({ length: POSTERS }, poster), ...blockIds.map(clicker), router(), queueSender()];
    await Promise.all([Promise.all(load.slice(0, POSTERS)).then(() => (done = true)), ...load.slice(POSTERS), chaos()]);

    // Lifecycle: every recorded event reaches the app (its first attempt fails: the retry comes a
    // minute later), and repeats carry the same webhook-id.
    const db = new pg.Client(database.url);
    await db.connect();
    cleanups.push(() => db.end());
    const recorded = async () => (await db.query<{ id: string; status: string }>(`select id, status from deliveries where install_id = $1`, [receiverInstall])).rows;
    const messages = Number((await db.query<{ n: string }>('select count(*) as n from messages where conversation_id = $1', [conversationId])).rows[0]!.n);
    expect(messages).toBeGreaterThanOrEqual(EVENTS);
    // Schedule firings go on while we wait: the deliveries recorded now must all be acknowledged.
    const snapshot = await recorded();
    const byType = async () => (await db.query<{ type: string; n: number }>(`select type, count(*)::int as n from outbox_events where install_id = $1 group by type order by type`, [receiverInstall])).rows;
    expect((await byType()).find((r) => r.type === 'queue.message')?.n).toBe(QUEUE_MESSAGES);
    try {
      await receiver.waitFor(() => snapshot.every((r) => receiver.acknowledged.has(r.id)), 150_000);
    } catch (err) {
      // Where the missing events stand: by status, attempts and how far their next attempt is.
      const stats = await db.query(`select status, attempts, last_status, left(last_error, 120) as last_error, count(*)::int as n,
        round(extract(epoch from min(next_attempt_at) - now()))::int as next_in_s from deliveries where install_id = $1 and status <> 'delivered'
        group by 1, 2, 3, 4 order by n desc limit 10`, [receiverInstall]);
      const outbox = await db.query(`select count(*)::int as events, count(*) filter (where id not in (select event_id from deliveries where event_id is not null))::int as without_delivery from outbox_events`);
      throw new Error(`${(err as Error).message}; messages ${messages}, acknowledged ${receiver.acknowledged.size}; undelivered ${JSON.stringify(stats.rows)}; outbox ${JSON.stringify(outbox.rows)}`);
    }
    const rows = await recorded();
    const posts = (await db.query<{ n: number }>(`select count(*)::int as n from deliveries where install_id = $1 and type in ('post.created', 'reply.created')`, [receiverInstall])).rows[0]!.n;
    expect(posts).toBe(messages);
    // Nothing acknowledged is unknown, and everything recorded before the wait was acknowledged.
    expect([...receiver.acknowledged].filter((id) => !rows.some((r) => r.id === id))).toEqual([]);
    expect(snapshot.filter((r) => !receiver.acknowledged.has(r.id))).toEqual([]);
    // Schedules: one firing per due minute (the unique key), and every minute from the first to the
    // last either fired or is counted as missed by the firing after it (kill -9 and the restart lose none).
    const firings = (await db.query<{ due: string; missed: number }>(
      `select payload -> 'schedule' ->> 'dueAt' as due, (payload -> 'schedule' ->> 'missed')::int as missed from outbox_events
        where install_id = $1 and type = 'schedule.fired' order by 1`, [receiverInstall])).rows;
    expect(firings.length).toBeGreaterThan(0);
    expect(new Set(firings.map((f) => f.due)).size).toBe(firings.length);
    const span = (Date.parse(firings.at(-1)!.due) - Date.parse(firings[0]!.due)) / 60_000 + 1;
    expect(firings.length + firings.slice(1).reduce((sum, f) => sum + f.missed, 0)).toBe(span);
    const byId = new Map<string, number>();
    for (const r of receiver.requests) byId.set(r.headers['webhook-id'] as string, (byId.get(r.headers['webhook-id'] as string) ?? 0) + 1);
    const repeats = [...byId.values()].filter((n) => n > 2).length;

    // Interactive: failures only in flight at a kill or within the restart, or within RECOVERY_MS
    // after one (the fleet serves normally again by then), each tagged.
    const failures = outcomes.filter((o) => !o.ok);
    const clicks = outcomes.filter((o) => o.kind === 'click');
    const routes = outcomes.filter((o) => o.kind === 'route');
    // The figures first (docs/fleet.md), so a failed long run still shows them.
    console.log(JSON.stringify({
      events: messages, firings: firings.length, queueMessages: QUEUE_MESSAGES, acknowledged: receiver.acknowledged.size, requests: receiver.requests.length, repeatedBeyondTheRetry: repeats,
      clicks: { ok: clicks.filter((o) => o.ok).length, failed: clicks.filter((o) => !o.ok).length },
      routes: { ok: routes.filter((o) => o.ok).length, failed: routes.filter((o) => !o.ok).length },
      posts: { ok: posted, failed: outcomes.filter((o) => o.kind === 'post' && !o.ok).length },
      seconds: Math.round((Date.now() - began) / 1000),
      // Per fault: requests failed because of it, and the last failure's end after the fault was over.
      faults: faults.map((f) => {
        const hit = failures.filter((o) => o.started <= f.until + RECOVERY_MS && o.ended >= f.at);
        return { what: f.what, failed: hit.length, lastFailureMs: hit.length === 0 ? 0 : Math.max(...hit.map((o) => o.ended)) - f.until };
      }),
    }));
    for (const f of failures) {
      const fault = faults.find((x) => f.started <= x.until + RECOVERY_MS && f.ended >= x.at);
      expect(fault, `a ${f.kind} failed (${f.status} ${f.tag}) outside every fault (started ${f.started - began} ms into the run, lasted ${f.ended - f.started} ms; faults at ${faults.map((x) => x.at - began).join(', ')} ms)\n${errors()}`).toBeDefined();
      expect(f.tag, `a ${f.kind} failed with ${f.status} without a tag`).toMatch(/^(Platform|TestProxy|outcome:failed)/);
    }
    expect(clicks.filter((o) => o.ok).length).toBeGreaterThan(20);
    expect(routes.filter((o) => o.ok).length).toBeGreaterThan(20);
  });
});
