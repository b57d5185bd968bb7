/**
 * @module usage/meter
 * The node's exact usage counters, in memory: per (app, version, install, minute), requests by
 * outcome, the guest's CPU in µs, and outbound calls with their bytes both ways. Counted from the
 * supervisor's own figures as each request ends (not from log lines, which the shipper may drop
 * under an app's rate), and taken away whole by the usage shipper (usage/shipper.ts) as deltas.
 * One map lookup and a few additions per request; the key is one short string.
 */
import type { Outcome } from '../protocol/messages.ts';

/** What a count belongs to: the request's app, version and install (null: a route, no install). */
export interface MeterKey {
  appId: string;
  version: number | null;
  installId: string | null;
}

/** One key's counts over one minute, as shipped (`minute`: its start, ms since the epoch). */
export interface MeterRow extends MeterKey {
  minute: number;
  requestsOk: number;
  requestsError: number;
  requestsCpuLimit: number;
  requestsMemoryLimit: number;
  requestsDeadline: number;
  requestsCrashed: number;
  cpuUs: number;
  egressCalls: number;
  egressBytesOut: number;
  egressBytesIn: number;
}

type RequestField = 'requestsOk' | 'requestsError' | 'requestsCpuLimit' | 'requestsMemoryLimit' | 'requestsDeadline' | 'requestsCrashed';

const OUTCOME_FIELD: Record<Outcome, RequestField> = {
  ok: 'requestsOk', error: 'requestsError', cpu_limit: 'requestsCpuLimit', memory_limit: 'requestsMemoryLimit', deadline: 'requestsDeadline', crashed: 'requestsCrashed',
};

export interface UsageMeter {
  /** One finished request, counted in the minute it ended. */
  request(key: MeterKey, outcome: Outcome, cpuMs: number): void;
  /** One outbound call that went out (answered or failed on the way), with the bytes sent and received. */
  egress(key: MeterKey, bytesOut: number, bytesIn: number): void;
  /** The rows counted since the last take, handed over; the meter starts empty again. */
  take(): MeterRow[];
  /** Rows held now. */
  readonly size: number;
}

export function createUsageMeter(now: () => number): UsageMeter {
  let rows = new Map<string, MeterRow>();
  const rowOf = (k: MeterKey): MeterRow => {
    const minute = Math.floor(now() / 60_000) * 60_000;
    const id = `${k.appId}\n${k.version ?? ''}\n${k.installId ?? ''}\n${minute}`;
    let row = rows.get(id);
    if (row === undefined) {
      row = {
        appId: k.appId, version: k.version, installId: k.installId, minute,
        requestsOk: 0, requestsError: 0, requestsCpuLimit: 0, requestsMemoryLimit: 0, requestsDeadline: 0, requestsCrashed: 0,
        cpuUs: 0, egressCalls: 0, egressBytesOut: 0, egressBytesIn: 0,
      };
      rows.set(id, row);
    }
    return row;
  };
  return {
    request(k, outcome, cpuMs) {
      const row = rowOf(k);
      row[OUTCOME_FIELD[outcome]]++;
      // The report's CPU is in milliseconds with fractions; µs are whole, so sums stay exact.
      row.cpuUs += Math.round(cpuMs * 1000);
    },
    egress(k, bytesOut, bytesIn) {
      const row = rowOf(k);
      row.egressCalls++;
      row.egressBytesOut += bytesOut;
      row.egressBytesIn += bytesIn;
    },
    take() {
      const taken = [...rows.values()];
      rows = new Map();
      return taken;
    },
    get size() { return rows.size; },
  };
}
