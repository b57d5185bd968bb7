/**
 * @module supervisor/worker-handle
 * One sandbox worker process: spawned with --no-node-snapshot (isolated-vm on Node 24) and an
 * empty environment (no secret of the node reaches the process that runs guest code), the
 * framed channel on fd 3, the entry journal on fd 4 (a file the supervisor reads after the worker
 * died), stderr read line by line into the node's log (and searched for why it died), and its
 * resident memory read from /proc for the ceiling check.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WorkerLimits } from '../config/config.ts';
import { createChannel, type FrameBody } from '../protocol/channel.ts';
import type { FromWorker, ToWorker } from '../protocol/messages.ts';
import { readConnStates, readJournal, type JournalEntry } from '../protocol/journal.ts';

const PAGE_BYTES = 4096;

/** Why a worker died, as far as its last words on stderr tell. */
export type DeathCause = 'memory' | 'unstoppable' | null;

const CAUSES: Array<[RegExp, Exclude<DeathCause, null>]> = [
  [/passed its CPU time limit and did not stop/, 'unstoppable'],
  [/out-of-memory|out of memory|Heap statistics|heap limit|OOM/i, 'memory'],
];

export interface WorkerHandle {
  readonly pid: number | undefined;
  readonly ready: Promise<void>;
  readonly isReady: boolean;
  send(msg: ToWorker, body?: Buffer | string | null): void;
  /**
   * Hands a connection to the worker (RUNTIME_HANDOFF) with the bytes already read from it, as
   * connection `slot` of its journal; false when the worker has no channel for it or is gone. This
   * process keeps its copy (reading nothing) so that it can answer or move the connection if the
   * worker dies.
   */
  handOff(socket: Socket, head: Buffer, slot: number): boolean;
  /** Its handed connections' last states (protocol/journal.ts); read after it exited. */
  connStates(): Buffer | null;
  kill(): void;
  /** Resident bytes (Linux /proc), or null when unknown. */
  rssBytes(): number | null;
  /** What the worker last wrote to its journal; read after it exited. */
  journal(): JournalEntry;
  /** The cause its stderr named, if any. */
  readonly cause: DeathCause;
}

export function spawnWorker(options: {
  name: string;
  /** The worker's entry module (supervisor/worker-entry.ts). */
  entry: string;
  guestSource: string;
  limits: WorkerLimits;
  /** A Node IPC channel too (fd 5), to hand client connections to the worker (RUNTIME_HANDOFF). */
  ipc?: boolean;
  onMessage: (msg: FromWorker, body: FrameBody) => void;
  onStderr: (line: string) => void;
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
}): WorkerHandle {
  const journalPath = join(tmpdir(), `platform-worker-${process.pid}-${options.name}-${Date.now().toString(36)}.journal`);
  const journalFd = openSync(journalPath, 'w+', 0o600);
  const child: ChildProcess = spawn(process.execPath, ['--no-node-snapshot', '--conditions=source', '--disable-warning=ExperimentalWarning', options.entry], {
    stdio: options.ipc === true ? ['ignore', 'inherit', 'pipe', 'pipe', journalFd, 'ipc'] : ['ignore', 'inherit', 'pipe', 'pipe', journalFd],
    env: {},
  });
  let isReady = false;
  let cause: DeathCause = null;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => { markReady = resolve; });
  const channel = createChannel<FromWorker, ToWorker>(child.stdio[3] as Duplex, (msg, body) => {
    if (msg.t === 'ready') {
      isReady = true;
      markReady();
    }
    options.onMessage(msg, body);
  }, () => {});
  createInterface({ input: child.stderr! }).on('line', (line) => {
    for (const [pattern, c] of CAUSES) if (cause === null && pattern.test(line)) cause = c;
    options.onStderr(line);
  });
  let entry: JournalEntry | null = null;
  let states: Buffer | null = null;
  child.once('exit', () => { isReady = false; });
  // 'close' comes after the exit and after every pipe was read to its end: each frame and stderr
  // line the worker wrote before it died has been handled when its death is.
  child.once('close', (code, signal) => {
    try {
      entry = readJournal(journalFd);
      if (options.ipc === true) states = readConnStates(journalFd);
    } finally {
      closeSync(journalFd);
      try { unlinkSync(journalPath); } catch { /* already gone */ }
    }
    options.onExit(code, signal);
  });
  child.on('error', () => {
    // 'exit' follows (or the spawn failed, which 'exit' also reports).
  });
  channel.send({ t: 'init', guestSource: options.guestSource, limits: options.limits });
  return {
    pid: child.pid,
    ready,
    get isReady() { return isReady; },
    send: (msg, body) => { if (child.exitCode === null && child.signalCode === null) channel.send(msg, body ?? null); },
    handOff(socket, head, slot) {
      if (options.ipc !== true || child.exitCode !== null || child.signalCode !== null || !child.connected) return false;
      // latin1: the bytes as they came, one character each.
      child.send({ t: 'conn', head: head.toString('latin1'), slot }, socket, { keepOpen: true }, (err) => { if (err !== null) socket.destroy(); });
      return true;
    },
    connStates: () => states,
    kill() {
      child.kill('SIGKILL');
    },
    rssBytes() {
      if (child.pid === undefined) return null;
      try {
        return Number(readFileSync(`/proc/${child.pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
      } catch {
        return null;
      }
    },
    journal: () => entry ?? { maxEntered: 0, current: 0, slot: -1 },
    get cause() { return cause; },
  };
}
