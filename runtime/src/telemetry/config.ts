/**
 * @module telemetry/config
 * The OpenTelemetry export's settings, under the standard variable names (OTEL_EXPORTER_OTLP_ENDPOINT,
 * _HEADERS, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, _ARG, OTEL_METRIC_EXPORT_INTERVAL). The shape is
 * shared: the control plane's and the runtime node's config modules each parse it with the rest of
 * their environment, once. No endpoint: no export, and nothing of it is created.
 */
import { z } from 'zod';

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** `key1=value1,key2=value2`, values percent-encoded (the OTLP exporter specification's format). */
const headerList = z.string().transform((value, ctx) => {
  const out: Record<string, string> = {};
  for (const pair of value.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) {
      ctx.addIssue({ code: 'custom', message: 'expected key=value pairs separated by commas' });
      return z.NEVER;
    }
    try {
      out[pair.slice(0, at).trim().toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: 'a value is not valid percent-encoding' });
      return z.NEVER;
    }
  }
  return out;
});

export const TELEMETRY_ENV_SHAPE = {
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_EXPORTER_OTLP_HEADERS: headerList.optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).optional(),
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS).default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
};

/** README rows: name, default, description. */
export const TELEMETRY_ENV_DOCS = {
  OTEL_EXPORTER_OTLP_ENDPOINT: ['(unset: no export)', 'Base URL of an OTLP/HTTP collector (protobuf): traces go to `{endpoint}/v1/traces`, metrics to `/v1/metrics`, logs to `/v1/logs`. Unset: nothing is exported and no exporter is created.'],
  OTEL_EXPORTER_OTLP_HEADERS: ['(none)', 'Headers sent with every export, `key=value` pairs separated by commas (values percent-encoded), e.g. a collector\'s API key.'],
  OTEL_SERVICE_NAME: ['(`control-plane` or `runtime`)', 'The `service.name` resource attribute of what this process exports. Under `npm start` the runtime node exports as this name with `-runtime` after it.'],
  OTEL_TRACES_SAMPLER: ['parentbased_always_on', 'Which traces are kept: `always_on`, `always_off`, `traceidratio`, or the `parentbased_` forms (a runtime node follows the control plane\'s decision).'],
  OTEL_TRACES_SAMPLER_ARG: ['1', 'The ratio of the `traceidratio` samplers, 0 to 1.'],
  OTEL_METRIC_EXPORT_INTERVAL: ['60000', 'Milliseconds between metric exports (the same counters `/metrics` serves).'],
} as const satisfies Record<keyof typeof TELEMETRY_ENV_SHAPE, readonly [string, string]>;

export interface TelemetryConfig {
  endpoint: string;
  headers: Record<string, string>;
  serviceName: string | null;
  sampler: SamplerName;
  samplerRatio: number;
  metricIntervalMs: number;
}

type TelemetryEnv = z.output<z.ZodObject<typeof TELEMETRY_ENV_SHAPE>>;

/** The parsed variables as settings; null when no endpoint is set (export off). */
export function telemetryConfigOf(env: TelemetryEnv): TelemetryConfig | null {
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined) return null;
  return {
    endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, ''),
    headers: env.OTEL_EXPORTER_OTLP_HEADERS ?? {},
    serviceName: env.OTEL_SERVICE_NAME ?? null,
    sampler: env.OTEL_TRACES_SAMPLER,
    samplerRatio: env.OTEL_TRACES_SAMPLER_ARG,
    metricIntervalMs: env.OTEL_METRIC_EXPORT_INTERVAL,
  };
}
