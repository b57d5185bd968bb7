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
 * - reports: a local request's end (`local-ends`, batched per turn) goes to the metrics and the app log, and feeds the
 *   scheduler's average: an app that turns heavy is revoked on every worker.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { ResolvedApp } from '../protocol/run-input.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { FrameBody } from '../protocol/channel.ts';
import type { FromWorker, HandoffSetup, LocalEnd, RunError, RunJob, VersionSpec } from '../protocol/messages.ts';
import type { RunInput } from '../protocol/run-input.ts';
import { CONN, MAX_CONN_SLOTS } from '../protocol/journal.ts';
import { sendVersion } from './dispatcher.ts';
import { abortEgress } from './egress-relay.ts';
import { CRASHED, culpritError } from './crash.ts';
import { toPlatformError, type Pending, type RunResult } from './pending.ts';
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

type HandoffMessage = Extract<FromWorker, { t: 'app' | 'pass' | 'local' | 'local-ends' | 'conn-end' | 'held' | 'unheld' }>;

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

/** One worker's handed connections: this process's copy of each, by journal slot. */
interface HandedConnections {
  sockets: Map<number, Socket>;
  /** The bytes of requests read there and not entered, by slot, then request number (the `held` frames). */
  held: Map<number, Map<number, Buffer>>;
  free: number[];
  next: number;
}

const EMPTY = Buffer.alloc(0);

/** Hands `socket` to the worker of `ready` holding the fewest connections; false when none took it. */
function handTo(ready: readonly WorkerRef[], connsOf: (w: WorkerRef) => HandedConnections, socket: Socket, head: Buffer): boolean {
  let best: WorkerRef | null = null;
  for (const w of ready) if (best === null || connsOf(w).sockets.size < connsOf(best).sockets.size) best = w;
  if (best === null) return false;
  const c = connsOf(best);
  const slot = c.free.pop() ?? (c.next < MAX_CONN_SLOTS ? c.next++ : -1);
  if (slot === -1 || !best.handle.handOff(socket, head, slot)) {
    if (slot !== -1) c.free.push(slot);
    return false;
  }
  c.sockets.set(slot, socket);
  // This copy only ever writes (a crash answer) or closes: a client gone by then is no error here.
  if (socket.listenerCount('error') === 0) socket.on('error', () => socket.destroy());
  socket.once('close', () => { if (c.sockets.get(slot) === socket) { c.sockets.delete(slot); c.free.push(slot); } });
  return true;
}

/** What a dead worker's connections need: its journal's states, the live workers, the culprit's connection and answer. */
interface Rehome {
  states: Buffer | null;
  live: readonly WorkerRef[];
  culprit: { slot: number; error: RunError } | null;
  /** Counts requests that run again (the default path's `runtime_requests_retried_total`). */
  retried: { inc(n: number): void };
}

/**
 * A dead worker's connections (protocol/journal.ts, CONN): each request that entered is answered
 * with the tagged error (the culprit's names the cause, as on the default path); then the requests
 * read and not entered run again on a live worker, their bytes first (the client keeps its
 * connection and sees only answers); an idle connection moves on as it is. A connection with a
 * request in mid-read is closed (after the answers of the entered ones), as is one that no live
 * worker takes: an answer on it would be taken for the answer to the client's next request.
 * Killed from outside (`states` null), the journal may be behind: every connection gets the error.
 */
function rehome(c: HandedConnections, r: Rehome, connsOf: (w: WorkerRef) => HandedConnections): void {
  for (const [slot, socket] of c.sockets) {
    const state = r.states?.[slot];
    if (state === undefined) {
      closeWith(socket, httpErrors([CRASHED], true));
      continue;
    }
    const held = [...(c.held.get(slot) ?? new Map<number, Buffer>())].sort((a, b) => a[0] - b[0]).map(([, bytes]) => bytes);
    const entered = state & CONN.ENTERED_MAX;
    const close = (state & CONN.CLOSE) !== 0;
    const errors = Array.from({ length: entered }, (_, i) => (i === 0 && r.culprit?.slot === slot ? r.culprit.error : CRASHED));
    const moveOn = (): void => { if (!handTo(r.live, connsOf, socket, held.length === 0 ? EMPTY : Buffer.concat(held))) socket.destroy(); };
    if (close || (entered > 0 && held.length === 0)) {
      if (entered === 0) socket.destroy();
      else closeWith(socket, httpErrors(errors, true));
    } else if (entered === 0) {
      if (held.length > 0) r.retried.inc(held.length);
      moveOn();
    } else {
      // The answers are out before another worker can write on the connection.
      r.retried.inc(held.length);
      socket.write(httpErrors(errors, false), moveOn);
    }
  }
}

/**
 * Writes the answers and closes this process's copy once they are out: it reads nothing, so it
 * would never see the client's end, and a half-closed copy would hold the node's server open.
 */
function closeWith(socket: Socket, answers: string): void {
  socket.end(answers, () => socket.destroy());
}

/** Raw HTTP/1.1 answers with the tagged errors, the last one closing the connection when `close`. */
function httpErrors(errors: readonly RunError[], close: boolean): string {
  return errors.map((e, i) => {
    const error = toPlatformError(e);
    const body = JSON.stringify(error.toBody());
    const closing = close && i === errors.length - 1 ? 'connection: close\r\n' : '';
    return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${closing}\r\n${body}`;
  }).join('');
}

/**
 * A worker's question for a slug: the app and its ticket. The worker may run it itself unless its
 * version is quarantined or its app heavy (then the supervisor places each request).
 */
async function answerApp(deps: { host: HandoffHost; versions: Map<number, LocalVersion>; quarantine: Quarantine; scheduler: Scheduler; logger: Logger }, w: WorkerRef, id: number, slug: string): Promise<void> {
  const found = await deps.host.lookup(slug).catch((err: unknown) => {
    deps.logger.warn({ err, slug }, 'hand-off: could not resolve an app for a worker');
    return null;
  });
  if (found === null) return w.handle.send({ t: 'app', id, ticket: null });
  const { app, spec } = found;
  const local = !deps.quarantine.holds(spec.key) && !deps.scheduler.isHeavy(app.appId) && w.role === 'normal';
  if (local) {
    if (deps.versions.size >= MAX_VERSIONS) deps.versions.delete(deps.versions.keys().next().value as number);
    deps.versions.set(spec.vid, { spec, app, egress: found.egress });
    sendVersion(w, spec);
  }
  w.handle.send({ t: 'app', id, ticket: { app, vid: local ? spec.vid : null } });
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

/** Keeps a waiting request's bytes (a `held` frame) until it enters, is answered, or its worker dies. */
function hold(c: HandedConnections, msg: Extract<HandoffMessage, { t: 'held' }>, body: FrameBody): true {
  if (body === null || !c.sockets.has(msg.slot)) return true;
  let m = c.held.get(msg.slot);
  if (m === undefined) c.held.set(msg.slot, m = new Map());
  m.set(msg.n, body);
  return true;
}

/** The connection of the request a dead worker was running (its journal's slot) and the error that names why. */
function culpritOf(w: WorkerRef): Rehome['culprit'] {
  const entry = w.handle.journal();
  if (entry.slot < 0 || entry.current >= 0) return null;
  return { slot: entry.slot, error: culpritError(w.killedFor ?? w.handle.cause ?? 'crash', null).error };
}

export function createHandoff(deps: { workers: () => WorkerSet; quarantine: Quarantine; scheduler: Scheduler; reports: Reports; metrics: Metrics; logger: Logger; now: () => number }) {
  let host: HandoffHost | null = null;
  const localCount = deps.metrics.handoffRequests.labels('local');
  const passedCount = deps.metrics.handoffRequests.labels('passed');
  let setup: HandoffSetup | null = null;
  const conns = new WeakMap<WorkerRef, HandedConnections>();
  const connsOf = (w: WorkerRef): HandedConnections => {
    let c = conns.get(w);
    if (c === undefined) conns.set(w, c = { sockets: new Map(), held: new Map(), free: [], next: 0 });
    return c;
  };
  const versions = new Map<number, LocalVersion>();
  /** Local requests the supervisor knows of (they called out): by worker, then request id. */
  const locals = new WeakMap<WorkerRef, Map<string, Pending>>();

  // Request ids a worker makes are unique on the node: its name and start time in them.
  const setupOf = (w: WorkerRef): HandoffSetup => ({ ...setup!, idPrefix: `${setup!.idPrefix}${w.name}.${w.startedAt.toString(36)}.` });

  const revoke = (appId: string): void => {
    for (const w of deps.workers().all()) w.handle.send({ t: 'revoke', appId });
  };

  const localEnd = (w: WorkerRef, msg: LocalEnd): void => {
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
    /** The app's requests are placed by the supervisor from now on (quarantine, heavy). */
    revoke,
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
      return handTo(deps.workers().ready(), connsOf, socket, head);
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
        case 'app': void answerApp({ ...deps, host: host!, versions }, w, msg.id, msg.slug); return true;
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
        case 'local-ends':
          for (const end of msg.ends) localEnd(w, end);
          return true;
        case 'conn-end': {
          const c = connsOf(w);
          c.sockets.get(msg.slot)?.destroy();
          c.held.delete(msg.slot);
          if (c.sockets.delete(msg.slot)) c.free.push(msg.slot);
          return true;
        }
        case 'held': return hold(connsOf(w), msg, body);
        case 'unheld':
          connsOf(w).held.get(msg.slot)?.delete(msg.n);
          return true;
        default: return false;
      }
    },
    /**
     * A worker died: its local requests' outbound calls stop; each of its connections with nothing
     * in progress moves to another worker (what the client sent since is still in the kernel), and
     * one with a request read or running is answered with the tagged error and closed.
     */
    dead(w: WorkerRef, stopping: boolean): void {
      for (const p of locals.get(w)?.values() ?? []) abortEgress(p);
      locals.delete(w);
      const c = conns.get(w);
      conns.delete(w);
      // Killed from outside (memory, hung), it may have died between entries, where its journal can
      // be behind: none of its connections is taken for idle then.
      const states = w.killedFor === null ? w.handle.connStates() : null;
      const live = stopping ? [] : deps.workers().ready().filter((o) => o !== w);
      if (c !== undefined) rehome(c, { states, live, culprit: culpritOf(w), retried: deps.metrics.retriedRequests }, connsOf);
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
