/**
 * @module supervisor/worker-ref
 * One sandbox worker as the supervisor sees it, and its process started: the requests it holds,
 * their expected CPU (its scheduler lane), which version specs it has, and why it was killed.
 */
import type { Logger } from 'pino';
import type { WorkerLimits } from '../config/config.ts';
import type { FrameBody } from '../protocol/channel.ts';
import type { FromWorker } from '../protocol/messages.ts';
import type { KillReason } from './crash.ts';
import type { Pending } from './pending.ts';
import type { Lane } from './scheduler.ts';
import { spawnWorker, type WorkerHandle } from './worker-handle.ts';

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

export interface SpawnDeps {
  entry: string;
  limits: WorkerLimits;
  guestSource: string;
  /** Workers get a Node IPC channel to take handed connections (RUNTIME_HANDOFF). */
  ipc?: boolean;
  logger: Logger;
  now: () => number;
}

export interface WorkerEvents {
  onMessage: (msg: FromWorker, body: FrameBody) => void;
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/** Starts a worker process named `name`; `exited` resolves once `onExit` has run. */
export function spawnRef(deps: SpawnDeps, index: number, name: string, events: (ref: WorkerRef) => WorkerEvents): WorkerRef {
  let markExited: () => void = () => {};
  const exited = new Promise<void>((resolve) => { markExited = resolve; });
  const ref: WorkerRef = {
    index, name, role: 'normal', jobs: new Map(), versions: new Set(), seq: 0, queuedMs: 0, killedFor: null,
    startedAt: deps.now(), exited, handle: null as unknown as WorkerHandle,
  };
  const on = events(ref);
  (ref as { handle: WorkerHandle }).handle = spawnWorker({
    name, entry: deps.entry, guestSource: deps.guestSource, limits: deps.limits, ipc: deps.ipc === true,
    onMessage: on.onMessage,
    onStderr: (line) => deps.logger.warn({ worker: ref.name, pid: ref.handle.pid }, line),
    onExit: (code, signal) => {
      on.onExit(code, signal);
      markExited();
    },
  });
  return ref;
}
