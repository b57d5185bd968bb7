/**
 * @module telemetry/tracing
 * Spans of a runtime node, added by wrapping two of its parts (node.ts does it only when export is
 * on, so with export off nothing here runs): the supervisor's `run` (one SERVER span per guest run,
 * a child of the control plane's delivery when its `traceparent` came with it) and the egress
 * service's `fetch` (one CLIENT span per outbound call, a child of its run). The run's span context
 * rides on the run's egress context, which only the supervisor holds; never in a sandbox worker.
 *
 * Attributes are bounded and say nothing of what a member typed: app id, version, install id, kind,
 * outcome, status, and for egress the method and the host when it is on the app's allow-list.
 * No `traceparent` is added to the guest's outbound requests (docs/decisions/telemetry.md).
 *
 * The types are structural so that this folder imports no other folder of the runtime (they import
 * it: config/ reads its variables).
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type SpanContext } from '@opentelemetry/api';
import { contextFromTraceparent } from './propagation.ts';
import type { Telemetry } from './sdk.ts';

interface RunLike {
  job: { id: string };
  egress: { trace?: SpanContext | null; egressHosts: readonly string[] } | null;
  meta: { appId: string; version: number | null; installId: string | null; kind: string; traceparent?: string | null };
}
type RunResultLike =
  | { kind: 'response'; head: { status: number }; report: { outcome: string } | null }
  | { kind: 'error'; error: { status: number; tag?: string }; report: { outcome: string } | null };

const MAX_KEPT = 10_000;

/** The span contexts of runs in progress and lately ended, by request id (their app log lines come after). */
export function createRunSpans() {
  const kept = new Map<string, SpanContext>();
  return {
    get: (requestId: string): SpanContext | undefined => kept.get(requestId),
    set(requestId: string, span: SpanContext): void {
      kept.set(requestId, span);
      if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
    },
  };
}
export type RunSpans = ReturnType<typeof createRunSpans>;

/** `supervisor` with each run in a span, noted in `spans` by its request id. */
export function traceRuns<S extends { run(input: R): Promise<RunResultLike> }, R extends RunLike>(supervisor: S, telemetry: Pick<Telemetry, 'tracer'>, spans: RunSpans): S {
  const run = (input: R): Promise<RunResultLike> => {
    const { meta } = input;
    const attributes: Attributes = { 'platform.app.id': meta.appId, 'platform.run.kind': meta.kind };
    if (meta.version !== null) attributes['platform.app.version'] = meta.version;
    if (meta.installId !== null) attributes['platform.install.id'] = meta.installId;
    const span = telemetry.tracer.startSpan(`run ${meta.kind}`, { kind: SpanKind.SERVER, attributes }, contextFromTraceparent(meta.traceparent));
    const spanContext = span.spanContext();
    if (input.egress !== null) input.egress.trace = spanContext;
    spans.set(input.job.id, spanContext);
    return supervisor.run(input).then((result) => {
      const status = result.kind === 'response' ? result.head.status : result.error.status;
      const outcome = result.report?.outcome ?? (result.kind === 'response' ? 'ok' : 'error');
      span.setAttributes({ 'platform.outcome': outcome, 'http.response.status_code': status });
      if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      span.end();
      return result;
    });
  };
  return Object.assign(Object.create(supervisor) as S, { run });
}

interface EgressLike<Init, Result> {
  fetch(ctx: { appId: string; egressHosts: readonly string[]; platformOrigin: string | null; trace?: SpanContext | null }, init: Init, signal: AbortSignal): Promise<Result>;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The host when the app may call it (bounded: its allow-list), `platform` for the platform's own `/v0`, else `_other`. */
function hostOf(url: string, allowed: readonly string[], platformOrigin: string | null): string {
  const parsed = URL.parse(url);
  if (parsed !== null && parsed.origin === platformOrigin) return 'platform';
  const host = parsed?.hostname.toLowerCase() ?? '';
  return allowed.includes(host) ? host : '_other';
}

/** `egress` with each outbound call in a CLIENT span under its run's span. */
export function traceEgress<E extends EgressLike<I, O>, I extends { url: string; method: string }, O extends { status: number }>(egress: E, telemetry: Pick<Telemetry, 'tracer'>): E {
  const fetch = (ctx: Parameters<E['fetch']>[0], init: I, signal: AbortSignal): Promise<O> => {
    const parent = ctx.trace == null ? contextFromTraceparent(null) : trace.setSpanContext(contextFromTraceparent(null), ctx.trace);
    const method = init.method.toUpperCase();
    const host = hostOf(init.url, ctx.egressHosts, ctx.platformOrigin);
    const span = telemetry.tracer.startSpan(`egress ${method}`, {
      kind: SpanKind.CLIENT, attributes: { 'platform.app.id': ctx.appId, 'http.request.method': METHODS.has(method) ? method : '_OTHER', 'server.address': host },
    }, parent);
    return egress.fetch(ctx, init, signal).then((r) => {
      span.setAttribute('http.response.status_code', r.status);
      if (r.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      return r;
    }, (err: unknown) => {
      span.setAttribute('platform.outcome', typeof (err as { reason?: unknown }).reason === 'string' ? 'denied' : 'failed');
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw err;
    });
  };
  return Object.assign(Object.create(egress) as E, { fetch });
}
