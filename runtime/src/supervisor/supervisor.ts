/**
 * @module supervisor
 * Hands requests to the sandbox workers and keeps them alive. The scheduler picks the worker
 * (scheduler.ts), the dispatcher moves requests (dispatcher.ts); a version in quarantine runs on
 * the quarantine worker; a worker that dies takes only the requests that had entered guest code on
 * it (deaths.ts). A worker past its memory ceiling, or one that holds a request far past its
 * deadline, is killed and replaced. Guest egress arrives here from the workers (egress-relay.ts),
 * since only the supervisor holds install tokens.
 */
import { PlatformError } from '@platform/sdk';
import type { Logger } from 'pino';
import type { RuntimeConfig } from '../config/config.ts';
import type { Egress, EgressContext } from '../egress/service.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { ManifestJob, RunJob, RunReport, VersionSpec } from '../protocol/messages.ts';
import { handleDeath } from './deaths.ts';
import { createDispatcher } from './dispatcher.ts';
import { type Pending, type PendingMeta, type RunResult } from './pending.ts';
import { createProfileGate } from './profiles.ts';
import { createQuarantine } from './quarantine.ts';
import { createReports, type LogSink } from './reports.ts';
import type { UsageMeter } from '../usage/meter.ts';
import { createScheduler } from './scheduler.ts';
import { sweepWorkers } from './sweep.ts';
import { workerMessages } from './worker-messages.ts';
import { createHandoff, localCulprit } from './handoff.ts';
import type { FrameBody } from '../protocol/channel.ts';
import type { FromWorker } from '../protocol/messages.ts';
import type { WorkerRef } from './workers.ts';
import { createWorkerSet } from './workers.ts';

export type { RunResult } from './pending.ts';
export type ManifestResult = { manifest: unknown; report: RunReport } | { error: PlatformError; report: RunReport };

export interface SupervisorDeps {
  config: RuntimeConfig;
  logger: Logger;
  metrics: Metrics;
  /** Where the app log's lines go (the node's in-memory log and the shipper). */
  logSink: LogSink;
  egress: Egress;
  guestSource: string;
  /** The sandbox workers' entry module (worker-entry.ts). */
  workerEntry: string;
  now: () => number;
  /** The usage counters (usage/meter.ts); null: not metered (no control plane, or the bench's run without). */
  usage?: UsageMeter | null;
}

export interface RunSubmission {
  spec: VersionSpec;
  job: Omit<RunJob, 'seq'>;
  body: Buffer | string | null;
  egress: EgressContext;
  meta: PendingMeta;
}

export function createSupervisor(deps: SupervisorDeps) {
  const { config, logger, metrics, now } = deps;
  const reports = createReports({ metrics, sink: deps.logSink, now, usage: deps.usage ?? null });
  const quarantine = createQuarantine(now);
  const profiles = createProfileGate(now);
  const scheduler = createScheduler();
  const timers: Array<ReturnType<typeof setInterval>> = [];
  let stopping = false;
  // The dispatcher asks for the workers only once requests flow (after `start`).
  const dispatcher = createDispatcher({ scheduler, quarantine, workers: () => workers });

  const handoff = createHandoff({ workers: () => workers, quarantine, scheduler, reports, metrics, logger, now });
  const relay = workerMessages({ dispatcher, egress: deps.egress, reports, metrics, logger, local: handoff.local });
  const onMessage = (w: WorkerRef, msg: FromWorker, body: FrameBody): void => {
    if (msg.t === 'ready') handoff.ready(w);
    if (!handoff.message(w, msg, body)) relay(w, msg, body);
  };
  const deathDeps = { dispatcher, scheduler, quarantine, reports, metrics, logger, now, stopping: () => stopping, startQuarantine: () => workers.quarantine(), localCulprit: (w: WorkerRef) => localCulprit(handoff, w) };

  const workers = createWorkerSet({
    count: config.workers, spares: config.spareWorkers, entry: deps.workerEntry, limits: config.worker, guestSource: deps.guestSource, logger, now, onMessage,
    ipc: config.handoff === 'ingress',
    onDeath: (w, code, signal) => {
      const culprit = handleDeath(deathDeps, w, code, signal);
      handoff.dead(w, stopping);
      // Workers that hold a ticket of the culprit's app pass its requests from now on.
      if (culprit !== null) handoff.revoke(culprit.meta.appId);
    },
    onAvailable: () => dispatcher.workerReady(),
  });

  const sweep = (): void => sweepWorkers({ dispatcher, workers, quarantine, metrics, logger, workerMaxRssMb: config.workerMaxRssMb }, now());

  const pending = (job: RunJob | ManifestJob, type: Pending['type'], spec: VersionSpec, body: Buffer | string | null, egress: EgressContext | null, meta: PendingMeta,
    answerTo: (r: RunResult) => void, finish: Pending['finish']): Pending => ({
    job, type, body, spec, egress, meta, deadlineAt: now() + job.deadlineMs, costMs: 0, state: 'queued', attempts: 0, egressOps: null, profile: null, answer: answerTo, finish,
  });

  return {
    async start(): Promise<void> {
      await workers.start();
      timers.push(setInterval(sweep, 500), setInterval(() => { for (const w of workers.all()) w.handle.send({ t: 'stats' }); }, 2_000));
      for (const t of timers) t.unref();
    },

    /** Runs one request; resolves with the guest's response or a tagged error (at the first of the two). */
    run(input: RunSubmission): Promise<RunResult> {
      return new Promise((resolve) => {
        (input.job as RunJob).seq = 0;
        if (profiles.take(input.spec.key)) (input.job as RunJob).profile = true;
        let httpStatus: number | null = null;
        const answer = (r: RunResult): void => {
          httpStatus = r.kind === 'response' ? r.head.status : r.error.status;
          resolve(r);
        };
        const p = pending(input.job as RunJob, 'run', input.spec, input.body, input.egress, input.meta, answer,
          (report) => {
            if (report.outcome === 'cpu_limit' && p.profile === null) profiles.stopped(input.spec.key);
            reports.record(p, report, { httpStatus, outbound: input.egress.sent });
          });
        dispatcher.submit(p);
      });
    },

    /** Evaluates a bundle in a fresh isolate and returns the manifest its code computes. */
    manifest(input: { spec: VersionSpec; job: Omit<ManifestJob, 'seq'> }): Promise<ManifestResult> {
      return new Promise((resolve) => {
        dispatcher.submit(pending({ ...input.job, seq: 0 }, 'manifest', input.spec, null, null, { appId: '_manifest', version: null, deliveryId: null, installId: null, kind: 'manifest', label: 'manifest' }, () => {},
          (report, error, body) => {
            if (error !== null) return resolve({ error, report });
            try {
              resolve({ manifest: JSON.parse(body?.toString('utf8') ?? '') as unknown, report });
            } catch {
              resolve({ error: new PlatformError('PlatformAppBundleInvalidError', 'The manifest is not valid JSON'), report });
            }
          }));
      });
    },

    /** Hand-off (RUNTIME_HANDOFF): workers take hosted-ingress connections from now on. */
    enableHandoff: handoff.enable,
    /** Hands a hosted-ingress connection to a worker; false when none took it (serve it here). */
    handOff: handoff.handOff,

    load() {
      return workers.slots().map((w, index) => (w === null
        ? { index, ready: false, pid: null, inFlight: 0, rssBytes: null }
        : { index, ready: w.handle.isReady, pid: w.handle.pid ?? null, inFlight: w.jobs.size, rssBytes: w.handle.rssBytes() }));
    },

    /** Every worker process by role (ordinary, quarantine, spare). */
    processes() {
      return workers.all().map((w) => ({ role: w.role, name: w.name, pid: w.handle.pid ?? null, ready: w.handle.isReady }));
    },

    /** Versions in quarantine, and requests waiting for their app's turn or a worker. */
    status() {
      return { quarantined: quarantine.count(), waiting: dispatcher.waiting() };
    },

    async stop(): Promise<void> {
      stopping = true;
      for (const t of timers) clearInterval(t);
      await workers.stop();
      dispatcher.stop();
    },
  };
}

export type Supervisor = ReturnType<typeof createSupervisor>;
