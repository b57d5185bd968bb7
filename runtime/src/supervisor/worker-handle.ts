/**
 * @module supervisor/worker-handle
 * One sandbox worker process: forked with --no-node-snapshot (isolated-vm on Node 24), IPC with
 * advanced serialization, and its resident memory read from /proc for the ceiling check.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WorkerLimits } from '../config.ts';
import { createBatcher, unbatch } from '../protocol/batch.ts';
import type { FromWorker, ToWorker } from '../protocol/messages.ts';

const ENTRY = fileURLToPath(new URL('../sandbox/worker-main.ts', import.meta.url));
const PAGE_BYTES = 4096;

export interface WorkerHandle {
  readonly index: number;
  readonly pid: number | undefined;
  readonly ready: Promise<void>;
  readonly isReady: boolean;
  send(msg: ToWorker): void;
  kill(): void;
  /** Resident bytes (Linux /proc), or null when unknown. */
  rssBytes(): number | null;
}

export function spawnWorker(options: {
  index: number;
  guestSource: string;
  limits: WorkerLimits;
  onMessage: (msg: FromWorker) => void;
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
}): WorkerHandle {
  const child: ChildProcess = fork(ENTRY, [], {
    execPath: process.execPath,
    execArgv: ['--no-node-snapshot', '--conditions=source', '--disable-warning=ExperimentalWarning'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Workers get no environment: no secret of the node reaches the process that runs guest code.
    env: {},
  });
  let isReady = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => { markReady = resolve; });
  child.on('message', (raw: unknown) => unbatch<FromWorker>(raw, (msg) => {
    if (msg.t === 'ready') {
      isReady = true;
      markReady();
    }
    options.onMessage(msg);
  }));
  child.once('exit', (code, signal) => {
    isReady = false;
    options.onExit(code, signal);
  });
  child.on('error', () => {
    // 'exit' follows (or the fork failed, which 'exit' also reports).
  });
  const send = createBatcher<ToWorker>((msg) => {
    if (child.connected) child.send(msg);
  });
  send({ t: 'init', guestSource: options.guestSource, limits: options.limits });
  return {
    index: options.index,
    pid: child.pid,
    ready,
    get isReady() { return isReady; },
    send,
    kill() {
      child.kill('SIGKILL');
    },
    rssBytes() {
      if (child.pid === undefined) return null;
      try {
        const statm = readFileSync(`/proc/${child.pid}/statm`, 'utf8').split(' ');
        return Number(statm[1]) * PAGE_BYTES;
      } catch {
        return null;
      }
    },
  };
}
