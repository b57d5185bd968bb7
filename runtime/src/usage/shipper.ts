/**
 * @module usage/shipper
 * Ships the meter's counts (usage/meter.ts) to the control plane as deltas:
 * `POST {CONTROL_PLANE_URL}/internal/v1/usage` with the node's `RUNTIME_SECRET`, beside the log
 * batches, every `flushMs`, one request at a time. Each flush is sealed into batches with an
 * idempotency key of their own before the first try, and a batch is retried with the same key
 * until the control plane answers: a batch whose answer was lost is counted once (the control
 * plane remembers keys for 24 hours). No rate applies: these are counts, not lines, and a minute of
 * one app is one row however many requests it served.
 *
 * Bounded: while the control plane cannot be reached, batches wait, at most `maxRows` rows in all
 * (one row per app, version, install and minute: 100,000 rows hold about 70 minutes of 1,000 busy
 * installs). Past it the oldest batches are dropped, counted in `dropped` and logged once per
 * outage, since an exact count the node cannot deliver is better known lost than held until the
 * node runs out of memory. A batch the control plane refuses as invalid (400, 413) is dropped.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { MeterRow, UsageMeter } from './meter.ts';

export const USAGE_SHIPPING = { flushMs: 1_000, maxRows: 100_000, maxBatchRows: 2_000, timeoutMs: 10_000, stopTimeoutMs: 2_000 } as const;

export interface UsageShipperOptions {
  url: string;
  secret: string;
  nodeId: string;
  meter: UsageMeter;
  logger: Logger;
  flushMs?: number;
  maxRows?: number;
  fetch?: typeof fetch;
  /** Counts rows given up (the control plane unreachable past `maxRows`, or a batch refused as invalid). */
  dropped?: (rows: number) => void;
}

interface Batch {
  key: string;
  rows: MeterRow[];
}

export interface UsageShipper {
  /** Seals what the meter holds and sends every waiting batch (tests, and on stop). */
  flush(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
  /** Rows waiting for the control plane, in sealed batches. */
  readonly waiting: number;
}

export function createUsageShipper(options: UsageShipperOptions): UsageShipper {
  const doFetch = options.fetch ?? globalThis.fetch;
  const endpoint = `${options.url}/internal/v1/usage`;
  const maxRows = options.maxRows ?? USAGE_SHIPPING.maxRows;
  const queue: Batch[] = [];
  const state = { timer: null as ReturnType<typeof setInterval> | null, inFlight: null as Promise<void> | null, failing: false, stopping: false, waiting: 0 };

  const seal = (): void => {
    const rows = options.meter.take();
    for (let i = 0; i < rows.length; i += USAGE_SHIPPING.maxBatchRows) {
      const part = rows.slice(i, i + USAGE_SHIPPING.maxBatchRows);
      queue.push({ key: randomUUID(), rows: part });
      state.waiting += part.length;
    }
    let lost = 0;
    while (state.waiting > maxRows && queue.length > 1) {
      const oldest = queue.shift()!;
      state.waiting -= oldest.rows.length;
      lost += oldest.rows.length;
    }
    if (lost > 0) {
      options.dropped?.(lost);
      options.logger.error({ rows: lost, waiting: state.waiting }, 'usage counts dropped: the control plane was unreachable too long');
    }
  };

  /** True when the batch is done with (counted, or refused as invalid). */
  const send = async (batch: Batch): Promise<boolean> => {
    try {
      const res = await doFetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ key: batch.key, node: options.nodeId, rows: batch.rows }),
        signal: AbortSignal.timeout(state.stopping ? USAGE_SHIPPING.stopTimeoutMs : USAGE_SHIPPING.timeoutMs),
      });
      await res.body?.cancel();
      if (res.status === 400 || res.status === 413) {
        options.logger.error({ status: res.status, rows: batch.rows.length }, 'control plane refused a batch of usage counts; dropped');
        options.dropped?.(batch.rows.length);
        return true;
      }
      if (!res.ok) throw new Error(`answered ${res.status}`);
      if (state.failing) options.logger.info('shipping usage counts to the control plane again');
      state.failing = false;
      return true;
    } catch (err) {
      if (!state.failing) options.logger.warn({ err, waiting: state.waiting }, 'could not ship usage counts to the control plane; retrying');
      state.failing = true;
      return false;
    }
  };

  const flushOnce = async (): Promise<void> => {
    seal();
    while (queue.length > 0) {
      const batch = queue[0]!;
      if (!(await send(batch))) return;
      queue.shift();
      state.waiting -= batch.rows.length;
    }
  };

  const flush = (): Promise<void> => {
    // One request at a time; a flush asked for meanwhile runs after it.
    const run = (state.inFlight ?? Promise.resolve()).then(flushOnce).finally(() => {
      if (state.inFlight === run) state.inFlight = null;
    });
    state.inFlight = run;
    return run;
  };

  return {
    flush,
    get waiting() { return state.waiting; },
    start() {
      state.timer = setInterval(() => {
        if (state.inFlight === null && (queue.length > 0 || options.meter.size > 0)) void flush();
      }, options.flushMs ?? USAGE_SHIPPING.flushMs);
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
