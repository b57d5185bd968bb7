/**
 * @module telemetry/propagation
 * W3C trace context (`traceparent`, `tracestate`) on the platform's own internal requests, through
 * the official propagator, with no global propagator registered.
 */
import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

const propagator = new W3CTraceContextPropagator();
const getter = {
  get: (carrier: Record<string, string | undefined>, key: string) => carrier[key],
  keys: (carrier: Record<string, string | undefined>) => Object.keys(carrier),
};
const setter = { set: (carrier: Record<string, string>, key: string, value: string) => { carrier[key] = value; } };

/** The context a `traceparent` names; the root context when there is none or it is malformed. */
export function contextFromTraceparent(traceparent: string | null | undefined, tracestate?: string): Context {
  if (traceparent == null) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, { traceparent, ...(tracestate === undefined ? {} : { tracestate }) }, getter);
}

/** Adds `traceparent` (and `tracestate`) for `ctx` to `headers`. */
export function injectTraceContext(ctx: Context, headers: Record<string, string>): void {
  propagator.inject(ctx, headers, setter);
}
