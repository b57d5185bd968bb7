/**
 * @module supervisor/workers
 * The sandbox worker processes of a node: `count` ordinary workers, one quarantine worker while a
 * quarantined version needs it, and `spares` started workers kept idle. A worker takes
 * 200–300 ms to start (more on busy cores), so when a worker dies or a version goes to quarantine,
 * the spare takes the place at once and a new spare starts behind it: the recovery path waits for no
 * process start. A dead worker's slot is served first, the quarantine worker second. A worker that ends is replaced (not in a tight loop: one that dies within two
 * seconds of starting waits a second). Each worker as the scheduler sees it: the requests it holds,
 * their expected CPU, and which version specs it has.
 */
import type { Logger } from 'pino';
import type { WorkerLimits } from '../config.ts';
import type { FrameBody } from '../protocol/channel.ts';
import type { FromWorker } from '../protocol/messages.ts';
import type { Pending } from './pending.ts';
import type { Lane } from './scheduler.ts';
import { spawnWorker, type WorkerHandle } from './worker-handle.ts';
import type { KillReason } from './crash.ts';

/** Version specs a worker keeps (the worker evicts in the same order: sandbox/worker-main.ts). */
export const WORKER_MAX_VERSIONS = 4_096;
const YOUNG_MS = 2_000;

export const QUARANTINE_INDEX = -1;
const SPARE_INDEX = -2;

export type WorkerRole = 'normal' | 'quarantine' | 'spare';

export interface WorkerRef extends Lane {
  /** Its slot among the ordinary workers (placement hashes on it); negative for the others. */
  index: number;
  name: string;
  role: WorkerRole;
  readonly handle: WorkerHandle;
  readonly jobs: Map<string, Pending>;
  /** Specs sent to it, in the order sent. */
  readonly versions: Set<number>;
  seq: number;
  killedFor: KillReason;
  readonly startedAt: number;
  readonly exited: Promise<void>;
}

export interface WorkerSetDeps {
  count: number;
  /** Idle started workers kept to replace a dead one or become the quarantine worker. */
  spares: number;
  entry: string;
  limits: WorkerLimits;
  guestSource: string;
  logger: Logger;
  now: () => number;
  onMessage: (worker: WorkerRef, msg: FromWorker, body: FrameBody) => void;
  onDeath: (worker: WorkerRef, code: number | null, signal: NodeJS.Signals | null) => void;
  /** An ordinary worker can take requests (it became ready, or a ready spare took a slot). */
  onAvailable: (worker: WorkerRef) => void;
}

const nameOf = (index: number): string => (index === QUARANTINE_INDEX ? 'quarantine' : index === SPARE_INDEX ? 'spare' : String(index));

export function createWorkerSet(deps: WorkerSetDeps) {
  const normal: Array<WorkerRef | null> = Array.from({ length: deps.count }, () => null);
  let quarantine: WorkerRef | null = null;
  const spares: WorkerRef[] = [];
  let stopping = false;

  const place = (ref: WorkerRef, index: number): void => {
    ref.index = index;
    ref.name = nameOf(index);
    ref.role = index === QUARANTINE_INDEX ? 'quarantine' : index === SPARE_INDEX ? 'spare' : 'normal';
    if (ref.role === 'quarantine') quarantine = ref;
    else if (ref.role === 'spare') spares.push(ref);
    else normal[index] = ref;
  };

  /** Takes a spare: a ready one, else one still starting (it is nearer ready than a new process). */
  const takeSpare = (): WorkerRef | null => {
    const live = spares.filter((s) => s.killedFor === null);
    const s = live.find((w) => w.handle.isReady) ?? live[0];
    if (s === undefined) return null;
    spares.splice(spares.indexOf(s), 1);
    return s;
  };

  const starting = (): boolean => [...normal, quarantine, ...spares].some((w) => w !== null && !w.handle.isReady && w.killedFor === null);

  /**
   * Starts a spare when one is missing, one process start at a time: two starting at once on busy
   * cores each take about twice as long (measured: 560–640 ms each instead of ~300 ms), and the
   * one a quarantined version or a dead worker's slot waits for is the first.
   */
  const replenish = (): void => {
    if (stopping || spares.length >= deps.spares || starting()) return;
    spawn(SPARE_INDEX);
  };

  /** Fills an empty ordinary slot: with a spare (ready, else starting), else with a new worker. */
  const fill = (index: number, delayMs: number): void => {
    const s = takeSpare();
    if (s !== null) {
      place(s, index);
      if (s.handle.isReady) deps.onAvailable(s);
      replenish();
      return;
    }
    setTimeout(() => { if (!stopping && normal[index] === null) spawn(index); }, delayMs).unref();
  };

  const vacate = (ref: WorkerRef): boolean => {
    if (ref.role === 'quarantine' && quarantine === ref) quarantine = null;
    else if (ref.role === 'spare' && spares.includes(ref)) spares.splice(spares.indexOf(ref), 1);
    else if (ref.role === 'normal' && normal[ref.index] === ref) normal[ref.index] = null;
    else return false;
    return true;
  };

  function spawn(index: number): WorkerRef {
    let markExited: () => void = () => {};
    const exited = new Promise<void>((resolve) => { markExited = resolve; });
    const ref: WorkerRef = {
      index, name: nameOf(index), role: 'normal', jobs: new Map(), versions: new Set(), seq: 0, queuedMs: 0, killedFor: null,
      startedAt: deps.now(), exited, handle: null as unknown as WorkerHandle,
    };
    place(ref, index);
    (ref as { handle: WorkerHandle }).handle = spawnWorker({
      name: ref.name,
      entry: deps.entry,
      guestSource: deps.guestSource,
      limits: deps.limits,
      onMessage: (msg, body) => {
        deps.onMessage(ref, msg, body);
        if (msg.t !== 'ready') return;
        deps.logger.info({ worker: ref.name, pid: ref.handle.pid, startMs: deps.now() - ref.startedAt }, 'sandbox worker ready');
        if (ref.role === 'normal') deps.onAvailable(ref);
        replenish();
      },
      onStderr: (line) => deps.logger.warn({ worker: ref.name, pid: ref.handle.pid }, line),
      onExit: (code, signal) => {
        const role = ref.role;
        const held = vacate(ref);
        // The slot is filled before the death is judged: the requests that run again find it, and
        // other apps get their capacity back before the culprit gets a quarantine worker.
        if (!stopping && held && role === 'normal') fill(ref.index, deps.now() - ref.startedAt < YOUNG_MS ? 1_000 : 0);
        markExited();
        deps.onDeath(ref, code, signal);
        // The quarantine worker comes back when a quarantined version next needs it. A spare that
        // died young is not replaced in a tight loop.
        if (!stopping && held && role === 'spare') setTimeout(replenish, deps.now() - ref.startedAt < YOUNG_MS ? 1_000 : 0).unref();
      },
    });
    return ref;
  }

  return {
    async start(): Promise<void> {
      for (let i = 0; i < deps.count; i++) spawn(i);
      await Promise.all(normal.map((w) => w?.handle.ready));
      replenish();
    },
    /** Ordinary workers ready to take requests. */
    ready(): WorkerRef[] {
      const out: WorkerRef[] = [];
      for (const w of normal) if (w !== null && w.handle.isReady && w.killedFor === null) out.push(w);
      return out;
    },
    /**
     * The quarantine worker: the running one, else a spare, else a new one (messages to one still
     * starting wait in its pipe until it is ready).
     */
    quarantine(): WorkerRef {
      if (quarantine !== null) return quarantine;
      const s = takeSpare();
      if (s === null) return spawn(QUARANTINE_INDEX);
      place(s, QUARANTINE_INDEX);
      replenish();
      return s;
    },
    all(): WorkerRef[] {
      return [...normal, quarantine, ...spares].filter((w): w is WorkerRef => w !== null);
    },
    kill(worker: WorkerRef, reason: Exclude<KillReason, null>): void {
      if (worker.killedFor !== null) return;
      worker.killedFor = reason;
      worker.handle.kill();
    },
    async stop(): Promise<void> {
      stopping = true;
      const live = [...normal, quarantine, ...spares].filter((w): w is WorkerRef => w !== null);
      for (const w of live) w.handle.kill();
      await Promise.all(live.map((w) => w.exited));
    },
    slots(): Array<WorkerRef | null> {
      return [...normal];
    },
  };
}

export type WorkerSet = ReturnType<typeof createWorkerSet>;
