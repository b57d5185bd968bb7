/**
 * @module telemetry/log-records
 * Log lines as OTLP log records. Two sources: the process's own pino lines (a destination stream
 * pino writes to beside stdout; the line is parsed once and its flat fields become attributes), and
 * hosted apps' lines as the supervisor's reports made them (already redacted of the version's secret
 * values there, like every copy of the app log). Each record carries the trace and span ids of the
 * request it belongs to when those are known.
 */
import { Writable } from 'node:stream';
import { ROOT_CONTEXT, SeverityNumber, trace, type Attributes, type Context, type SpanContext } from '@opentelemetry/api';
import type { Telemetry } from './sdk.ts';

/** pino's numeric levels. */
const PINO_SEVERITY: Record<number, [SeverityNumber, string]> = {
  10: [SeverityNumber.TRACE, 'TRACE'], 20: [SeverityNumber.DEBUG, 'DEBUG'], 30: [SeverityNumber.INFO, 'INFO'],
  40: [SeverityNumber.WARN, 'WARN'], 50: [SeverityNumber.ERROR, 'ERROR'], 60: [SeverityNumber.FATAL, 'FATAL'],
};
/** The app log's levels (logs/app-log.ts). */
const APP_SEVERITY: Record<string, [SeverityNumber, string]> = {
  debug: [SeverityNumber.DEBUG, 'DEBUG'], log: [SeverityNumber.INFO, 'INFO'], info: [SeverityNumber.INFO, 'INFO'], request: [SeverityNumber.INFO, 'INFO'],
  warn: [SeverityNumber.WARN, 'WARN'], error: [SeverityNumber.ERROR, 'ERROR'], limit: [SeverityNumber.ERROR, 'ERROR'],
};
const SKIPPED = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

const contextOf = (span: SpanContext | undefined): Context => (span === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, span));

/** One pino JSON line as a record: `msg` the body, primitive fields attributes, `err` as exception fields. */
export function emitPinoLine(logger: Telemetry['logger'], line: string, ctx: Context = ROOT_CONTEXT): void {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return;
  }
  const attributes: Attributes = {};
  for (const key in entry) {
    const value = entry[key];
    if (SKIPPED.has(key)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') attributes[key] = value;
  }
  const err = entry.err as { type?: unknown; message?: unknown } | undefined;
  if (typeof err?.type === 'string') attributes['exception.type'] = err.type;
  if (typeof err?.message === 'string') attributes['exception.message'] = err.message;
  const [severityNumber, severityText] = PINO_SEVERITY[entry.level as number] ?? [SeverityNumber.INFO, 'INFO'];
  logger.emit({
    severityNumber, severityText, body: typeof entry.msg === 'string' ? entry.msg : '', attributes,
    ...(typeof entry.time === 'number' ? { timestamp: entry.time } : {}), context: ctx,
  });
}

/**
 * A destination for pino (beside its usual one): every line it writes becomes a record.
 * `active` names the trace context of the code that logged (the control plane's request), if any.
 */
export function createLogStream(telemetry: Pick<Telemetry, 'logger'>, active: () => Context | undefined = () => undefined): Writable {
  return new Writable({
    // pino writes synchronously from the logging call, so `active()` is the logging code's context.
    write(chunk: Buffer | string, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') emitPinoLine(telemetry.logger, line, active() ?? ROOT_CONTEXT);
      done();
    },
  });
}

export interface AppLineLike {
  at: string; appId: string; version: number | null; requestId: string; deliveryId: string | null; installId: string | null;
  kind: string; level: string; status: 'ok' | 'error'; message: string; error?: { name?: string } | undefined;
}

/** Hosted apps' lines (redacted already) as records, with their run's trace ids when it was traced. */
export function emitAppLines(telemetry: Pick<Telemetry, 'logger'>, lines: readonly AppLineLike[], spanOf: (requestId: string) => SpanContext | undefined): void {
  for (const l of lines) {
    const [severityNumber, severityText] = APP_SEVERITY[l.level] ?? [SeverityNumber.INFO, 'INFO'];
    const attributes: Attributes = {
      'platform.log.source': 'app', 'platform.app.id': l.appId, 'platform.request.id': l.requestId, 'platform.run.kind': l.kind,
      'platform.log.level': l.level, 'platform.outcome': l.status,
    };
    if (l.version !== null) attributes['platform.app.version'] = l.version;
    if (l.installId !== null) attributes['platform.install.id'] = l.installId;
    if (l.deliveryId !== null) attributes['platform.delivery.id'] = l.deliveryId;
    if (typeof l.error?.name === 'string') attributes['exception.type'] = l.error.name;
    telemetry.logger.emit({ severityNumber, severityText, body: l.message, attributes, timestamp: new Date(l.at), context: contextOf(spanOf(l.requestId)) });
  }
}
