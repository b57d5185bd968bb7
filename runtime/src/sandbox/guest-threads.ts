/**
 * @module sandbox/guest-threads
 * Lowers the scheduling priority of the threads that run guest code (isolated-vm's thread pool),
 * so that the worker's main thread, which watches CPU budgets and serves IPC, preempts them
 * whenever it has work. Without this, on a busy core the watchdog can wait a whole time slice while
 * a runaway keeps computing past its budget. Linux applies `setpriority` per thread; isolated-vm's
 * threads are the unnamed ones, which inherit the main thread's name. Elsewhere this does nothing.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

const GUEST_NICENESS = 10;
const RESCAN_MS = 1_000;

export function createGuestThreadNicer(now: () => number = Date.now) {
  const seen = new Set<number>();
  let lastScan = -Infinity;
  const enabled = process.platform === 'linux';
  const mainName = enabled ? safeRead(`/proc/self/task/${process.pid}/comm`) : null;
  return {
    /** Finds new guest threads and lowers their priority; cheap, at most once a second. */
    scan(): void {
      if (!enabled || mainName === null || now() - lastScan < RESCAN_MS) return;
      lastScan = now();
      let tasks: string[];
      try {
        tasks = readdirSync('/proc/self/task');
      } catch {
        return;
      }
      for (const task of tasks) {
        const tid = Number(task);
        if (tid === process.pid || seen.has(tid)) continue;
        seen.add(tid);
        if (safeRead(`/proc/self/task/${task}/comm`) !== mainName) continue;
        try {
          setPriority(tid, GUEST_NICENESS);
        } catch {
          // not permitted or gone: the thread keeps its priority
        }
      }
    },
  };
}

function safeRead(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}
