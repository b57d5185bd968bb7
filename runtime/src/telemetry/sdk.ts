/**
 * @module telemetry/sdk
 * One process's OpenTelemetry export, built from the official SDK packages and nothing global: a
 * tracer provider (batched spans), a meter provider whose only source is the prom-client registries
 * bridged in (prom-bridge.ts: the figures `/metrics` serves, not a second set of counters), and a
 * logger provider (batched log records), each with its OTLP/HTTP protobuf exporter at
 * `{endpoint}/v1/{signal}`. No global provider or context manager is registered, so a control plane
 * and a runtime node in one test process each export as themselves.
 */
import { type Logger as OtelLogger, type Tracer } from '@opentelemetry/api';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type Sampler,
} from '@opentelemetry/sdk-trace';
import type { Registry } from 'prom-client';
import type { TelemetryConfig } from './config.ts';
import { createPromBridge } from './prom-bridge.ts';

export interface Telemetry {
  readonly tracer: Tracer;
  /** Log records: the process's own lines (log-stream.ts) and hosted apps' lines (app-lines.ts). */
  readonly logger: OtelLogger;
  /** Adds a registry whose figures are exported with every metric export. */
  bridge(registry: Registry): void;
  /** Sends what is buffered now (tests; shutdown does it too). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const SCOPE = 'platform';

export function samplerOf(config: Pick<TelemetryConfig, 'sampler' | 'samplerRatio'>): Sampler {
  const ratio = new TraceIdRatioBasedSampler(config.samplerRatio);
  switch (config.sampler) {
    case 'always_on': return new AlwaysOnSampler();
    case 'always_off': return new AlwaysOffSampler();
    case 'traceidratio': return ratio;
    case 'parentbased_always_on': return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: ratio });
  }
}

/**
 * @example
 * const telemetry = createTelemetry(config.telemetry, { serviceName: 'runtime' });
 * telemetry.bridge(metrics.registry);
 */
export function createTelemetry(config: TelemetryConfig, options: { serviceName: string; instanceId?: string }): Telemetry {
  const resource = resourceFromAttributes({
    'service.name': config.serviceName ?? options.serviceName,
    ...(options.instanceId === undefined ? {} : { 'service.instance.id': options.instanceId }),
  });
  const exporterOptions = (signal: string) => ({ url: `${config.endpoint}/v1/${signal}`, headers: config.headers });
  const tracerProvider = new TracerProvider({
    resource, sampler: samplerOf(config), spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(exporterOptions('traces')) })],
  });
  const bridge = createPromBridge();
  const meterProvider = new MeterProvider({
    resource,
    readers: [new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter(exporterOptions('metrics')),
      exportIntervalMillis: config.metricIntervalMs,
      exportTimeoutMillis: Math.min(30_000, config.metricIntervalMs),
      metricProducers: [bridge.producer],
    })],
  });
  const loggerProvider = new LoggerProvider({ resource, processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter(exporterOptions('logs')) })] });
  return {
    tracer: tracerProvider.getTracer(SCOPE),
    logger: loggerProvider.getLogger(SCOPE),
    bridge: (registry) => bridge.add(registry),
    async flush() {
      await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush(), loggerProvider.forceFlush()]);
    },
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown(), loggerProvider.shutdown()]);
    },
  };
}
