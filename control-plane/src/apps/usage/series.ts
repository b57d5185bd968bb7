/**
 * @module apps/usage/series
 * Rows of `app_usage` as a reader sees them: every bucket of the window (zeros where nothing was
 * counted), each point's figures grouped (requests by outcome, deliveries, CPU, egress, storage,
 * queue), and the window's totals (sums; the storage gauge: its latest sample).
 */
import type { Counts } from './counters.ts';
import type { UsagePoint, UsageTotals } from './schemas.ts';
import type { SeriesRow } from './store.ts';
import { bucketsOf, type UsageWindow } from './window.ts';

/** The figures of `counts` (camelCase counter names) with a storage sample. */
export function figures(c: Counts, storageBytes: number | null): UsageTotals {
  const n = (v: number | undefined) => v ?? 0;
  return {
    requests: { ok: n(c.requestsOk), error: n(c.requestsError), cpuLimit: n(c.requestsCpuLimit), memoryLimit: n(c.requestsMemoryLimit), deadline: n(c.requestsDeadline), crashed: n(c.requestsCrashed) },
    deliveries: { succeeded: n(c.deliveriesSucceeded), failed: n(c.deliveriesFailed) },
    cpuUs: n(c.cpuUs),
    egress: { calls: n(c.egressCalls), bytesOut: n(c.egressBytesOut), bytesIn: n(c.egressBytesIn) },
    storage: { bytes: storageBytes, reads: n(c.storageReads), writes: n(c.storageWrites) },
    queue: { sent: n(c.queueSent), delivered: n(c.queueDelivered) },
  };
}

const countsOf = (r: SeriesRow): Counts => ({
  requestsOk: Number(r.requests_ok), requestsError: Number(r.requests_error), requestsCpuLimit: Number(r.requests_cpu_limit),
  requestsMemoryLimit: Number(r.requests_memory_limit), requestsDeadline: Number(r.requests_deadline), requestsCrashed: Number(r.requests_crashed),
  deliveriesSucceeded: Number(r.deliveries_succeeded), deliveriesFailed: Number(r.deliveries_failed), cpuUs: Number(r.cpu_us),
  egressCalls: Number(r.egress_calls), egressBytesOut: Number(r.egress_bytes_out), egressBytesIn: Number(r.egress_bytes_in),
  storageReads: Number(r.storage_reads), storageWrites: Number(r.storage_writes), queueSent: Number(r.queue_sent), queueDelivered: Number(r.queue_delivered),
});

export function pointsOf(w: UsageWindow, rows: readonly SeriesRow[]): UsagePoint[] {
  const byBucket = new Map(rows.map((r) => [r.bucket.getTime(), r]));
  return bucketsOf(w).map((b) => {
    const r = byBucket.get(b);
    return { at: new Date(b).toISOString(), ...figures(r === undefined ? {} : countsOf(r), r === undefined || r.storage_bytes === null ? null : Number(r.storage_bytes)) };
  });
}

/** Sums of the points; storage bytes: the latest point's sample. */
export function totalsOf(points: readonly UsagePoint[]): UsageTotals {
  const t = figures({}, null);
  for (const p of points) {
    for (const group of ['requests', 'deliveries', 'egress', 'queue'] as const) {
      const into = t[group] as Record<string, number>;
      for (const [k, v] of Object.entries(p[group])) into[k] = (into[k] ?? 0) + v;
    }
    t.cpuUs += p.cpuUs;
    t.storage.reads += p.storage.reads;
    t.storage.writes += p.storage.writes;
    if (p.storage.bytes !== null) t.storage.bytes = p.storage.bytes;
  }
  return t;
}
