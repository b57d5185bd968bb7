/**
 * @module supervisor/workers
 * The sandbox worker processes of a node: `count` ordinary workers, and one quarantine worker
 * started the first time a quarantined version runs. A worker that ends is replaced (not in a
 * tight loop: one that dies within two seconds of starting waits a second). Each worker as the
 * scheduler sees it: the requests it holds, their expected CPU, and which version specs it has.
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

export interface WorkerRef extends Lane {
  readonly index: number;
  readonly name: string;
  readonly quarantine: boolean;
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
  limits: WorkerLimits;
  guestSource: string;
  logger: Logger;
  now: () => number;
  onMessage: (worker: WorkerRef, msg: FromWorker, body: FrameBody) => void;
  onDeath: (worker: WorkerRef, code: number | null, signal: NodeJS.Signals | null) => void;
}

export const QUARANTINE_INDEX = -1;

export function createWorkerSet(deps: WorkerSetDeps) {
  const normal: Array<WorkerRef | null> = Array.from({ length: deps.count }, () => null);
  let quarantine: WorkerRef | null = null;
  let stopping = false;

  const spawn = (index: number): WorkerRef => {
    let markExited: () => void = () => {};
    const exited = new Promise<void>((resolve) => { markExited = resolve; });
    const name = index === QUARANTINE_INDEX ? 'quarantine' : String(index);
    const ref: WorkerRef = {
      index, name, quarantine: index === QUARANTINE_INDEX, jobs: new Map(), versions: new Set(), seq: 0, queuedMs: 0, killedFor: null,
      startedAt: deps.now(), exited, handle: null as unknown as WorkerHandle,
    };
    (ref as { handle: WorkerHandle }).handle = spawnWorker({
      name,
      guestSource: deps.guestSource,
      limits: deps.limits,
      onMessage: (msg, body) => {
        deps.onMessage(ref, msg, body);
      },
      onStderr: (line) => deps.logger.warn({ worker: name, pid: ref.handle.pid }, line),
      onExit: (code, signal) => {
        if (ref.quarantine ? quarantine === ref : normal[index] === ref) {
          if (ref.quarantine) quarantine = null;
          else normal[index] = null;
        }
        markExited();
        deps.onDeath(ref, code, signal);
        // The quarantine worker comes back when a quarantined version next needs it.
        if (stopping || ref.quarantine) return;
        const delay = deps.now() - ref.startedAt < YOUNG_MS ? 1_000 : 0;
        setTimeout(() => { if (!stopping && normal[index] === null) normal[index] = spawn(index); }, delay).unref();
      },
    });
    return ref;
  };

  return {
    async start(): Promise<void> {
      for (let i = 0; i < deps.count; i++) normal[i] = spawn(i);
      await Promise.all(normal.map((w) => w?.handle.ready));
    },
    /** Ordinary workers ready to take requests. */
    ready(): WorkerRef[] {
      const out: WorkerRef[] = [];
      for (const w of normal) if (w !== null && w.handle.isReady && w.killedFor === null) out.push(w);
      return out;
    },
    /** The quarantine worker, started if needed (it may not be ready yet: messages wait in its pipe). */
    quarantine(): WorkerRef {
      if (quarantine === null) quarantine = spawn(QUARANTINE_INDEX);
      return quarantine;
    },
    all(): WorkerRef[] {
      return [...normal, quarantine].filter((w): w is WorkerRef => w !== null);
    },
    kill(worker: WorkerRef, reason: Exclude<KillReason, null>): void {
      if (worker.killedFor !== null) return;
      worker.killedFor = reason;
      worker.handle.kill();
    },
    async stop(): Promise<void> {
      stopping = true;
      const live = [...normal, quarantine].filter((w): w is WorkerRef => w !== null);
      for (const w of live) w.handle.kill();
      await Promise.all(live.map((w) => w.exited));
    },
    slots(): Array<WorkerRef | null> {
      return [...normal];
    },
  };
}

export type WorkerSet = ReturnType<typeof createWorkerSet>;
