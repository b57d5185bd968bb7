/**
 * @module supervisor/workers
 * The sandbox worker processes of a node: `count` ordinary workers, one quarantine worker while a
 * quarantined version needs it, and `spares` started workers kept idle. A worker takes
 * 200–300 ms to start (more on busy cores), so when a worker dies or a version goes to quarantine,
 * the spare takes the place at once and a new spare starts behind it: the recovery path waits for no
 * process start. A dead worker's slot is served first, the quarantine worker second. A worker that ends is replaced (not in a tight loop: one that dies within two
 * seconds of starting waits a second). Each worker as the scheduler sees it: the requests it holds,
 * their expected CPU, and which version specs it has (supervisor/worker-ref.ts). Where each stands:
 * supervisor/worker-slots.ts; this module decides which process starts, and when.
 */
import type { Logger } from 'pino';
import type { WorkerLimits } from '../config/config.ts';
import type { FrameBody } from '../protocol/channel.ts';
import type { FromWorker } from '../protocol/messages.ts';
import type { KillReason } from './crash.ts';
import { spawnRef, type WorkerRef } from './worker-ref.ts';
import { createWorkerSlots, nameOf, QUARANTINE_INDEX, SPARE_INDEX } from './worker-slots.ts';

export type { WorkerRef, WorkerRole } from './worker-ref.ts';
export { QUARANTINE_INDEX } from './worker-slots.ts';

/** Version specs a worker keeps (the worker evicts in the same order: sandbox/worker-main.ts). */
export const WORKER_MAX_VERSIONS = 4_096;
const YOUNG_MS = 2_000;

export interface WorkerSetDeps {
  count: number;
  /** Idle started workers kept to replace a dead one or become the quarantine worker. */
  spares: number;
  entry: string;
  limits: WorkerLimits;
  guestSource: string;
  /** Workers get a Node IPC channel to take handed connections (RUNTIME_HANDOFF). */
  ipc?: boolean;
  logger: Logger;
  now: () => number;
  onMessage: (worker: WorkerRef, msg: FromWorker, body: FrameBody) => void;
  onDeath: (worker: WorkerRef, code: number | null, signal: NodeJS.Signals | null) => void;
  /** An ordinary worker can take requests (it became ready, or a ready spare took a slot). */
  onAvailable: (worker: WorkerRef) => void;
}

export function createWorkerSet(deps: WorkerSetDeps) {
  const slots = createWorkerSlots(deps.count);
  const life = { stopping: false };
  const young = (ref: WorkerRef): number => (deps.now() - ref.startedAt < YOUNG_MS ? 1_000 : 0);

  /**
   * Starts a spare when one is missing, one process start at a time: two starting at once on busy
   * cores each take about twice as long (measured: 560–640 ms each instead of ~300 ms), and the
   * one a quarantined version or a dead worker's slot waits for is the first.
   */
  const replenish = (): void => {
    if (life.stopping || slots.spareCount >= deps.spares || slots.starting()) return;
    spawn(SPARE_INDEX);
  };

  /** Fills an empty ordinary slot: with a spare (ready, else starting), else with a new worker. */
  const fill = (index: number, delayMs: number): void => {
    const s = slots.takeSpare();
    if (s !== null) {
      slots.place(s, index);
      if (s.handle.isReady) deps.onAvailable(s);
      replenish();
      return;
    }
    setTimeout(() => { if (!life.stopping && slots.normal[index] === null) spawn(index); }, delayMs).unref();
  };

  const onReady = (ref: WorkerRef): void => {
    deps.logger.info({ worker: ref.name, pid: ref.handle.pid, startMs: deps.now() - ref.startedAt }, 'sandbox worker ready');
    if (ref.role === 'normal') deps.onAvailable(ref);
    replenish();
  };

  const onExit = (ref: WorkerRef, code: number | null, signal: NodeJS.Signals | null): void => {
    const role = ref.role;
    const held = slots.vacate(ref);
    // The slot is filled before the death is judged: the requests that run again find it, and
    // other apps get their capacity back before the culprit gets a quarantine worker.
    if (!life.stopping && held && role === 'normal') fill(ref.index, young(ref));
    deps.onDeath(ref, code, signal);
    // The quarantine worker comes back when a quarantined version next needs it. A spare that
    // died young is not replaced in a tight loop.
    if (!life.stopping && held && role === 'spare') setTimeout(replenish, young(ref)).unref();
  };

  function spawn(index: number): WorkerRef {
    const ref = spawnRef(deps, index, nameOf(index), (r) => ({
      onMessage: (msg, body) => {
        deps.onMessage(r, msg, body);
        if (msg.t === 'ready') onReady(r);
      },
      onExit: (code, signal) => onExit(r, code, signal),
    }));
    slots.place(ref, index);
    return ref;
  }

  return {
    async start(): Promise<void> {
      for (let i = 0; i < deps.count; i++) spawn(i);
      await Promise.all(slots.normal.map((w) => w?.handle.ready));
      replenish();
    },
    /** Ordinary workers ready to take requests. */
    ready(): WorkerRef[] {
      const out: WorkerRef[] = [];
      for (const w of slots.normal) if (w !== null && w.handle.isReady && w.killedFor === null) out.push(w);
      return out;
    },
    /**
     * The quarantine worker: the running one, else a spare, else a new one (messages to one still
     * starting wait in its pipe until it is ready).
     */
    quarantine(): WorkerRef {
      if (slots.quarantine !== null) return slots.quarantine;
      const s = slots.takeSpare();
      if (s === null) return spawn(QUARANTINE_INDEX);
      slots.place(s, QUARANTINE_INDEX);
      replenish();
      return s;
    },
    all: slots.all,
    kill(worker: WorkerRef, reason: Exclude<KillReason, null>): void {
      if (worker.killedFor !== null) return;
      worker.killedFor = reason;
      worker.handle.kill();
    },
    async stop(): Promise<void> {
      life.stopping = true;
      const live = slots.all();
      for (const w of live) w.handle.kill();
      await Promise.all(live.map((w) => w.exited));
    },
    slots(): Array<WorkerRef | null> {
      return [...slots.normal];
    },
  };
}

export type WorkerSet = ReturnType<typeof createWorkerSet>;
