/**
 * @module apps/storage/metrics
 * Operator metrics of app storage, per app: operations by kind, bytes written net, failed checks
 * (conflicts) and refusals by limit. Labels are bounded: the app id (at most `MAX_APPS` distinct
 * ones per process, then `_other`), the operation (three) and the limit (the rows of LIMITS.storage).
 */
import { Counter, type Registry } from 'prom-client';
import { isPlatformError } from '@platform/sdk';

export const MAX_APPS = 500;
const OTHER = '_other';

export interface StorageMetrics {
  operation(appId: string, op: 'get' | 'list' | 'commit'): void;
  /** The net change of stored bytes a commit made (negative when it freed some). */
  bytes(appId: string, delta: number): void;
  refusal(appId: string, limit: string): void;
  /** Counts a failed commit by its cause: a failed check is a conflict, a limit or quota a refusal. */
  refusedBy(appId: string, err: unknown): void;
}

export function createStorageMetrics(registry: Registry): StorageMetrics {
  const seen = new Set<string>();
  const app = (id: string) => {
    if (seen.has(id)) return id;
    if (seen.size >= MAX_APPS) return OTHER;
    seen.add(id);
    return id;
  };
  const ops = new Counter({ name: 'platform_storage_operations_total', help: 'App storage calls by app and operation (get, list, commit)', labelNames: ['app', 'op'] as const, registers: [registry] });
  const written = new Counter({ name: 'platform_storage_bytes_written_total', help: 'Bytes of app storage added by commits, by app (net growth of each commit)', labelNames: ['app'] as const, registers: [registry] });
  const freed = new Counter({ name: 'platform_storage_bytes_freed_total', help: 'Bytes of app storage freed by commits, by app', labelNames: ['app'] as const, registers: [registry] });
  const conflicts = new Counter({ name: 'platform_storage_conflicts_total', help: 'App storage commits refused because a check failed, by app', labelNames: ['app'] as const, registers: [registry] });
  const refusals = new Counter({ name: 'platform_storage_refusals_total', help: 'App storage calls refused by a limit or quota, by app and limit (a row of LIMITS.storage)', labelNames: ['app', 'limit'] as const, registers: [registry] });

  const refusal = (appId: string, limit: string) => refusals.inc({ app: app(appId), limit });
  return {
    operation: (appId, op) => ops.inc({ app: app(appId), op }),
    bytes(appId, delta) {
      if (delta > 0) written.inc({ app: app(appId) }, delta);
      if (delta < 0) freed.inc({ app: app(appId) }, -delta);
    },
    refusal,
    refusedBy(appId, err) {
      if (!isPlatformError(err)) return;
      if (err.tag === 'PlatformAppStorageCheckFailedError') conflicts.inc({ app: app(appId) });
      const limit = err.fields.limit;
      if (typeof limit === 'string') refusal(appId, limit);
    },
  };
}
