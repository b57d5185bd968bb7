/**
 * @module core/clock/periodic-task
 * Work a control plane does on its own every so often (sweeps, collections, evaluations): one loop
 * for all of them, so each gets the same three properties without writing them again. A run never
 * overlaps the one before it (a slow sweep is not started twice); a failed run is logged and the
 * next tick tries again; `stop` waits for the run in progress, so a test or a shutdown that
 * stopped the task never sees it write afterwards. The timer is unref'd: a pending tick does not
 * keep a process alive. Tests call the work directly (no timers); the loop only schedules it.
 */

export interface PeriodicTask {
  /** Runs the work every `intervalMs` until `stop`; nothing when `intervalMs` is 0 or already started. */
  start(): void;
  /** Stops the ticks and waits for the run in progress, if any. */
  stop(): Promise<void>;
}

export interface PeriodicTaskOptions {
  intervalMs: number;
  run: () => Promise<unknown>;
  /** Told of a failed run; the next tick retries. */
  onError: (err: unknown) => void;
}

/**
 * @example
 * const task = createPeriodicTask({ intervalMs: 60_000, run: sweep, onError: (err) => logger.warn({ err }, 'sweep failed') });
 * task.start(); // … await task.stop();
 */
export function createPeriodicTask(options: PeriodicTaskOptions): PeriodicTask {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running !== undefined) return;
    running = options.run()
      .then(() => undefined, options.onError)
      .finally(() => {
        running = undefined;
      });
  };
  return {
    start() {
      if (options.intervalMs <= 0 || timer !== undefined) return;
      timer = setInterval(tick, options.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
