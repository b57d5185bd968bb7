/**
 * Benchmark of app storage (issue 22, item 7): `get` and an atomic commit (one check, one set),
 * p50 and p99 one at a time and operations per second with 16 in flight, each beside its target
 * (get p50 ≤ 2 ms, commit p50 ≤ 4 ms, ≥ 3,000 gets/s, ≥ 1,500 commits/s), the load average before
 * each row. Two forms:
 *
 * - **from a hosted app** (storage-hosted.ts): timed in the guest, as `npm start` runs the app
 *   (on a fresh database of the same Postgres, Redis when REDIS_URL is set);
 * - **direct**: this process sends the `/v0/storage` calls a hosted app's egress makes, with the
 *   install token, to a control plane process of its own (bench-support's `startPlatform`: real
 *   Postgres from DATABASE_URL, default the local test database, a fresh database; Redis when
 *   REDIS_URL is set). It leaves out the guest's `fetch` and the runtime's egress hop, and says the
 *   CPU the control plane and its Postgres backends spend per operation (the figure that holds
 *   under load; docs/decisions/storage.md compares it before and after changes).
 *
 * Commits of the in-flight runs go to 16 keys (one per lane), each checking the versionstamp its
 * lane last wrote, so every check holds and none waits on another lane's lock. BENCH_STORAGE_MS
 * sets the length of each timed run (default 5,000 ms; a tiny value checks that the bench runs);
 * BENCH_STORAGE_FORMS=direct (or hosted) runs one form only.
 */
import { request } from 'undici';
import { agent, cpuMs, load, must, percentile, startPlatform, type BenchPlatform } from '../fixtures/blocks/bench-support.ts';
import { loadNow, loadRow } from './runtime-process-cpu.ts';
import type { BenchRow } from './run.ts';
import { hostedRows, postgresCpu } from './storage-hosted.ts';

const IN_FLIGHT = 16;
const RUN_MS = Number(process.env.BENCH_STORAGE_MS ?? 5_000);
const SERIAL = Math.max(20, Math.min(1_000, Math.round(RUN_MS / 5)));
const TARGETS = { getP50Ms: 2, commitP50Ms: 4, getsPerS: 3_000, commitsPerS: 1_500 };
const FORMS = (process.env.BENCH_STORAGE_FORMS ?? 'hosted,direct').split(',');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

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

interface Measured { latencies: number[]; perSecond: number; loadBefore: number; cpu: { controlPlaneUs: number; postgresUs: number } }

/** `load` with the load average before it and the CPU per call of the control plane and of its Postgres backends. */
async function measured(p: BenchPlatform, inFlight: number, limit: { ms?: number; count?: number }, worker: (lane: number) => Promise<void>): Promise<Measured> {
  const loadBefore = loadNow();
  const pg = await postgresCpu(() => p.postgresPids());
  const cpBefore = await cpuMs([p.pids.controlPlane]);
  const run = await load(inFlight, limit, worker);
  const cpMs = (await cpuMs([p.pids.controlPlane])) - cpBefore;
  const pgMs = await pg.spent();
  const per = (ms: number) => (ms * 1000) / Math.max(1, run.latencies.length);
  return { ...run, loadBefore, cpu: { controlPlaneUs: per(cpMs), postgresUs: per(pgMs) } };
}

const p50 = (l: number[]) => percentile(l, 0.5);
const p99 = (l: number[]) => percentile(l, 0.99);
const cpuRows = (name: string, m: Measured): BenchRow[] => [
  { name: `${name}: CPU per call, control plane`, value: m.cpu.controlPlaneUs, unit: 'µs', target: 'info', ratio: null },
  { name: `${name}: CPU per call, Postgres backends`, value: m.cpu.postgresUs, unit: 'µs', target: 'info', ratio: null },
];

function latencyRows(op: string, m: Measured, target: number): BenchRow[] {
  const name = `${op} p50, one at a time (direct /v0 calls)`;
  return [
    loadRow(name, m.loadBefore),
    { name, value: p50(m.latencies), unit: 'ms', target: `≤ ${target} ms`, ratio: target / p50(m.latencies) },
    { name: `${op} p99, one at a time (direct)`, value: p99(m.latencies), unit: 'ms', target: '–', ratio: null },
    ...cpuRows(`${op}, one at a time (direct)`, m),
  ];
}

function rateRows(op: string, m: Measured, target: number): BenchRow[] {
  const name = `${op}s/s, ${IN_FLIGHT} in flight (direct /v0 calls)`;
  return [
    loadRow(name, m.loadBefore),
    { name, value: m.perSecond, unit: '/s', target: `≥ ${target}`, ratio: m.perSecond / target },
    ...cpuRows(`${op}s, ${IN_FLIGHT} in flight (direct)`, m),
  ];
}

async function directRows(): Promise<BenchRow[]> {
  const p = await startPlatform(DATABASE_URL);
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

    const serialGet = await measured(p, 1, { count: SERIAL }, get);
    const serialCommit = await measured(p, 1, { count: SERIAL }, () => commit(0));
    const flightGet = await measured(p, IN_FLIGHT, { ms: RUN_MS }, get);
    const flightCommit = await measured(p, IN_FLIGHT, { ms: RUN_MS }, commit);
    return [
      ...latencyRows('get', serialGet, TARGETS.getP50Ms),
      ...rateRows('get', flightGet, TARGETS.getsPerS),
      ...latencyRows('commit', serialCommit, TARGETS.commitP50Ms),
      ...rateRows('commit', flightCommit, TARGETS.commitsPerS),
    ];
  } finally {
    await p.stop();
  }
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  if (FORMS.includes('hosted')) rows.push(...await hostedRows(RUN_MS, TARGETS, DATABASE_URL));
  if (FORMS.includes('direct')) rows.push(...await directRows());
  return rows;
}
