/**
 * @module logs/shipper
 * Ships the app log's lines to the control plane: `POST {CONTROL_PLANE_URL}/internal/v1/logs` with
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

interface Window {
  second: number;
  shipped: number;
  dropped: number;
  /** The last dropped line: the marker takes its version and kind. */
  last: AppLogInput | null;
}

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
  const maxQueued = options.maxQueued ?? SHIPPING.maxQueued;
  const doFetch = options.fetch ?? globalThis.fetch;
  const endpoint = `${options.url}/internal/v1/logs`;
  let queue: AppLogInput[] = [];
  const windows = new Map<string, Window>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let inFlight: Promise<void> | null = null;
  let failing = false;

  const admit = (line: AppLogInput, second: number): boolean => {
    let w = windows.get(line.appId);
    if (w === undefined) {
      w = { second, shipped: 0, dropped: 0, last: null };
      windows.set(line.appId, w);
    } else if (w.second !== second) {
      w.second = second;
      w.shipped = 0;
    }
    if (w.shipped >= options.linesPerSecond) {
      w.dropped++;
      w.last = line;
      return false;
    }
    w.shipped++;
    return true;
  };

  /** One `warn` line per app that dropped lines since the last flush. */
  const markers = (): void => {
    const at = new Date(options.now()).toISOString();
    for (const [appId, w] of windows) {
      if (w.dropped > 0 && w.last !== null) {
        queue.push({
          ...w.last, at, appId, requestId: '', deliveryId: null, installId: null, level: 'warn', status: 'ok', profile: undefined,
          message: `${w.dropped} log lines of this app were dropped on this node (more than ${options.linesPerSecond} lines a second)`,
          request: undefined, error: undefined,
        });
        options.dropped?.('rate', w.dropped);
        w.dropped = 0;
        w.last = null;
      }
      // Forget apps quiet for a minute (nothing left to report), so the map holds only the recently active.
      if (w.second < Math.floor(options.now() / 1000) - 60) windows.delete(appId);
    }
  };

  const trimQueue = (): void => {
    if (queue.length <= maxQueued) return;
    const over = queue.length - maxQueued;
    queue.splice(0, over);
    options.dropped?.('queue', over);
  };

  let stopping = false;
  const send = async (batch: AppLogInput[]): Promise<boolean> => {
    try {
      const res = await doFetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ node: options.nodeId, lines: batch }),
        // On stop, a control plane that does not answer soon holds the node's exit no longer.
        signal: AbortSignal.timeout(stopping ? SHIPPING.stopTimeoutMs : SHIPPING.timeoutMs),
      });
      await res.body?.cancel();
      // A batch the control plane refuses as invalid would be refused again: it is dropped.
      if (res.status === 400 || res.status === 413) {
        options.logger.error({ status: res.status, lines: batch.length }, 'control plane refused a batch of app log lines; dropped');
        return true;
      }
      if (!res.ok) throw new Error(`answered ${res.status}`);
      if (failing) options.logger.info('shipping app log lines to the control plane again');
      failing = false;
      return true;
    } catch (err) {
      if (!failing) options.logger.warn({ err, queued: queue.length + batch.length }, 'could not ship app log lines to the control plane; retrying');
      failing = true;
      return false;
    }
  };

  /** Lines of the next batch: at most maxBatch of them, and about maxBatchChars of text (profiles are large). */
  const batchLength = (): number => {
    let chars = 0;
    let n = 0;
    while (n < queue.length && n < maxBatch) {
      const line = queue[n]!;
      // An error's frames are about 100 characters of JSON each.
      chars += line.message.length + (line.profile?.length ?? 0) + (line.error === undefined ? 0 : line.error.message.length + line.error.frames.length * 120);
      if (n > 0 && chars > SHIPPING.maxBatchChars) break;
      n++;
    }
    return n;
  };

  const flushOnce = async (): Promise<void> => {
    markers();
    while (queue.length > 0) {
      const batch = queue.splice(0, batchLength());
      if (!(await send(batch))) {
        queue = [...batch, ...queue];
        trimQueue();
        return;
      }
    }
  };

  const flush = (): Promise<void> => {
    // One request at a time; a flush asked for meanwhile waits for it and then runs.
    const run = (inFlight ?? Promise.resolve()).then(flushOnce).finally(() => {
      if (inFlight === run) inFlight = null;
    });
    inFlight = run;
    return run;
  };

  return {
    append(lines) {
      const second = Math.floor(options.now() / 1000);
      for (const line of lines) {
        if (!admit(line, second)) continue;
        queue.push(line.message.length > maxLine ? { ...line, message: `${line.message.slice(0, maxLine)}… (cut at ${maxLine} characters)` } : line);
      }
      trimQueue();
      // A full batch goes at once, unless shipping is failing: then only the timer retries, so a
      // control plane that is down is not called (and the queue copied) on every request.
      if (queue.length >= maxBatch && inFlight === null && !failing) void flush();
    },
    flush,
    start() {
      timer = setInterval(() => {
        if (inFlight === null && (queue.length > 0 || windows.size > 0)) void flush();
      }, options.flushMs);
      timer.unref();
    },
    async stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      stopping = true;
      await flush();
    },
  };
}
