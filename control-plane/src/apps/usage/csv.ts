/**
 * @module apps/usage/csv
 * A usage series as CSV (`format=csv`): a header row, then one row per bucket, oldest first. Every
 * cell is a number or an ISO time, so nothing needs quoting; an empty cell is a storage bucket
 * without a sample.
 */
import type { UsagePoint } from './schemas.ts';

export const USAGE_CSV_COLUMNS = [
  'at', 'requests_ok', 'requests_error', 'requests_cpu_limit', 'requests_memory_limit', 'requests_deadline', 'requests_crashed',
  'deliveries_succeeded', 'deliveries_failed', 'cpu_us', 'egress_calls', 'egress_bytes_out', 'egress_bytes_in',
  'storage_bytes', 'storage_reads', 'storage_writes', 'queue_sent', 'queue_delivered',
] as const;

const cells = (p: UsagePoint): Array<string | number> => [
  p.at, p.requests.ok, p.requests.error, p.requests.cpuLimit, p.requests.memoryLimit, p.requests.deadline, p.requests.crashed,
  p.deliveries.succeeded, p.deliveries.failed, p.cpuUs, p.egress.calls, p.egress.bytesOut, p.egress.bytesIn,
  p.storage.bytes ?? '', p.storage.reads, p.storage.writes, p.queue.sent, p.queue.delivered,
];

export function usageCsv(points: readonly UsagePoint[]): string {
  return [USAGE_CSV_COLUMNS.join(','), ...points.map((p) => cells(p).join(','))].join('\r\n') + '\r\n';
}
