/**
 * The storage benchmark's rows measured from inside a hosted app (issue 22, item 7), as `npm start`
 * runs it (test/helpers/npm-start.ts: the control plane with its embedded Postgres, the runtime node
 * its child). The app (test/fixtures/storage/bench-app.ts, bundled with esbuild, uploaded through
 * the public API and installed) times `ctx.storage` calls in its command handlers with the guest's
 * clock and answers the timings. Latency rows: commands of GUEST_CALLS calls one after another,
 * every call's own time. Rate rows: commands whose handler runs 16 loops side by side (16 calls in
 * flight from the guest) of 3 calls each, 48 calls (the runtime allows 50 outbound requests per
 * delivery); the rate is the calls over the time the guest spent in them, so the command's own
 * delivery is not in it (its CPU is, in the CPU rows). Not run by itself: the runner picks up
 * storage.bench.ts, which calls `hostedRows`.
 */
import { build } from 'esbuild';
import { LIMITS } from '@platform/sdk';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPlatform, type Platform } from '../helpers/npm-start.ts';
import type { GuestTimings } from '../fixtures/storage/bench-app.ts';
import { cpuMs, must, percentile } from '../fixtures/blocks/bench-support.ts';
import { cpuWindow, loadNow, loadRow } from './runtime-process-cpu.ts';
import type { BenchRow } from './run.ts';

export const GUEST_CALLS = 20;
const IN_FLIGHT = 16;

interface Hosted {
  platform: Platform;
  /** The Postgres backends serving the control plane. */
  postgresPids(): Promise<number[]>;
  owner: string;
  appId: string;
  surface: { kind: 'circle'; circleId: string; conversationId: string };
}

async function bundle(): Promise<Uint8Array> {
  const built = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/storage/bench-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  return built.outputFiles[0]!.contents;
}

/** The app created, its bundle uploaded and installed in the owner's workspace, and the key it reads stored. */
async function deploy(platform: Platform, postgresPids: () => Promise<number[]>): Promise<Hosted> {
  const owner = `Bearer ${platform.credentials.owner.apiKey}`;
  const created = await must('POST', `${platform.url}/client/v1/apps`, { name: 'Storage bench', slug: 'storage-bench', hosting: 'platform' }, owner, 201);
  const appId = created.app.id as string;
  await must('POST', `${platform.url}/v0/apps/${appId}/versions?target=production`, undefined, owner, 200, await bundle());
  const consent = await must('GET', `${platform.url}/client/v1/apps/${appId}/consent`, undefined, owner, 200);
  await must('POST', `${platform.url}/client/v1/apps/${appId}/installs`, { version: consent.consent.version }, owner, 201);
  // The key the gets read, written with the author's tooling.
  await must('POST', `${platform.url}/v0/apps/${appId}/storage/workspace/commit`, { mutations: [{ type: 'set', key: 'bench/read', value: { hello: 'storage', n: 42 } }] }, owner, 200);
  const { credentials } = platform;
  return { platform, postgresPids, owner, appId, surface: { kind: 'circle', circleId: credentials.circles.public, conversationId: credentials.conversationId } };
}

type Command = 'storage-gets' | 'storage-commits';
/** The last versionstamp of each commit key, by lane count (the command is told them and answers the new ones). */
const stamps = new Map<number, Array<string | null>>();

/** Runs one command; answers what the guest measured. */
async function runCommand(h: Hosted, command: Command, lanes: number, calls: number): Promise<GuestTimings> {
  const options = { lanes, calls, ...(command === 'storage-commits' ? { stamps: JSON.stringify(stamps.get(lanes) ?? []) } : {}) };
  const res = await must('POST', `${h.platform.url}/client/v1/commands/run`, { appId: h.appId, command, options, surface: h.surface }, h.owner, 200);
  const text = res.invocation?.answer?.content?.content?.[0]?.content?.[0]?.text;
  if (res.invocation?.status !== 'answered' || typeof text !== 'string') throw new Error(`${command} did not answer: ${JSON.stringify(res).slice(0, 500)}`);
  const timings = JSON.parse(text) as GuestTimings;
  if (timings.stamps !== undefined) stamps.set(lanes, timings.stamps);
  return timings;
}

interface Measured { samples: number[]; perSecond: number; clock: GuestTimings['clock']; loadBefore: number; cpu: Array<{ label: string; usPerRequest: number }> }

/** Commands of `lanes` × `calls` one after another until `limit` (calls made, or ms passed). */
async function measure(h: Hosted, command: Command, lanes: number, calls: number, limit: { calls?: number; ms?: number }): Promise<Measured> {
  const loadBefore = loadNow();
  const pg = await postgresCpu(() => h.postgresPids());
  const window = cpuWindow(h.platform.pid);
  const started = performance.now();
  const samples: number[] = [];
  let insideMs = 0;
  let clock: GuestTimings['clock'] = 'Date.now';
  const more = () => (limit.calls === undefined || samples.length < limit.calls) && (limit.ms === undefined || performance.now() - started < limit.ms);
  do {
    const t = await runCommand(h, command, lanes, calls);
    samples.push(...t.samples);
    insideMs += t.totalMs;
    clock = t.clock;
  } while (more());
  const pgUs = ((await pg.spent()) * 1000) / Math.max(1, samples.length);
  const cpu = [...mergeByLabel(window.end(samples.length)), { label: 'Postgres backends', usPerRequest: pgUs }];
  return { samples: samples.sort((a, b) => a - b), perSecond: samples.length / (Math.max(1, insideMs) / 1000), clock, loadBefore, cpu };
}

/**
 * CPU milliseconds the Postgres backends of the bench's database spend from now until `spent()`:
 * backends opened meanwhile (a pool growing to 16 connections) count from their start.
 */
export async function postgresCpu(pids: () => Promise<number[]>): Promise<{ spent(): Promise<number> }> {
  const before = new Map<number, number>();
  for (const pid of await pids()) before.set(pid, await cpuMs([pid], { descendants: false }));
  return {
    async spent() {
      let total = 0;
      for (const pid of await pids()) total += (await cpuMs([pid], { descendants: false })) - (before.get(pid) ?? 0);
      return total;
    },
  };
}

/** One row per kind of process (Postgres runs one process per connection). */
function mergeByLabel(rows: Array<{ label: string; usPerRequest: number }>): Array<{ label: string; usPerRequest: number }> {
  const merged = new Map<string, number>();
  for (const r of rows) {
    const label = r.label.startsWith('sandbox worker') ? 'sandbox workers' : r.label;
    merged.set(label, (merged.get(label) ?? 0) + r.usPerRequest);
  }
  return [...merged].map(([label, usPerRequest]) => ({ label, usPerRequest }));
}

export interface Targets { getP50Ms: number; commitP50Ms: number; getsPerS: number; commitsPerS: number }

const cpuRows = (name: string, m: Measured): BenchRow[] =>
  m.cpu.map((c) => ({ name: `${name}: CPU per call (the command's delivery included), ${c.label}`, value: c.usPerRequest, unit: 'µs', target: 'info', ratio: null }));

function latencyRows(op: string, m: Measured, target: number): BenchRow[] {
  const name = `${op} p50, one at a time, from a hosted app (npm start; guest clock ${m.clock})`;
  const p50 = percentile(m.samples, 0.5);
  return [
    loadRow(name, m.loadBefore),
    { name, value: p50, unit: `ms (${m.samples.length} calls)`, target: `≤ ${target} ms`, ratio: p50 === 0 ? null : target / p50 },
    { name: `${op} p99, one at a time, from a hosted app`, value: percentile(m.samples, 0.99), unit: 'ms', target: '–', ratio: null },
    ...cpuRows(`${op}, one at a time, hosted`, m),
  ];
}

function rateRows(op: string, m: Measured, target: number): BenchRow[] {
  const name = `${op}s/s, ${IN_FLIGHT} in flight in the guest, from a hosted app (npm start)`;
  return [
    loadRow(name, m.loadBefore),
    { name, value: m.perSecond, unit: `/s (${m.samples.length} calls)`, target: `≥ ${target}`, ratio: m.perSecond / target },
    { name: `${op} p50 with ${IN_FLIGHT} in flight, hosted`, value: percentile(m.samples, 0.5), unit: 'ms', target: 'info', ratio: null },
    ...cpuRows(`${op}s, ${IN_FLIGHT} in flight, hosted`, m),
  ];
}

/** `runMs`: each rate row's length; the latency rows make about `runMs / 5` calls (at least two commands' worth). */
export async function hostedRows(runMs: number, targets: Targets, databaseUrl: string): Promise<BenchRow[]> {
  const database = await freshDatabase(databaseUrl);
  let platform: Platform | undefined;
  try {
    platform = await startPlatform({ env: { LOG_LEVEL: 'warn', DATABASE_URL: database.url, ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}) } });
    const h = await deploy(platform, database.pids);
    const serialCalls = Math.max(2 * GUEST_CALLS, Math.round(runMs / 5));
    const flightCalls = Math.floor(LIMITS.hosted.outboundRequestsPerRequest / IN_FLIGHT);
    // Warm: the bundle loaded, the isolate made, connections open.
    await runCommand(h, 'storage-gets', IN_FLIGHT, flightCalls);
    await runCommand(h, 'storage-commits', IN_FLIGHT, flightCalls);
    const gets = await measure(h, 'storage-gets', 1, GUEST_CALLS, { calls: serialCalls });
    const commits = await measure(h, 'storage-commits', 1, GUEST_CALLS, { calls: serialCalls });
    const getRate = await measure(h, 'storage-gets', IN_FLIGHT, flightCalls, { ms: runMs });
    const commitRate = await measure(h, 'storage-commits', IN_FLIGHT, flightCalls, { ms: runMs });
    return [
      ...latencyRows('get', gets, targets.getP50Ms),
      ...rateRows('get', getRate, targets.getsPerS),
      ...latencyRows('commit', commits, targets.commitP50Ms),
      ...rateRows('commit', commitRate, targets.commitsPerS),
    ];
  } finally {
    await platform?.stop();
    await database.drop();
  }
}

async function freshDatabase(databaseUrl: string): Promise<{ url: string; pids(): Promise<number[]>; drop(): Promise<void> }> {
  const name = `bench_storage_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async pids() {
      const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      return rows.map((r) => r.pid);
    },
    async drop() {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
