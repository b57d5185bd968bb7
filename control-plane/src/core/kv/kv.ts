/**
 * @module core/kv/kv
 * What the control plane asks of Redis: sliding-window counters (rate limits), keys with a time to
 * live (idempotency windows), and pub/sub (cache invalidation across replicas). Implemented by
 * ioredis and by an in-process stand-in for the embedded default; one contract suite runs both.
 *
 * Time comes from the injected clock in both implementations, so windows and expiries follow the
 * same clock as the rest of the service (and tests can move it). Redis's own expiry only collects
 * the garbage, a little after the logical expiry.
 */

export interface HitResult {
  /** True when this hit was counted within the limit. */
  allowed: boolean;
  /** Hits in the window, this one included when allowed. */
  count: number;
  /** When refused: milliseconds until the oldest hit leaves the window; 0 when allowed. */
  retryAfterMs: number;
}

export type Unsubscribe = () => Promise<void>;

export interface Kv {
  /** Records a hit on `key` unless `limit` hits already happened within the last `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<HitResult>;
  /** Stores `value` under `key` for `ttlMs` unless a live value is there; true when stored. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  publish(channel: string, message: string): Promise<void>;
  /** Calls `handler` for every message published on `channel` after the returned promise resolves. */
  subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe>;
  /**
   * Calls `listener` each time messages may have been missed: the subscription connection was lost
   * and is back, subscribed again. Returns the function that removes the listener.
   */
  onGap(listener: () => void): () => void;
  close(): Promise<void>;
}
