/**
 * @module logs/app-log
 * The per-app log app authors read: console output, uncaught errors, limit events and one `request`
 * line per finished request, each line with its request (and delivery, install) id. Kept in
 * memory, a bounded ring per app and a bounded number of apps (least recently written dropped
 * first); the same lines are shipped to the control plane (logs/shipper.ts).
 */

import type { LogError } from '@platform/sdk';

/** What the `request` line of a finished request says about it. */
export interface RequestSummary {
  /** `GET /path` for routes, the delivery type (`post.created`, `block.action`) or MCP method. */
  label: string;
  outcome: 'ok' | 'error' | 'cpu_limit' | 'memory_limit' | 'deadline' | 'crashed';
  /** The HTTP status answered (the guest's, or the runtime's error); null when none was. */
  httpStatus: number | null;
  cpuMs: number;
  wallMs: number;
  /** Outbound requests the guest sent (redirect hops included). */
  outbound: number;
}

export interface AppLogEntry {
  seq: number;
  at: string;
  appId: string;
  version: number | null;
  requestId: string;
  deliveryId: string | null;
  installId: string | null;
  kind: string;
  /** `log|info|warn|error|debug` (console), `limit` (limit events), `request` (one per request). */
  level: string;
  /** `error` when the line's request failed (an error outcome or a 5xx) or the line is an error or limit. */
  status: 'ok' | 'error';
  message: string;
  /** The error the line is about (an uncaught error, an Error the app logged, where a CPU stop caught it), frames mapped to the author's sources. */
  error?: LogError;
  request?: RequestSummary;
  /** On the `limit` line of a request stopped at its CPU budget, when it was profiled: `.cpuprofile` JSON (shipped, not kept in memory). */
  profile?: string;
}

export type AppLogInput = Omit<AppLogEntry, 'seq'>;

export function createAppLog(options: { linesPerApp: number; maxApps?: number }) {
  const maxApps = options.maxApps ?? 2_000;
  const rings = new Map<string, AppLogEntry[]>();
  let seq = 0;
  return {
    append(entries: AppLogInput[]): void {
      for (const e of entries) {
        let ring = rings.get(e.appId);
        if (ring === undefined) ring = [];
        else rings.delete(e.appId); // re-insert: most recently written last
        rings.set(e.appId, ring);
        ring.push({ ...e, seq: ++seq });
        if (ring.length > options.linesPerApp) ring.splice(0, ring.length - options.linesPerApp);
        if (rings.size > maxApps) rings.delete(rings.keys().next().value as string);
      }
    },
    /** Lines of `appId` after sequence number `after`, oldest first. */
    read(appId: string, after = 0, limit = options.linesPerApp): AppLogEntry[] {
      return (rings.get(appId) ?? []).filter((e) => e.seq > after).slice(0, limit);
    },
  };
}

export type AppLog = ReturnType<typeof createAppLog>;
