/**
 * @module logs/shipper
 * Ships the app log's lines to the control plane (the POST: log-post.ts; the per-app rate: rate-window.ts;
 * the bounded queue and its batches: ship-queue.ts): `POST {CONTROL_PLANE_URL}/internal/v1/logs` with
 * the node's `RUNTIME_SECRET`, in batches (every `flushMs`, sooner when a batch is full), one
 * request at a time. Pushed by the node rather than pulled by the control plane: a fleet's nodes
 * come and go, and each knows its one control-plane address already (bundles, app records).
 *
 * Bounded everywhere, since what guests log is theirs to choose:
 * - each app may ship `linesPerSecond` lines a second from this node; past it its lines are dropped
 *   and, at the next flush, one `warn` line of the app says how many;
 * - a line's message is cut at `maxLineChars`;
 * - while the control plane cannot be reached, at most `maxQueued` lines wait (oldest dropped, counted
 *   in `runtime_app_log_dropped_total{reason="queue"}`) and the batch is tried again next flush.
 */
import type { Logger } from 'pino';
import type { AppLogInput } from './app-log.ts';
import { createLogPost } from './log-post.ts';
import { createRateWindows } from './rate-window.ts';
import { createShipQueue } from './ship-queue.ts';

export interface ShipperOptions {
  url: string;
  secret: string;
  nodeId: string;
  flushMs: number;
  linesPerSecond: number;
  maxLineChars?: number;
  maxBatchLines?: number;
  maxQueued?: number;
  now: () => number;
  logger: Logger;
  fetch?: typeof fetch;
  /** Counts lines dropped, by reason (`rate`: over an app's lines a second, `queue`: the control plane was unreachable too long). */
  dropped?: (reason: 'rate' | 'queue', n: number) => void;
}

export const SHIPPING = { maxLineChars: 8_192, maxBatchLines: 500, maxBatchChars: 4 * 1024 * 1024, maxQueued: 20_000, timeoutMs: 10_000, stopTimeoutMs: 2_000 } as const;

export interface LogShipper {
  append(lines: readonly AppLogInput[]): void;
  /** Sends what is queued now (tests, and on stop). */
  flush(): Promise<void>;
  start(): void;
  /** Stops the timer and sends what is left (one try). */
  stop(): Promise<void>;
}

export function createLogShipper(options: ShipperOptions): LogShipper {
  const maxLine = options.maxLineChars ?? SHIPPING.maxLineChars;
  const maxBatch = options.maxBatchLines ?? SHIPPING.maxBatchLines;
  const rate = createRateWindows(options.linesPerSecond, options.now, (n) => options.dropped?.('rate', n));
  const queue = createShipQueue({ maxQueued: options.maxQueued ?? SHIPPING.maxQueued, maxBatch, maxBatchChars: SHIPPING.maxBatchChars }, (n) => options.dropped?.('queue', n));
  const post = createLogPost(options);
  const state = { timer: null as ReturnType<typeof setInterval> | null, inFlight: null as Promise<void> | null, stopping: false };

  const flushOnce = async (): Promise<void> => {
    for (const marker of rate.markers()) queue.push(marker);
    while (queue.length > 0) {
      const batch = queue.take();
      // On stop, a control plane that does not answer soon holds the node's exit no longer.
      if (!(await post.send(batch, queue.length, state.stopping ? SHIPPING.stopTimeoutMs : SHIPPING.timeoutMs))) return queue.putBack(batch);
    }
  };

  const flush = (): Promise<void> => {
    // One request at a time; a flush asked for meanwhile waits for it and then runs.
    const run = (state.inFlight ?? Promise.resolve()).then(flushOnce).finally(() => {
      if (state.inFlight === run) state.inFlight = null;
    });
    state.inFlight = run;
    return run;
  };

  return {
    append(lines) {
      const second = Math.floor(options.now() / 1000);
      for (const line of lines) {
        if (!rate.admit(line, second)) continue;
        queue.push(line.message.length > maxLine ? { ...line, message: `${line.message.slice(0, maxLine)}… (cut at ${maxLine} characters)` } : line);
      }
      queue.trim();
      // A full batch goes at once, unless shipping is failing: then only the timer retries, so a
      // control plane that is down is not called (and the queue copied) on every request.
      if (queue.length >= maxBatch && state.inFlight === null && !post.failing) void flush();
    },
    flush,
    start() {
      state.timer = setInterval(() => {
        if (state.inFlight === null && (queue.length > 0 || rate.size > 0)) void flush();
      }, options.flushMs);
      state.timer.unref();
    },
    async stop() {
      if (state.timer !== null) clearInterval(state.timer);
      state.timer = null;
      state.stopping = true;
      await flush();
    },
  };
}
