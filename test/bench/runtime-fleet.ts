/**
 * Hosted deliveries per second through the control plane's runtime target (placement over the fleet
 * registry in Redis, the runtime client) with one runtime node and with two, in the same run, on the
 * same machine: issue 15 asks for the ratio and its explanation against the machine's cores.
 *
 * Each node runs one sandbox worker. Many app versions (`APPS`) are delivered to, so that rendezvous
 * hashing spreads them over both nodes; the load generator is closed-loop (`CONCURRENCY` deliveries
 * in flight) in this process, as a control plane would send them. Needs REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { RuntimeDeliveryRequest } from '@platform/runtime';
import { openRuntimeNodes } from '../../control-plane/src/core/runtime-node/nodes.ts';
import { createRuntimeFetch } from '../../control-plane/src/deliveries/targets/runtime-fetch.ts';
import { createRuntimeClient } from '@platform/runtime';
import { type BenchRow, SECRET, sha256Hex, signedDelivery, spawnRuntime, type RuntimeProcess } from './runtime-support.ts';

const APPS = 16;
const CONCURRENCY = 32;
const SECONDS = Number(process.env.BENCH_FLEET_SECONDS ?? 5);
const BUNDLE = 'export default { async fetch(request) { return Response.json({ ok: true, id: (await request.json()).id }); } };';

async function measure(nodeCount: number): Promise<number> {
  const prefix = `bench-fleet-${randomBytes(4).toString('hex')}:`;
  const redisUrl = process.env.REDIS_URL!;
  const nodes: RuntimeProcess[] = [];
  const fleet = openRuntimeNodes({
    config: { runtimeFleet: 'redis', runtimeUrl: 'http://unused.invalid', redisUrl, redisPrefix: prefix },
    logger: pino({ level: 'silent' }), clock: { now: () => Date.now() }, refreshMs: 200,
    makeClient: async (url) => createRuntimeClient({ url, secret: SECRET, fetch: createRuntimeFetch() }),
  });
  try {
    for (let i = 0; i < nodeCount; i++) {
      nodes.push(await spawnRuntime({ RUNTIME_WORKERS: '1', RUNTIME_FLEET: 'redis', REDIS_URL: redisUrl, REDIS_PREFIX: prefix, RUNTIME_NODE_ID: `bench-${i}` }));
    }
    const sha = sha256Hex(BUNDLE);
    for (const node of nodes) await node.client.putBundle(sha, new TextEncoder().encode(BUNDLE));
    await fleet.ready();
    while (fleet.directory.nodes().length < nodeCount) await new Promise((r) => setTimeout(r, 50));

    let n = 0;
    const request = (app: number): RuntimeDeliveryRequest => {
      const id = `dlv_${++n}`;
      return {
        app: { id: `app_${app}`, slug: `bench-${app}`, version: 1 }, bundle: { sha256: sha }, target: 'production', baseUrl: 'http://127.0.0.1:9',
        ...signedDelivery({ id, type: 'block.action', data: {} }),
      };
    };
    const send = (app: number) => fleet.run(`app_${app}@1`, undefined, (client) => client.deliver(request(app)));
    // Warm every app version on its node.
    for (let app = 0; app < APPS; app++) await send(app);
    let done = 0;
    let failed = 0;
    const until = performance.now() + SECONDS * 1000;
    const loop = async (slot: number) => {
      while (performance.now() < until) {
        const result = await send((slot + done) % APPS);
        if (result.outcome === 'ok') done++;
        else failed++;
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, slot) => loop(slot)));
    if (failed > 0) process.stdout.write(`  ${failed} deliveries failed with ${nodeCount} node(s)\n`);
    return done / ((performance.now() - started) / 1000);
  } finally {
    await fleet.close();
    for (const node of nodes) await node.stop();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
}

export async function run(): Promise<BenchRow[]> {
  if (process.env.REDIS_URL === undefined) {
    process.stdout.write('  runtime-fleet skipped: REDIS_URL is not set\n');
    return [];
  }
  const one = await measure(1);
  const two = await measure(2);
  return [
    { name: 'hosted deliveries/s, 1 runtime node (1 worker)', value: one, unit: 'req/s', target: 'info', ratio: null },
    { name: 'hosted deliveries/s, 2 runtime nodes (1 worker each)', value: two, unit: 'req/s', target: 'info', ratio: null },
    { name: `2 nodes over 1 (${availableParallelism()} cores shared by load, nodes and workers)`, value: two / one, unit: '×', target: 'info: see docs/fleet.md', ratio: null },
  ];
}
