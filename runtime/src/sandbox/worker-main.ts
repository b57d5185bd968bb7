/**
 * @module sandbox/worker-main
 * Entry of a sandbox worker process (forked by the supervisor with --no-node-snapshot). Holds the
 * isolates, runs jobs, and talks to the supervisor over the IPC channel only. It opens no sockets:
 * outbound fetches are forwarded to the supervisor.
 */
import type { WorkerLimits } from '../config.ts';
import { createBatcher, unbatch } from '../protocol/batch.ts';
import type { FromWorker, ToWorker } from '../protocol/messages.ts';
import { createExecutor } from './executor.ts';
import { assertSafeToolchain } from '../preflight.ts';
import { loadIvm } from './ivm.ts';
import { runManifest } from './manifest-run.ts';
import { createPool, type Pool } from './pool.ts';
import { runRequest, type RunningRequest } from './request-run.ts';

const send = createBatcher<FromWorker>((msg) => {
  if (process.connected) process.send?.(msg);
});

const now = (): number => Date.now();
const running = new Map<string, RunningRequest>();
let pool: Pool | null = null;
let limits: WorkerLimits | null = null;
const executor = createExecutor();

function fatal(message: string): void {
  send({ t: 'fatal', message });
  // V8 lost control of an isolate: the process is not trustworthy any more.
  setImmediate(() => process.kill(process.pid, 'SIGKILL'));
}

process.on('message', (raw: unknown) => unbatch<ToWorker>(raw, handle));

function handle(msg: ToWorker): void {
  switch (msg.t) {
    case 'init': {
      assertSafeToolchain();
      const ivm = loadIvm();
      const p = createPool({ ivm, guestSource: msg.guestSource, limits: msg.limits, executor, now, onCatastrophicError: fatal });
      pool = p;
      limits = msg.limits;
      p.warmSpare();
      setInterval(() => p.sweep(), Math.min(10_000, Math.max(1000, msg.limits.isolateIdleMs / 2))).unref();
      send({ t: 'ready' });
      break;
    }
    case 'run': {
      if (pool === null || limits === null) return;
      const job = msg.job;
      running.set(job.id, runRequest({ pool, executor, limits, send, now }, job, () => running.delete(job.id)));
      break;
    }
    case 'manifest':
      if (pool !== null) void runManifest({ pool, executor, send, now }, msg.job);
      break;
    case 'egress-result':
      running.get(msg.id)?.egressResult(msg.opId, msg.ok, msg.ok ? msg.result : msg.message);
      break;
    case 'stats': {
      const s = pool?.stats() ?? { isolates: 0, heapBytes: 0, versions: 0 };
      send({ t: 'stats', ...s, rssBytes: process.memoryUsage.rss() });
      break;
    }
  }
}

// The supervisor went away: nothing left to serve. SIGKILL rather than exit(): isolated-vm's
// teardown can wait on isolates that are still running.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
