/**
 * @module logs/app-log
 * The per-app log app authors read: console output and limit events of their requests, each line
 * with its request (and delivery) id. Kept in memory, a bounded ring per app and a bounded number
 * of apps (least recently written dropped first).
 */

export interface AppLogEntry {
  seq: number;
  at: string;
  appId: string;
  version: number | null;
  requestId: string;
  deliveryId: string | null;
  kind: string;
  level: string;
  message: string;
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
