/**
 * @module telemetry
 * OpenTelemetry export of a process (control plane or runtime node): the SDK set up from the
 * OTEL_* settings, the prom-client bridge, W3C trace context, the runtime's span wrappers and the
 * log-record sources. `@platform/runtime/telemetry`; its settings alone are `@platform/runtime/telemetry-config`.
 */
export { createTelemetry, samplerOf, type Telemetry } from './sdk.ts';
export { createPromBridge } from './prom-bridge.ts';
export { contextFromTraceparent, injectTraceContext } from './propagation.ts';
export { createRunSpans, traceEgress, traceRuns, type RunSpans } from './tracing.ts';
export { createLogStream, emitAppLines, emitPinoLine } from './log-records.ts';
export type { TelemetryConfig } from './config.ts';
