/**
 * @module sandbox/worker-main
 * Entry of a sandbox worker process (spawned by the supervisor with --no-node-snapshot and no
 * environment). Holds the isolates and runs jobs synchronously on this thread, in the order they
 * arrive; talks to the supervisor over the channel on fd 3 and writes the entry journal on fd 4.
 * It opens no sockets: outbound fetches are forwarded to the supervisor.
 */
import { isUtf8 } from 'node:buffer';
import { Socket } from 'node:net';
import type { WorkerLimits } from '../config/config.ts';
import { createChannel, type FrameBody } from '../protocol/channel.ts';
import type { FromWorker, HandoffSetup, IngressTicket, ToWorker, VersionSpec } from '../protocol/messages.ts';
import { createConnJournal, createHandoffServer, createWorkerDirectory, type ConnJournal } from './handoff-server.ts';
import { createLocalRuns, type LocalRuns } from './local-runs.ts';
import { assertSafeToolchain } from './preflight.ts';
import { createBackground, type Background } from './background.ts';
import { loadIvm, type Ivm } from './ivm.ts';
import { createJournal, JOURNAL_FD } from '../protocol/journal.ts';
import { runManifest } from './manifest-run.ts';
import { createPool, type Pool } from './pool.ts';
import { runRequest, type RunningRequest } from './request-run.ts';
import { createBlankSlot, type Slot } from './slot.ts';

const CHANNEL_FD = 3;
/** Version specs a worker keeps; the supervisor sends one again when it is needed after eviction. */
const MAX_VERSIONS = 4_096;

interface Worker {
  ivm: Ivm;
  limits: WorkerLimits;
  pool: Pool;
  background: Background;
  blank: () => Slot;
}

const now = (): number => Date.now();
// Before a guest runs: the bytes of handed requests read and not entered go to the supervisor, and
// this channel's frames are written out. Local requests' ends are not (local-runs.ts batches them).
const journal = createJournal(JOURNAL_FD, () => {
  handoff?.conns.holdWaiting();
  channel.flush();
});
const versions = new Map<number, VersionSpec>();
const running = new Map<string, RunningRequest>();
let worker: Worker | null = null;

const channel = createChannel<ToWorker, FromWorker>(new Socket({ fd: CHANNEL_FD, readable: true, writable: true }), handle, () => {
  // The supervisor went away: nothing left to serve. SIGKILL rather than exit(): isolated-vm's
  // teardown can wait on isolates that are still running.
  process.kill(process.pid, 'SIGKILL');
});
const send = channel.send;

function fatal(message: string): void {
  send({ t: 'log', level: 'error', message: 'a sandbox worker hit a catastrophic V8 error', error: message });
  // V8 lost control of an isolate: the process is not trustworthy any more.
  process.kill(process.pid, 'SIGKILL');
}

/** A body as the guest receives it: text when it is UTF-8, else one byte per character. */
function guestBody(body: FrameBody): { text: string | null; kind: 'text' | 'latin1' } {
  if (body === null) return { text: null, kind: 'text' };
  return isUtf8(body) ? { text: body.toString('utf8'), kind: 'text' } : { text: body.toString('latin1'), kind: 'latin1' };
}

function init(guestSource: string, limits: WorkerLimits): void {
  // The node chose the build (a runtime node: always the patched one); the worker checks it may.
  assertSafeToolchain(limits.isolatedVm === 'stock' ? 'development' : 'production');
  const ivm = loadIvm(limits.isolatedVm);
  const blank = (): Slot => createBlankSlot(ivm, guestSource, { memoryLimitMb: limits.isolateMemoryMb, allowWasm: limits.allowWasm, onCatastrophicError: fatal });
  const pool = createPool(limits, now);
  const background = createBackground({ ivm, isolateMemoryMb: limits.isolateMemoryMb, blank });
  worker = { ivm, limits, pool, background, blank };
  background.kick();
  setInterval(() => pool.sweep(), Math.min(10_000, Math.max(1000, limits.isolateIdleMs / 2))).unref();
  send({ t: 'ready' });
}

/** Hand-off (RUNTIME_HANDOFF): this worker serves hosted ingress on connections the supervisor hands it. */
let handoff: { server: ReturnType<typeof createHandoffServer>; runs: LocalRuns; directory: ReturnType<typeof createWorkerDirectory>; conns: ConnJournal } | null = null;

function startHandoff(setup: HandoffSetup): void {
  if (worker === null || handoff !== null) return;
  const w = worker;
  const tickets = new WeakMap<object, IngressTicket>();
  const directory = createWorkerDirectory(send, setup.directoryTtlMs, now, tickets);
  const conns = createConnJournal(journal, send);
  const runs = createLocalRuns({ setup, run: { pool: w.pool, background: w.background, blank: w.blank, journal, startupCpuMs: w.limits.startupCpuMs, send, now }, tickets, versions, running, entering: conns.enter, passing: conns.passed });
  const h = handoff = { server: createHandoffServer({ setup, runs, directory, send, journal: conns }), runs, directory, conns };
  for (const [socket, head, slot] of early.splice(0)) h.server.take(socket, head, slot);
}

// Connections arrive on Node's IPC channel, which is not ordered with the frames on fd 3: one may
// come before the `handoff` frame that says how to serve it.
const early: Array<[Socket, string, number]> = [];
process.on('message', (m: { t?: string; head?: string; slot?: number }, socket: unknown) => {
  if (m?.t !== 'conn' || !(socket instanceof Socket) || typeof m.slot !== 'number') return;
  if (handoff === null) early.push([socket, m.head ?? '', m.slot]);
  else handoff.server.take(socket, m.head ?? '', m.slot);
});

function handoffMessage(msg: Extract<ToWorker, { t: 'handoff' | 'app' | 'passed' | 'revoke' }>, body: FrameBody): void {
  switch (msg.t) {
    case 'handoff': return startHandoff(msg.setup);
    case 'app': return handoff?.directory.answer(msg);
    case 'passed': return handoff?.runs.passed(msg, body);
    case 'revoke': return handoff?.directory.revoke(msg.appId);
  }
}

function handle(msg: ToWorker, body: FrameBody): void {
  switch (msg.t) {
    case 'handoff':
    case 'app':
    case 'passed':
    case 'revoke':
      return handoffMessage(msg, body);
    case 'init': return init(msg.guestSource, msg.limits);
    case 'version':
      versions.set(msg.spec.vid, msg.spec);
      if (versions.size > MAX_VERSIONS) versions.delete(versions.keys().next().value as number);
      return;
    case 'run': {
      const spec = versions.get(msg.job.vid);
      if (worker === null || spec === undefined) {
        send({ t: 'end', id: msg.job.id, report: { outcome: 'crashed', cpuMs: 0, wallMs: 0, coldStartMs: null, logs: [], droppedLogs: 0 }, error: { tag: 'PlatformApiServiceUnavailableError', message: 'The sandbox worker is not ready for this app version' } });
        return;
      }
      const w = worker;
      const { text, kind } = guestBody(body);
      const job = msg.job;
      running.set(job.id, runRequest({ pool: w.pool, background: w.background, blank: w.blank, journal, startupCpuMs: w.limits.startupCpuMs, send, now }, spec, job, text, kind, () => running.delete(job.id)));
      return;
    }
    case 'manifest': {
      const spec = versions.get(msg.job.vid);
      if (worker === null || spec === undefined) return;
      return runManifest({ blank: worker.blank, background: worker.background, journal, send, now }, spec, msg.job);
    }
    case 'egress-result': {
      const request = running.get(msg.id);
      if (request === undefined) return;
      if (!msg.ok) return request.egressResult(msg.opId, false, msg.message);
      const { text, kind } = guestBody(body);
      request.egressResult(msg.opId, true, { status: msg.status, statusText: msg.statusText, headers: msg.headers, body: text ?? '', bodyKind: kind, url: msg.url, redirected: msg.redirected });
      return;
    }
    case 'stats': {
      const s = worker?.pool.stats() ?? { isolates: 0, heapBytes: 0, versions: 0 };
      send({ t: 'stats', ...s, isolates: s.isolates + (worker?.background.hasSpare === true ? 1 : 0), rssBytes: process.memoryUsage.rss() });
      return;
    }
  }
}
