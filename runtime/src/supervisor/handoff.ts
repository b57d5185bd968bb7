/**
 * @module supervisor/handoff
 * The supervisor's side of connection hand-off (RUNTIME_HANDOFF=ingress; docs/decisions/runtime.md,
 * Runtime v3). A hosted-ingress connection is handed once to the ordinary worker holding the fewest;
 * the worker parses its requests and runs a light app's requests itself, so no request crosses
 * supervisor → worker → supervisor. What stays here, off the hot path:
 * - the app directory and the bundle store: a worker asks for a slug's app (`app`) and gets a
 *   ticket: the version spec's id (the spec sent first), or none when the request must be placed
 *   here: its version is quarantined or its app is heavy, so admission and the quarantine worker
 *   apply (`pass`: this process runs it as any request and answers the worker);
 * - egress: a local request's first outbound call registers it (`local`), with the same egress
 *   context as any request (the install token never reaches a worker; routes carry none anyway);
 * - reports: a local request's end (`local-end`) goes to the metrics and the app log, and feeds the
 *   scheduler's average: an app that turns heavy is revoked on every worker.
 */
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { ResolvedApp } from '../ingress/directory.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { FrameBody } from '../protocol/channel.ts';
import type { FromWorker, HandoffSetup, RunJob, VersionSpec } from '../protocol/messages.ts';
import type { RunInput } from '../runs/service.ts';
import { sendVersion } from './dispatcher.ts';
import { abortEgress } from './egress-relay.ts';
import type { Pending, RunResult } from './pending.ts';
import type { Quarantine } from './quarantine.ts';
import type { Reports } from './reports.ts';
import type { Scheduler } from './scheduler.ts';
import type { WorkerRef, WorkerSet } from './workers.ts';

/** What the node gives the supervisor to answer its workers' hand-off questions. */
export interface HandoffHost {
  /** The app a slug names and its version spec (its bundle on disk), or null. */
  lookup(slug: string): Promise<{ app: ResolvedApp; spec: VersionSpec; egress: { egressHosts: readonly string[]; platformOrigin: string | null } } | null>;
  /** Runs a request a worker passed (as hosted ingress would). */
  pass(input: RunInput, requestId: string): Promise<RunResult>;
}

interface LocalVersion {
  spec: VersionSpec;
  app: ResolvedApp;
  egress: { egressHosts: readonly string[]; platformOrigin: string | null };
}

type HandoffMessage = Extract<FromWorker, { t: 'app' | 'pass' | 'local' | 'local-end' | 'conn-end' }>;

/** Versions a local request may name; older ones are looked up again by the worker's next ticket. */
const MAX_VERSIONS = 10_000;

/** A local request as the supervisor's egress relay and reports take it (it was never placed here). */
function localPending(id: string, v: LocalVersion, deadlineAt: number): Pending {
  return {
    job: { seq: 0, id, vid: v.spec.vid } as RunJob, type: 'run', body: null, spec: v.spec,
    egress: { appId: v.app.appId, egressHosts: v.egress.egressHosts, platformOrigin: v.egress.platformOrigin, installToken: null, deadlineAt, sent: 0 },
    meta: { appId: v.app.appId, version: v.app.version, deliveryId: null, installId: null, kind: 'route', label: '' },
    deadlineAt, costMs: 0, state: 'dispatched', attempts: 1, egressOps: null, profile: null, answer: () => {}, finish: () => {},
  };
}

/** Runs a request a worker passed and sends it the answer. */
function answerPass(host: HandoffHost, logger: Logger, w: WorkerRef, msg: Extract<HandoffMessage, { t: 'pass' }>, body: FrameBody): void {
  const input: RunInput = { ...msg.input, request: { ...msg.input.request, body } };
  host.pass(input, msg.id).then((r) => {
    if (r.kind === 'response') w.handle.send({ t: 'passed', id: msg.id, head: r.head }, r.body);
    else w.handle.send({ t: 'passed', id: msg.id, error: { tag: r.error.tag, message: r.error.message, fields: r.error.fields } });
  }, (err: unknown) => {
    logger.error({ err }, 'hand-off: a passed request failed');
    w.handle.send({ t: 'passed', id: msg.id, error: { tag: 'PlatformApiInternalServerError', message: 'Internal error' } });
  });
}

export function createHandoff(deps: { workers: () => WorkerSet; quarantine: Quarantine; scheduler: Scheduler; reports: Reports; metrics: Metrics; logger: Logger; now: () => number }) {
  let host: HandoffHost | null = null;
  const localCount = deps.metrics.handoffRequests.labels('local');
  const passedCount = deps.metrics.handoffRequests.labels('passed');
  let setup: HandoffSetup | null = null;
  const conns = new WeakMap<WorkerRef, number>();
  const versions = new Map<number, LocalVersion>();
  /** Local requests the supervisor knows of (they called out): by worker, then request id. */
  const locals = new WeakMap<WorkerRef, Map<string, Pending>>();

  // Request ids a worker makes are unique on the node: its name and start time in them.
  const setupOf = (w: WorkerRef): HandoffSetup => ({ ...setup!, idPrefix: `${setup!.idPrefix}${w.name}.${w.startedAt.toString(36)}.` });

  const revoke = (appId: string): void => {
    for (const w of deps.workers().all()) w.handle.send({ t: 'revoke', appId });
  };

  const answerApp = async (w: WorkerRef, id: number, slug: string): Promise<void> => {
    const found = await host!.lookup(slug).catch((err: unknown) => {
      deps.logger.warn({ err, slug }, 'hand-off: could not resolve an app for a worker');
      return null;
    });
    if (found === null) return w.handle.send({ t: 'app', id, ticket: null });
    const { app, spec } = found;
    const local = !deps.quarantine.holds(spec.key) && !deps.scheduler.isHeavy(app.appId) && w.role === 'normal';
    if (local) {
      if (versions.size >= MAX_VERSIONS) versions.delete(versions.keys().next().value as number);
      versions.set(spec.vid, { spec, app, egress: found.egress });
      sendVersion(w, spec);
    }
    w.handle.send({ t: 'app', id, ticket: { app, vid: local ? spec.vid : null } });
  };

  const localEnd = (w: WorkerRef, msg: Extract<HandoffMessage, { t: 'local-end' }>): void => {
    const known = locals.get(w)?.get(msg.id);
    const v = versions.get(msg.vid);
    if (known !== undefined) {
      locals.get(w)!.delete(msg.id);
      abortEgress(known);
    }
    if (v === undefined) return;
    const p = known ?? localPending(msg.id, v, deps.now());
    p.meta.label = msg.label;
    p.meta.kind = msg.kind;
    deps.reports.record(p, msg.report, { httpStatus: msg.httpStatus, outbound: p.egress?.sent ?? 0 });
    localCount.inc();
    if (deps.scheduler.observe(v.app.appId, msg.report.cpuMs)) revoke(v.app.appId);
  };

  return {
    /** Workers may take connections from now on; `setup` says how they serve them. */
    enable(h: HandoffHost, s: HandoffSetup): void {
      host = h;
      setup = s;
      for (const w of deps.workers().all()) w.handle.send({ t: 'handoff', setup: setupOf(w) });
    },
    get enabled(): boolean {
      return host !== null;
    },
    /** A worker became ready: it learns how to serve handed connections. */
    ready(w: WorkerRef): void {
      if (setup !== null) w.handle.send({ t: 'handoff', setup: setupOf(w) });
    },
    /** Hands `socket` to the ready ordinary worker holding the fewest; false when none took it. */
    handOff(socket: Socket, head: Buffer): boolean {
      let best: WorkerRef | null = null;
      for (const w of deps.workers().ready()) if (best === null || (conns.get(w) ?? 0) < (conns.get(best) ?? 0)) best = w;
      if (best === null || !best.handle.handOff(socket, head)) return false;
      const w = best;
      conns.set(w, (conns.get(w) ?? 0) + 1);
      return true;
    },
    /** The culprit of a worker's death when it was running a local request (journal `current` = −vid). */
    version(vid: number): LocalVersion | null {
      return versions.get(vid) ?? null;
    },
    /** A local request's pending, made for a note in its app's log. */
    pendingOf(v: LocalVersion, id: string): Pending {
      return localPending(id, v, deps.now());
    },
    /** The local request a worker's `egress` names, if it registered. */
    local(w: WorkerRef, id: string): Pending | undefined {
      return locals.get(w)?.get(id);
    },
    /** Handles a hand-off message; false for any other. */
    message(w: WorkerRef, msg: FromWorker, body: FrameBody): boolean {
      switch (msg.t) {
        case 'app': void answerApp(w, msg.id, msg.slug); return true;
        case 'pass':
          passedCount.inc();
          answerPass(host!, deps.logger, w, msg, body);
          return true;
        case 'local': {
          const v = versions.get(msg.vid);
          if (v === undefined) return true;
          let m = locals.get(w);
          if (m === undefined) locals.set(w, m = new Map());
          m.set(msg.id, localPending(msg.id, v, msg.deadlineAt));
          return true;
        }
        case 'local-end': localEnd(w, msg); return true;
        case 'conn-end': conns.set(w, Math.max(0, (conns.get(w) ?? 1) - 1)); return true;
        default: return false;
      }
    },
    /** A worker died: its local requests' outbound calls stop. */
    dead(w: WorkerRef): void {
      for (const p of locals.get(w)?.values() ?? []) abortEgress(p);
      locals.delete(w);
    },
  };
}

export type Handoff = ReturnType<typeof createHandoff>;

/**
 * The local request a dead worker was running, when its journal names one: local requests write
 * −vid as the entry they run (they have no job seq), so the culprit's version is known.
 */
export function localCulprit(handoff: Handoff, w: WorkerRef): Pending | null {
  const current = w.handle.journal().current;
  if (current >= 0 || w.killedFor === 'memory') return null;
  const v = handoff.version(-current);
  return v === null ? null : handoff.pendingOf(v, 'local');
}
