/**
 * Benchmark of app storage (issue 22, item 7): `get` and an atomic commit (one check, one set) as an
 * app's `/v0/storage` calls reach the control plane, with real Postgres (DATABASE_URL, default the
 * local test database; a fresh database) and Redis when REDIS_URL is set. The control plane runs as
 * its own process (bench-support's `startPlatform`); this process only sends the calls, with the
 * install token a hosted app's egress adds. What this leaves out of "from a hosted app": the guest's
 * `fetch` and the runtime node's egress hop (measured by runtime-throughput's figures).
 *
 * Figures: p50 and p99 one at a time, and operations per second with 16 in flight, for each; targets
 * get p50 ≤ 2 ms, commit p50 ≤ 4 ms, ≥ 3,000 gets/s, ≥ 1,500 commits/s. Commits of the in-flight
 * run go to 16 keys (one per lane), each checking the versionstamp its lane last wrote, so every
 * check holds and none waits on another lane's lock. BENCH_STORAGE_MS sets the length of each
 * timed run (default 5,000 ms; a tiny value checks that the bench runs).
 */
import { request } from 'undici';
import { agent, load, must, percentile, startPlatform, type BenchPlatform } from '../fixtures/blocks/bench-support.ts';

interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  ratio: number | null;
}

const IN_FLIGHT = 16;
const RUN_MS = Number(process.env.BENCH_STORAGE_MS ?? 5_000);
const SERIAL = Math.max(20, Math.min(1_000, Math.round(RUN_MS / 5)));
const TARGETS = { getP50Ms: 2, commitP50Ms: 4, getsPerS: 3_000, commitsPerS: 1_500 };

async function installToken(p: BenchPlatform): Promise<string> {
  const ws = await must('POST', `${p.url}/client/v1/workspaces`, { name: 'Bench', owner: { name: 'Bea Bench' } }, `Bearer ${p.operatorToken}`, 201);
  const key = `Bearer ${ws.apiKey}`;
  const app = await must('POST', `${p.url}/client/v1/apps`, { name: 'Keeper', slug: 'keeper', hosting: 'self', endpoint: { url: 'https://keeper.example.com/platform' } }, key, 201);
  const manifest = { schemaVersion: 1, name: 'Keeper', slug: 'keeper', hosting: 'self', endpoint: { url: 'https://keeper.example.com/platform' }, scopes: [], blocks: [] };
  await must('PUT', `${p.url}/v0/apps/${app.app.id}/manifest`, { manifest, target: 'production' }, key, 200);
  const consent = await must('GET', `${p.url}/client/v1/apps/${app.app.id}/consent`, undefined, key, 200);
  const installed = await must('POST', `${p.url}/client/v1/apps/${app.app.id}/installs`, { version: consent.consent.version }, key, 201);
  const basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
  return (await must('POST', `${p.url}/v0/apps/installs/${installed.install.id}/access-tokens`, {}, basic, 201)).token as string;
}

async function post(url: string, token: string, body: unknown): Promise<any> {
  const res = await request(url, { method: 'POST', body: JSON.stringify(body), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, dispatcher: agent });
  const answer = await res.body.json();
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${JSON.stringify(answer)}`);
  return answer;
}

export async function run(): Promise<BenchRow[]> {
  const p = await startPlatform(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  try {
    const token = await installToken(p);
    const get = () => post(`${p.url}/v0/storage/get`, token, { keys: ['bench/read'] });
    const stamps: Array<string | null> = Array.from({ length: IN_FLIGHT }, () => null);
    const commit = async (lane: number) => {
      const key = `bench/lane/${lane}`;
      const res = await post(`${p.url}/v0/storage/commit`, token, { checks: [{ key, versionstamp: stamps[lane] }], mutations: [{ type: 'set', key, value: { lane, at: Date.now() } }] });
      stamps[lane] = res.versionstamp as string;
    };
    await post(`${p.url}/v0/storage/commit`, token, { mutations: [{ type: 'set', key: 'bench/read', value: { hello: 'storage', n: 42 } }] });
    await load(1, { count: SERIAL / 2 }, () => get().then(() => commit(0)));

    const serialGet = await load(1, { count: SERIAL }, get);
    const serialCommit = await load(1, { count: SERIAL }, () => commit(0));
    const flightGet = await load(IN_FLIGHT, { ms: RUN_MS }, get);
    const flightCommit = await load(IN_FLIGHT, { ms: RUN_MS }, commit);

    const p50 = (l: number[]) => percentile(l, 0.5);
    const p99 = (l: number[]) => percentile(l, 0.99);
    return [
      { name: 'get p50, one at a time', value: p50(serialGet.latencies), unit: 'ms', target: `≤ ${TARGETS.getP50Ms} ms`, ratio: TARGETS.getP50Ms / p50(serialGet.latencies) },
      { name: 'get p99, one at a time', value: p99(serialGet.latencies), unit: 'ms', target: '–', ratio: null },
      { name: `gets/s, ${IN_FLIGHT} in flight`, value: flightGet.perSecond, unit: '/s', target: `≥ ${TARGETS.getsPerS}`, ratio: flightGet.perSecond / TARGETS.getsPerS },
      { name: 'commit p50, one at a time', value: p50(serialCommit.latencies), unit: 'ms', target: `≤ ${TARGETS.commitP50Ms} ms`, ratio: TARGETS.commitP50Ms / p50(serialCommit.latencies) },
      { name: 'commit p99, one at a time', value: p99(serialCommit.latencies), unit: 'ms', target: '–', ratio: null },
      { name: `commits/s, ${IN_FLIGHT} in flight`, value: flightCommit.perSecond, unit: '/s', target: `≥ ${TARGETS.commitsPerS}`, ratio: flightCommit.perSecond / TARGETS.commitsPerS },
    ];
  } finally {
    await p.stop();
  }
}
