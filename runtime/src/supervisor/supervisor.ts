/**
 * @module supervisor
 * Keeps the sandbox workers alive and hands them requests. A worker that exits, passes its memory
 * ceiling or stops answering is killed and replaced; its in-flight requests fail with a tagged
 * error while the other workers keep serving. Guest egress arrives here from the workers and goes
 * out through the egress service with the request's context (allow-list, install token, count).
 */
import { ERROR_TAGS, PlatformError, type ErrorTag } from '@platform/sandbox-lib';
import type { Logger } from 'pino';
import type { RuntimeConfig } from '../config.ts';
import type { AppLog } from '../logs/app-log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { FromWorker, ManifestJob, Outcome, RunError, RunJob, RunReport } from '../protocol/messages.ts';
import type { GuestResponseInit } from '../shared/bridge.ts';
import type { Egress, EgressContext } from '../egress/service.ts';
import { EgressDenied } from '../egress/policy.ts';
import { pickWorker } from './placement.ts';
import { spawnWorker, type WorkerHandle } from './worker-handle.ts';

export type RunAnswer = { response: GuestResponseInit; report: Promise<RunReport> } | { error: PlatformError; report: Promise<RunReport> };
export type ManifestAnswer = { manifest: unknown; report: RunReport } | { error: PlatformError; report: RunReport };

interface Pending {
  job: RunJob | ManifestJob;
  egressCtx: EgressContext | null;
  meta: { appId: string; version: number | null; deliveryId: string | null; kind: string };
  answered: boolean;
  answer: (a: { response?: GuestResponseInit; error?: RunError }) => void;
  finish: (report: RunReport, manifestJson?: string, error?: RunError) => void;
  egress: Map<number, AbortController>;
  backstop: ReturnType<typeof setTimeout>;
}

interface Worker {
  index: number;
  handle: WorkerHandle;
  exited: Promise<void>;
  markExited: () => void;
  pending: Map<string, Pending>;
  killedFor: 'memory' | 'hung' | null;
  startedAt: number;
  inFlight: number;
}

export interface SupervisorDeps {
  config: RuntimeConfig;
  logger: Logger;
  metrics: Metrics;
  appLog: AppLog;
  egress: Egress;
  guestSource: string;
  now: () => number;
}

const BACKSTOP_GRACE_MS = 5_000;

function toPlatformError(e: RunError): PlatformError {
  const tag: ErrorTag = Object.hasOwn(ERROR_TAGS, e.tag) ? e.tag : 'PlatformApiInternalServerError';
  return new PlatformError(tag, e.message, { fields: e.fields ?? {} });
}

export function createSupervisor(deps: SupervisorDeps) {
  const { config, logger, metrics } = deps;
  const workers: Array<Worker | null> = Array.from({ length: config.workers }, () => null);
  let stopping = false;
  const timers: Array<ReturnType<typeof setInterval>> = [];

  const record = (meta: Pending['meta'], requestId: string, report: RunReport): void => {
    const labels = { app: meta.appId, kind: meta.kind };
    metrics.requestCpu.observe(labels, report.cpuMs / 1000);
    metrics.requests.inc({ ...labels, outcome: report.outcome });
    if (report.coldStartMs !== null) {
      metrics.coldStarts.inc({ app: meta.appId });
      metrics.coldStartSeconds.observe(report.coldStartMs / 1000);
    }
    const line = (at: number, level: string, message: string) => ({ at: new Date(at).toISOString(), appId: meta.appId, version: meta.version, requestId, deliveryId: meta.deliveryId, kind: meta.kind, level, message });
    const lines = report.logs.map((l) => line(l.at, l.level, l.message));
    if (report.droppedLogs > 0) lines.push(line(deps.now(), 'warn', `${report.droppedLogs} more log lines of this request were dropped (cap per request)`));
    if (lines.length > 0) deps.appLog.append(lines);
  };

  const settle = (w: Worker, id: string): Pending | undefined => {
    const p = w.pending.get(id);
    if (p === undefined) return undefined;
    w.pending.delete(id);
    w.inFlight = w.pending.size;
    clearTimeout(p.backstop);
    for (const ac of p.egress.values()) ac.abort();
    return p;
  };

  const onMessage = (w: Worker, msg: FromWorker): void => {
    switch (msg.t) {
      case 'response': {
        const p = w.pending.get(msg.id);
        if (p !== undefined && !p.answered) { p.answered = true; p.answer({ response: msg.response }); }
        return;
      }
      case 'result': {
        const p = settle(w, msg.id);
        if (p === undefined) return;
        if (!p.answered) { p.answered = true; p.answer({ response: msg.response, error: msg.error }); }
        p.finish(msg.report, msg.manifestJson, msg.error);
        return;
      }
      case 'egress': return startEgress(w, msg.id, msg.opId, msg.init);
      case 'egress-abort': w.pending.get(msg.id)?.egress.get(msg.opId)?.abort(); return;
      case 'stats':
        metrics.isolatesLive.set({ worker: String(w.index) }, msg.isolates);
        metrics.isolateHeap.set({ worker: String(w.index) }, msg.heapBytes);
        return;
      case 'fatal':
        logger.error({ worker: w.index, message: msg.message }, 'sandbox worker hit a catastrophic V8 error');
        return;
      case 'log':
        logger[msg.level]({ worker: w.index, err: msg.error }, msg.message);
        return;
      case 'ready': return;
    }
  };

  const startEgress = (w: Worker, id: string, opId: number, init: Parameters<Egress['fetch']>[1]): void => {
    const p = w.pending.get(id);
    if (p === undefined || p.egressCtx === null || p.egress.has(opId)) return;
    const ac = new AbortController();
    p.egress.set(opId, ac);
    deps.egress.fetch(p.egressCtx, init, ac.signal).then(
      (result) => { p.egress.delete(opId); w.handle.send({ t: 'egress-result', id, opId, ok: true, result }); },
      (err: unknown) => {
        p.egress.delete(opId);
        const message = err instanceof Error ? err.message : 'fetch failed';
        if (err instanceof EgressDenied) {
          deps.appLog.append([{ at: new Date(deps.now()).toISOString(), appId: p.meta.appId, version: p.meta.version, requestId: id, deliveryId: p.meta.deliveryId, kind: p.meta.kind, level: 'warn', message: `Outbound request blocked (${err.reason}): ${message}` }]);
        }
        w.handle.send({ t: 'egress-result', id, opId, ok: false, message: err instanceof EgressDenied ? `Egress denied: ${message}` : message });
      },
    );
  };

  const onExit = (w: Worker, code: number | null, signal: NodeJS.Signals | null): void => {
    const reason = w.killedFor ?? 'exit';
    if (workers[w.index] === w) workers[w.index] = null;
    w.markExited();
    if (!stopping) {
      metrics.workerRestarts.inc({ reason });
      logger.warn({ worker: w.index, pid: w.handle.pid, code, signal, reason, inFlight: w.pending.size }, 'sandbox worker ended; replacing it');
    }
    const outcome: Outcome = reason === 'memory' ? 'memory_limit' : 'crashed';
    const error: RunError = reason === 'memory'
      ? { tag: 'PlatformRuntimeMemoryLimitError', message: 'The sandbox worker running this request passed its memory ceiling and was replaced' }
      : { tag: 'PlatformRuntimeCrashedError', message: 'The sandbox worker running this request ended unexpectedly' };
    for (const id of [...w.pending.keys()]) {
      const p = settle(w, id);
      if (p === undefined) continue;
      if (!p.answered) { p.answered = true; p.answer({ error }); }
      p.finish({ outcome, cpuMs: 0, wallMs: 0, coldStartMs: null, logs: [{ level: 'limit', message: error.message, at: deps.now() }], droppedLogs: 0 }, undefined, error);
    }
    if (stopping) return;
    // A worker that dies right after starting is not restarted in a tight loop.
    const delay = deps.now() - w.startedAt < 2_000 ? 1_000 : 0;
    setTimeout(() => { if (!stopping) spawn(w.index); }, delay).unref();
  };

  const spawn = (index: number): Worker => {
    let markExited: () => void = () => {};
    const exited = new Promise<void>((r) => { markExited = r; });
    const w: Worker = { index, handle: null as unknown as WorkerHandle, exited, markExited, pending: new Map(), killedFor: null, startedAt: deps.now(), inFlight: 0 };
    w.handle = spawnWorker({ index, guestSource: deps.guestSource, limits: config.worker, onMessage: (m) => onMessage(w, m), onExit: (c, s) => onExit(w, c, s) });
    workers[index] = w;
    return w;
  };

  const watch = (): void => {
    for (const w of workers) {
      if (w === null || w.killedFor !== null) continue;
      const rss = w.handle.rssBytes();
      if (rss === null) continue;
      metrics.workerRss.set({ worker: String(w.index) }, rss);
      if (rss > config.workerMaxRssMb * 1024 * 1024) {
        logger.warn({ worker: w.index, rss }, 'sandbox worker passed its memory ceiling; killing it');
        w.killedFor = 'memory';
        w.handle.kill();
      }
    }
  };

  const dispatch = async (key: string, job: RunJob | ManifestJob, egressCtx: EgressContext | null, meta: Pending['meta'],
    onAnswer: Pending['answer'], onFinish: Pending['finish']): Promise<void> => {
    let w = pickWorker(key, workers.filter((x): x is Worker => x !== null && x.handle.isReady));
    if (w === null) {
      // Every worker is restarting: wait a little for the first one back.
      await Promise.race([new Promise((r) => setTimeout(r, 2_000)), Promise.any(workers.filter((x): x is Worker => x !== null).map((x) => x.handle.ready))]).catch(() => {});
      w = pickWorker(key, workers.filter((x): x is Worker => x !== null && x.handle.isReady));
    }
    if (w === null) {
      const error: RunError = { tag: 'PlatformApiServiceUnavailableError', message: 'No sandbox worker is available' };
      onAnswer({ error });
      return onFinish({ outcome: 'crashed', cpuMs: 0, wallMs: 0, coldStartMs: null, logs: [], droppedLogs: 0 }, undefined, error);
    }
    const worker = w;
    const backstop = setTimeout(() => {
      if (!worker.pending.has(job.id) || worker.killedFor !== null) return;
      logger.error({ worker: worker.index, requestId: job.id }, 'sandbox worker did not end a request after its deadline; killing it');
      worker.killedFor = 'hung';
      worker.handle.kill();
    }, job.deadlineMs + BACKSTOP_GRACE_MS);
    worker.pending.set(job.id, { job, egressCtx, meta, answered: false, answer: onAnswer, finish: onFinish, egress: new Map(), backstop });
    worker.inFlight = worker.pending.size;
    worker.handle.send('request' in job ? { t: 'run', job } : { t: 'manifest', job });
  };

  return {
    async start(): Promise<void> {
      for (let i = 0; i < config.workers; i++) spawn(i);
      await Promise.all(workers.map((w) => w?.handle.ready));
      timers.push(setInterval(watch, 500), setInterval(() => { for (const w of workers) w?.handle.send({ t: 'stats' }); }, 2_000));
      for (const t of timers) t.unref();
    },

    /** Runs one request; resolves with the guest's response or a tagged error, and the final report. */
    run(job: RunJob, egressCtx: EgressContext, meta: { version: number; deliveryId: string | null }): Promise<RunAnswer> {
      return new Promise((resolve) => {
        let reportDone: (r: RunReport) => void = () => {};
        const report = new Promise<RunReport>((r) => { reportDone = r; });
        const fullMeta = { appId: job.appId, version: meta.version, deliveryId: meta.deliveryId, kind: job.kind };
        void dispatch(job.version.key, job, egressCtx, fullMeta,
          (a) => resolve(a.response !== undefined ? { response: a.response, report } : { error: toPlatformError(a.error ?? { tag: 'PlatformRuntimeGuestError', message: 'The app did not answer' }), report }),
          (r) => { record(fullMeta, job.id, r); reportDone(r); });
      });
    },

    /** Evaluates a bundle in a fresh isolate and returns the manifest its code computes. */
    manifest(job: ManifestJob): Promise<ManifestAnswer> {
      return new Promise((resolve) => {
        void dispatch(job.version.key, job, null, { appId: '_manifest', version: null, deliveryId: null, kind: 'manifest' }, () => {}, (report, json, error) => {
          if (json === undefined) return resolve({ error: toPlatformError(error ?? { tag: 'PlatformAppBundleInvalidError', message: 'The manifest could not be read' }), report });
          try {
            resolve({ manifest: JSON.parse(json) as unknown, report });
          } catch {
            resolve({ error: new PlatformError('PlatformAppBundleInvalidError', 'The manifest is not valid JSON'), report });
          }
        });
      });
    },

    load() {
      return workers.map((w, index) => (w === null
        ? { index, ready: false, pid: null, inFlight: 0, rssBytes: null }
        : { index, ready: w.handle.isReady, pid: w.handle.pid ?? null, inFlight: w.pending.size, rssBytes: w.handle.rssBytes() }));
    },

    async stop(): Promise<void> {
      stopping = true;
      for (const t of timers) clearInterval(t);
      const live = workers.filter((w): w is Worker => w !== null);
      for (const w of live) w.handle.kill();
      await Promise.all(live.map((w) => w.exited));
    },
  };
}

export type Supervisor = ReturnType<typeof createSupervisor>;
