/**
 * Issue 15, runtime nodes as a fleet: two real runtime node processes join the registry in Redis
 * (each with its own data dir, one sandbox worker), and the control plane's hosted delivery target
 * places an app version on them by rendezvous hashing (core/runtime-node/*, deliveries/targets/
 * runtime.ts). Killing the node that holds the app's warm isolates (`kill -9`) costs the app only
 * the deliveries in flight there, each failed and tagged; the next ones go to the other node at once,
 * and the registry forgets the dead node when its record's TTL passes. A node sent SIGTERM finishes
 * what it holds, takes nothing new, and leaves the registry.
 *
 * The version lookup of the target is a stand-in `Db` answering the one query the target makes
 * (the app_versions row): this test is about nodes, and a control plane process adds nothing here
 * that the chaos test does not cover.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntimeClient } from '@platform/runtime';
import { fleetKeys } from '@platform/runtime/fleet';
import type { Db } from '@platform/control-plane';
import { spawnRuntimeNode, type RuntimeChild } from '../../control-plane/src/core/runtime-node/child-process.ts';
import { openRuntimeNodes, type RuntimeNodes } from '../../control-plane/src/core/runtime-node/nodes.ts';
import { rendezvousOrder } from '../../control-plane/src/core/runtime-node/rendezvous.ts';
import { createRuntimeTarget } from '../../control-plane/src/deliveries/targets/runtime.ts';
import type { DeliveryTarget, OutgoingDelivery } from '../../control-plane/src/deliveries/targets/target.ts';
import { SECRET, sha256, signedHeaders } from '../runtime/support/runtime.ts';
import { nameNeeding, redisUrl } from '../helpers/services.ts';

// REDIS_URL, or the run's private Redis (helpers/services.global.ts).
const REDIS_URL = redisUrl() ?? undefined;
const PREFIX = `test-fleet-${randomBytes(4).toString('hex')}:`;
const ENTRY = fileURLToPath(new URL('../../runtime/src/main.ts', import.meta.url));
const BUNDLE = readFileSync(new URL('../fixtures/fleet/bundle-fleet.js', import.meta.url), 'utf8');
const SHA = sha256(BUNDLE);
const APP = { id: 'app_fleet', slug: 'fleet', version: 1 };
const KEY = `${APP.id}@${APP.version}`;
const logger = pino({ level: 'silent' });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Node {
  id: string;
  url: string;
  child: RuntimeChild;
  dataDir: string;
}

async function startNode(id: string): Promise<Node> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `fleet-${id}-`));
  const url = `http://127.0.0.1:${port}`;
  const child = spawnRuntimeNode({
    entry: ENTRY, url, logger,
    env: {
      PATH: process.env.PATH ?? '', RUNTIME_SECRET: SECRET, RUNTIME_PORT: String(port), RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_DATA_DIR: dataDir,
      RUNTIME_WORKERS: '1', LOG_LEVEL: 'silent', RUNTIME_FLEET: 'redis', REDIS_URL: REDIS_URL!, REDIS_PREFIX: PREFIX,
      RUNTIME_NODE_ID: id, RUNTIME_HEARTBEAT_MS: '200', RUNTIME_NODE_TTL_MS: '1000', RUNTIME_DRAIN_MS: '10000',
    },
  });
  await child.ready;
  // No control plane to fetch bundles from: the bundle is put on each node.
  await createRuntimeClient({ url, secret: SECRET }).putBundle(SHA, new TextEncoder().encode(BUNDLE));
  return { id, url, child, dataDir };
}

const versionDb = {
  async query() {
    return { rows: [{ app_id: APP.id, version: APP.version, target: 'production', manifest: { egressHosts: [] }, bundle_sha256: SHA }], rowCount: 1 };
  },
} as unknown as Db;

let n = 0;
function delivery(data: Record<string, unknown> = {}): OutgoingDelivery {
  const id = `dlv_fleet_${++n}`;
  const body = JSON.stringify({ id, type: 'block.action', data });
  return {
    id, deliveryClass: 'interactive', type: 'block.action',
    app: { ...APP, hosting: 'platform', endpointUrl: null }, install: { id: 'ins_fleet', kind: 'workspace' },
    body, headers: signedHeaders(id, body, 'interactive', 'ins_fleet'), timeoutMs: 15_000, maxResponseBytes: 65_536,
  };
}

describe.skipIf(REDIS_URL === undefined)(nameNeeding('runtime nodes as a fleet', { redis: REDIS_URL }), () => {
  const nodes: Node[] = [];
  let fleet: RuntimeNodes;
  let target: DeliveryTarget;
  /** The node each call went to, in order. */
  const went: string[] = [];

  beforeAll(async () => {
    nodes.push(...await Promise.all([startNode('node-a'), startNode('node-b')]));
    fleet = openRuntimeNodes({
      config: { runtimeFleet: 'redis', runtimeUrl: 'http://unused.test', redisUrl: REDIS_URL!, redisPrefix: PREFIX },
      logger, clock: { now: () => Date.now() }, refreshMs: 200,
      makeClient: async (url) => createRuntimeClient({ url, secret: SECRET }),
    });
    await fleet.ready();
    await vi.waitFor(() => expect(fleet.directory.nodes()).toHaveLength(2), { timeout: 5_000 });
    target = createRuntimeTarget({
      db: versionDb, baseUrl: 'http://127.0.0.1:9', environmentFor: async () => ({ env: {}, secretEnvKeys: [] }),
      placement: fleet.placement,
      client: async (node) => {
        went.push(node.id);
        return fleet.client(node);
      },
    });
  }, 60_000);

  afterAll(async () => {
    await fleet?.close();
    for (const node of nodes) {
      await node.child.stop(2_000);
      rmSync(node.dataDir, { recursive: true, force: true });
    }
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('keeps an app version on its node; killing that node costs only the deliveries in flight there', async () => {
    const [home, other] = rendezvousOrder(KEY, fleet.directory.nodes()).map((f) => nodes.find((x) => x.id === f.id)!);
    went.length = 0;
    for (let i = 0; i < 10; i++) expect(await target.send(delivery())).toMatchObject({ ok: true, status: 200 });
    expect(new Set(went)).toEqual(new Set([home!.id]));

    // Three deliveries held in flight on the app's node, then the node is killed without a word.
    const held = Array.from({ length: 3 }, () => target.send(delivery({ waitMs: 30_000 })));
    await vi.waitFor(async () => {
      const load = await (await fetch(`${home!.url}/internal/v1/load`, { headers: { authorization: `Bearer ${SECRET}` } })).json() as { inFlight: number };
      expect(load.inFlight).toBe(3);
    }, { timeout: 10_000 });
    process.kill(home!.child.pid!, 'SIGKILL');
    for (const outcome of await Promise.all(held)) {
      expect(outcome).toMatchObject({ ok: false, failure: 'unavailable' });
      expect(outcome.ok === false && outcome.message).toMatch(/lost with the delivery in flight/);
    }

    // Every delivery after the kill is answered, by the other node.
    went.length = 0;
    for (let i = 0; i < 10; i++) expect(await target.send(delivery())).toMatchObject({ ok: true, status: 200 });
    expect(went.filter((id) => id === other!.id)).toHaveLength(10);
    // The registry forgets the dead node once its record's TTL has passed.
    await vi.waitFor(() => expect(fleet.directory.nodes().map((f) => f.id)).toEqual([other!.id]), { timeout: 5_000 });
    const redis = new Redis(REDIS_URL!);
    try {
      expect(await redis.smembers(fleetKeys(PREFIX).nodes)).not.toContain(home!.id);
    } finally {
      redis.disconnect();
    }
  }, 60_000);

  it('drains a node on SIGTERM: what it holds finishes, nothing new reaches it, it leaves the registry', async () => {
    const last = nodes.find((x) => fleet.directory.nodes().some((f) => f.id === x.id))!;
    const spare = await startNode('node-c');
    nodes.push(spare);
    await vi.waitFor(() => expect(fleet.directory.nodes()).toHaveLength(2), { timeout: 5_000 });
    const home = rendezvousOrder(KEY, fleet.directory.nodes())[0]!;
    const draining = nodes.find((x) => x.id === home.id)!;
    const staying = draining === last ? spare : last;

    const held = target.send(delivery({ waitMs: 1_500 }));
    await vi.waitFor(async () => {
      const load = await (await fetch(`${draining.url}/internal/v1/load`, { headers: { authorization: `Bearer ${SECRET}` } })).json() as { inFlight: number };
      expect(load.inFlight).toBe(1);
    }, { timeout: 10_000 });
    process.kill(draining.child.pid!, 'SIGTERM');
    await vi.waitFor(() => expect(fleet.directory.nodes().find((f) => f.id === draining.id)?.draining ?? true).toBe(true), { timeout: 5_000 });

    went.length = 0;
    for (let i = 0; i < 5; i++) expect(await target.send(delivery())).toMatchObject({ ok: true });
    expect(went).toEqual(Array(5).fill(staying.id));
    expect(await held).toMatchObject({ ok: true, status: 200 });
    expect(await draining.child.exited).toMatchObject({ code: 0 });
    await vi.waitFor(() => expect(fleet.directory.nodes().map((f) => f.id)).toEqual([staying.id]), { timeout: 5_000 });
  }, 60_000);
});
