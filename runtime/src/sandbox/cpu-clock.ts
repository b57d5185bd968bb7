/**
 * @module sandbox/cpu-clock
 * CPU time of guest code, measured without isolated-vm's `cpuTime`.
 *
 * Why: isolated-vm as shipped for Linux counts *wall* time while an isolate runs (its binding.gyp
 * drops USE_CLOCK_THREAD_CPUTIME_ID), so under CPU contention honest requests would look expensive.
 *
 * How: a sandbox worker runs at most one isolate at a time (the executor serialises every entry),
 * on one of isolated-vm's threads, while the Node main thread only does host work. So for a
 * window of time, guest CPU = CPU of the whole process − CPU of the main thread. Both clocks are
 * the kernel's per-task runtime (getrusage RUSAGE_SELF / RUSAGE_THREAD), unaffected by how long
 * the process waited for a core. Host work done on the guest's behalf on the main thread (crypto,
 * URL parsing, …) is measured with the thread clock and charged explicitly (see host-bridge.ts).
 * Other threads of the process (V8 platform workers, GC helpers) are few and mostly idle; their
 * work while a guest runs is charged to that guest, which only errs against the guest by little.
 *
 * Precision: Linux folds the pending runtime of a thread that is running on another core into the
 * process clock only at a scheduler tick (CONFIG_HZ; 4 ms at 250 Hz). While a slice runs, the
 * watchdog therefore sees its CPU up to one tick late and may stop a runaway that much after its
 * budget; it never stops a request before its budget is spent. Once a slice has ended its CPU is
 * exact (a thread that stops running has its runtime folded in).
 */

export interface CpuMark {
  process: number;
  thread: number;
}

/** Microseconds of CPU used so far by the process and by the calling (main) thread. */
export function cpuMark(): CpuMark {
  const p = process.cpuUsage();
  const t = process.threadCpuUsage();
  return { process: p.user + p.system, thread: t.user + t.system };
}

/** Microseconds of CPU spent off the main thread since `mark` (the running guest's CPU). */
export function guestMicrosSince(mark: CpuMark): number {
  const now = cpuMark();
  return Math.max(0, now.process - mark.process - (now.thread - mark.thread));
}

/** Microseconds of CPU the calling thread used since `start` (a threadCpuUsage reading). */
export function threadMicros(): number {
  const t = process.threadCpuUsage();
  return t.user + t.system;
}
