/**
 * @module core/telemetry/telemetry
 * The control plane's OpenTelemetry export (OTEL_* settings; null when off, and then none of this is
 * wired in). A member's request gets a SERVER span (its trace is new: a `traceparent` from outside
 * is not trusted here, at the edge); the deliveries it causes get a span each, and the call to the
 * runtime node a CLIENT span whose W3C `traceparent` rides on the internal request, so the node's
 * run and its outbound calls join the same trace. A lifecycle event's delivery starts a trace of its
 * own (one trace per event). The trace context is carried by an AsyncLocalStorage of this module,
 * not a global context manager, so two control planes in one process never mix.
 *
 * Attributes are bounded: method, route pattern, status, app id and version, install id, delivery
 * type and class, outcome; never a body, a query or a header value.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Writable } from 'node:stream';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import { createLogStream, createTelemetry, injectTraceContext, type Telemetry } from '@platform/runtime/telemetry';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Config } from '../config/config.ts';

/** What a delivery target is, as far as tracing needs (deliveries/targets/target.ts). */
interface TargetLike<D, O> {
  send(delivery: D): Promise<O>;
}
interface DeliveryLike {
  type: string;
  deliveryClass: string;
  app: { id: string; version: number; hosting: string };
  install: { id: string };
}
interface OutcomeLike { ok: boolean; status?: number; failure?: string }

export interface ControlPlaneTelemetry {
  readonly sdk: Telemetry;
  /** Hono middleware: the request's SERVER span, current for everything the request runs. */
  readonly middleware: MiddlewareHandler;
  /** A pino destination (beside stdout): every line as a log record, with the request's trace ids. */
  readonly logStream: Writable;
  /** `fetch` to runtime nodes with a CLIENT span and `traceparent` when a trace is current. */
  tracingFetch(inner: typeof fetch): typeof fetch;
  /** A delivery target whose every delivery is a span (a new trace for lifecycle events). */
  traceDeliveries<D extends DeliveryLike, O extends OutcomeLike>(target: TargetLike<D, O>): TargetLike<D, O>;
  shutdown(): Promise<void>;
}

function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const path = routePath(c, -1);
  return path === '' || path.endsWith('*') ? 'unmatched' : path;
}

/**
 * @example
 * const telemetry = openTelemetry(config);
 * const logger = createLogger(config, undefined, undefined, telemetry?.logStream);
 */
export function openTelemetry(config: Pick<Config, 'telemetry'>, serviceName = 'control-plane'): ControlPlaneTelemetry | null {
  if (config.telemetry === null) return null;
  const sdk = createTelemetry(config.telemetry, { serviceName });
  const { tracer } = sdk;
  const current = new AsyncLocalStorage<Context>();

  const middleware: MiddlewareHandler = async (c, next) => {
    const method = c.req.method;
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, ROOT_CONTEXT);
    try {
      await current.run(trace.setSpan(ROOT_CONTEXT, span), next);
    } finally {
      const route = routeOf(c);
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': c.res.status });
      if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };

  const tracingFetch = (inner: typeof fetch): typeof fetch => {
    const traced = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
      const parent = current.getStore();
      // Calls outside any traced work (bundle uploads, manifest reads at start) stay as they are.
      if (parent === undefined) return inner(input, init);
      const span = tracer.startSpan(`${init.method ?? 'GET'} runtime`, { kind: SpanKind.CLIENT, attributes: { 'http.request.method': init.method ?? 'GET' } }, parent);
      const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
      injectTraceContext(trace.setSpan(parent, span), headers);
      return inner(input, { ...init, headers }).then((res) => {
        span.setAttribute('http.response.status_code', res.status);
        if (res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        return res;
      }, (err: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'unreachable' });
        span.end();
        throw err;
      });
    };
    return traced as typeof fetch;
  };

  const traceDeliveries = <D extends DeliveryLike, O extends OutcomeLike>(target: TargetLike<D, O>): TargetLike<D, O> => ({
    send(d) {
      // A lifecycle delivery runs in an outbox loop, which may have been woken inside some request:
      // that request is not its cause, so the event's delivery begins a trace of its own.
      const parent = d.deliveryClass === 'lifecycle' ? ROOT_CONTEXT : current.getStore() ?? ROOT_CONTEXT;
      const span = tracer.startSpan(`deliver ${d.type}`, {
        kind: SpanKind.PRODUCER,
        attributes: {
          'platform.app.id': d.app.id, 'platform.app.version': d.app.version, 'platform.app.hosting': d.app.hosting,
          'platform.install.id': d.install.id, 'platform.delivery.type': d.type, 'platform.delivery.class': d.deliveryClass,
        },
      }, parent);
      return current.run(trace.setSpan(parent, span), () => target.send(d)).then((outcome) => {
        span.setAttribute('platform.outcome', outcome.ok ? 'ok' : outcome.failure ?? 'failed');
        if (outcome.status !== undefined) span.setAttribute('http.response.status_code', outcome.status);
        if (!outcome.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.failure ?? 'failed' });
        span.end();
        return outcome;
      });
    },
  });

  return {
    sdk, middleware, tracingFetch, traceDeliveries,
    logStream: createLogStream(sdk, () => current.getStore()),
    shutdown: () => sdk.shutdown(),
  };
}
