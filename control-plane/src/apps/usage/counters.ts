/**
 * @module apps/usage/counters
 * The usage counters, one table: each counter's name on the wire (the runtime's flushes, the
 * control plane's own recorder) and its column in `app_usage` (migration 031_app_usage.sql). Every
 * counter is a sum; `storage_bytes` apart is a gauge (apps/usage/store.ts).
 */

export const COUNTERS = {
  requestsOk: 'requests_ok',
  requestsError: 'requests_error',
  requestsCpuLimit: 'requests_cpu_limit',
  requestsMemoryLimit: 'requests_memory_limit',
  requestsDeadline: 'requests_deadline',
  requestsCrashed: 'requests_crashed',
  deliveriesSucceeded: 'deliveries_succeeded',
  deliveriesFailed: 'deliveries_failed',
  cpuUs: 'cpu_us',
  egressCalls: 'egress_calls',
  egressBytesOut: 'egress_bytes_out',
  egressBytesIn: 'egress_bytes_in',
  storageReads: 'storage_reads',
  storageWrites: 'storage_writes',
  queueSent: 'queue_sent',
  queueDelivered: 'queue_delivered',
} as const;

export type CounterName = keyof typeof COUNTERS;
export const COUNTER_NAMES = Object.keys(COUNTERS) as CounterName[];
export const COUNTER_COLUMNS = Object.values(COUNTERS);

export type Counts = Partial<Record<CounterName, number>>;

export const STEP_MS = { minute: 60_000, hour: 3_600_000 } as const;
export type Step = keyof typeof STEP_MS;

/** The start of the step's bucket holding `ms` (UTC: minutes and hours do not depend on a zone). */
export const bucketOf = (ms: number, step: Step): number => Math.floor(ms / STEP_MS[step]) * STEP_MS[step];

/** One delta to add: an app's (and install's, '' for none) counts in one minute. */
export interface UsageDelta {
  /** Null: the install's app, looked up when written (a staged queue send names its install only). */
  appId: string | null;
  installId: string;
  /** Any time inside the minute (ms since the epoch). */
  at: number;
  counts: Counts;
  /** A storage sample (the gauge), when this delta carries one. */
  storageBytes?: number;
}
