/**
 * @module supervisor/reports
 * What a finished request leaves behind: its CPU and outcome in the metrics (label children cached
 * per app and kind: looking them up by labels on every request costs more than the request's own
 * bookkeeping), cold starts, and its lines in the app's log: what the guest logged, then one
 * `request` line (label, outcome, status, CPU, wall time, outbound calls).
 *
 * A request that answered a 5xx counts as `error`, in the metrics and in the log: the SDK turns a
 * handler that throws into a 500 of its own, so "the guest threw" reaches the runtime that way.
 */
import type { LogError } from '@platform/sdk';
import type { AppLogEntry, AppLogInput, RequestSummary } from '../logs/app-log.ts';
import { createRedactor, type Redactor } from '../logs/redact.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Outcome, RunReport } from '../protocol/messages.ts';
import type { UsageMeter } from '../usage/meter.ts';
import type { Pending } from './pending.ts';

type Child<T extends { labels: (...v: string[]) => unknown }> = ReturnType<T['labels']>;

/** Where log lines go: the node's in-memory log, and the shipper when there is a control plane. */
export type LogSink = (lines: AppLogInput[]) => void;

/** What the supervisor knows of a request beyond its report. */
export interface Finished {
  httpStatus: number | null;
  outbound: number;
}

const ERROR_LEVELS = new Set(['error', 'limit']);

/** The outcome as counted: a 5xx answer is an error even when the guest returned it normally. */
export function countedOutcome(outcome: Outcome, httpStatus: number | null): Outcome {
  return outcome === 'ok' && httpStatus !== null && httpStatus >= 500 ? 'error' : outcome;
}

export function createReports(deps: { metrics: Metrics; sink: LogSink; now: () => number; usage?: UsageMeter | null }) {
  // app → kind (→ outcome) → label child: nested maps, so no key string is built per request.
  const cpu = new Map<string, Map<string, Child<Metrics['requestCpu']>>>();
  const outcomes = new Map<string, Map<string, Child<Metrics['requests']>>>();
  // One redactor per version spec (the spec object lives as long as its version is in use).
  const redactors = new WeakMap<object, Redactor>();
  const MAX_APPS = 10_000;
  const cached = <C>(map: Map<string, Map<string, C>>, app: string, key: string, make: () => C): C => {
    let byKey = map.get(app);
    if (byKey === undefined) {
      if (map.size >= MAX_APPS) map.clear();
      byKey = new Map();
      map.set(app, byKey);
    }
    let c = byKey.get(key);
    if (c === undefined) {
      c = make();
      byKey.set(key, c);
    }
    return c;
  };
  const redactorOf = (p: Pending): Redactor => {
    let r = redactors.get(p.spec);
    if (r === undefined) {
      r = createRedactor(p.spec.redact);
      redactors.set(p.spec, r);
    }
    return r;
  };
  const lineOf = (p: Pending, at: number, level: string, status: AppLogEntry['status'], message: string, error?: LogError): AppLogInput => ({
    at: new Date(at).toISOString(), appId: p.meta.appId, version: p.meta.version, requestId: p.job.id, deliveryId: p.meta.deliveryId,
    installId: p.meta.installId, kind: p.meta.kind, level, status, message, ...(error === undefined ? {} : { error }),
  });

  return {
    record(p: Pending, report: RunReport, finished: Finished): void {
      const { metrics } = deps;
      const { meta } = p;
      const outcome = countedOutcome(report.outcome, finished.httpStatus);
      deps.usage?.request(meta, outcome, report.cpuMs);
      cached(cpu, meta.appId, meta.kind, () => metrics.requestCpu.labels(meta.appId, meta.kind)).observe(report.cpuMs / 1000);
      cached(outcomes, meta.appId, `${meta.kind} ${outcome}`, () => metrics.requests.labels(meta.appId, meta.kind, outcome)).inc();
      if (report.coldStartMs !== null) {
        metrics.coldStarts.inc({ app: meta.appId });
        metrics.coldStartSeconds.observe(report.coldStartMs / 1000);
      }
      const failed = outcome !== 'ok';
      const lines = report.logs.map((l) => lineOf(p, l.at, l.level, failed || ERROR_LEVELS.has(l.level) ? 'error' : 'ok', l.message, l.error));
      const t = deps.now();
      if (report.droppedLogs > 0) lines.push(lineOf(p, t, 'warn', failed ? 'error' : 'ok', `${report.droppedLogs} more log lines of this request were dropped (cap per request)`));
      const redact = redactorOf(p);
      const request: RequestSummary = {
        label: redact(meta.label), outcome, httpStatus: finished.httpStatus, cpuMs: report.cpuMs, wallMs: report.wallMs, outbound: finished.outbound,
      };
      lines.push({ ...lineOf(p, t, 'request', failed ? 'error' : 'ok', requestMessage(request)), request });
      if (p.profile !== null) attachProfile(lines, p.profile);
      deps.sink(lines);
    },
    /** One outbound call of the request that went out, with its bytes (usage counts). */
    egress(p: Pending, bytesOut: number, bytesIn: number): void {
      deps.usage?.egress(p.meta, bytesOut, bytesIn);
    },
    /** A line of the platform's own in the app's log (quarantine, blocked egress), redacted like the guest's. */
    note(p: Pending, level: string, message: string): void {
      deps.sink([lineOf(p, deps.now(), level, ERROR_LEVELS.has(level) ? 'error' : 'ok', redactorOf(p)(message))]);
    },
  };
}

/** The profile goes with the request's last limit line (the CPU stop, with the guest's stack). */
function attachProfile(lines: AppLogInput[], profile: string): void {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i]!.level === 'limit') {
      lines[i] = { ...lines[i]!, profile };
      return;
    }
  }
}

/** `GET /hello → 500 error · cpu 1.2 ms · wall 3 ms · 0 outbound` */
function requestMessage(r: RequestSummary): string {
  const status = r.httpStatus === null ? r.outcome : `${r.httpStatus}${r.outcome === 'ok' ? '' : ` ${r.outcome}`}`;
  return `${r.label} → ${status} · cpu ${r.cpuMs} ms · wall ${r.wallMs} ms · ${r.outbound} outbound`;
}

export type Reports = ReturnType<typeof createReports>;
