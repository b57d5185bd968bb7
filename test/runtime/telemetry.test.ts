/**
 * The OTLP export's parts that need no collector: the OTEL_* settings as both config modules parse
 * them, the prom-client bridge's conversion (the exported numbers are the registry's, buckets turned
 * from cumulative to per-bucket), and the samplers the standard names choose.
 */
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { AggregationTemporality, DataPointType } from '@opentelemetry/sdk-metrics';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { loadConfig as loadControlPlaneConfig } from '@platform/control-plane';
import { loadConfig } from '@platform/runtime';
import { createPromBridge, samplerOf } from '@platform/runtime/telemetry';

const SECRET = { RUNTIME_SECRET: 'x'.repeat(16) };

describe('OTEL_* settings', () => {
  it('are off without an endpoint, in both processes', () => {
    expect(loadConfig(SECRET).telemetry).toBeNull();
    expect(loadControlPlaneConfig({}).telemetry).toBeNull();
  });

  it('parse the standard names: endpoint, headers (percent-encoded), service name, sampler and its ratio', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example.com:4318/', OTEL_EXPORTER_OTLP_HEADERS: 'X-Api-Key=a%3Db%20c, tenant = t1',
      OTEL_SERVICE_NAME: 'edge-cp', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25',
    };
    const expected = { endpoint: 'https://collector.example.com:4318', headers: { 'x-api-key': 'a=b c', tenant: 't1' }, serviceName: 'edge-cp', sampler: 'parentbased_traceidratio', samplerRatio: 0.25, metricIntervalMs: 60_000 };
    expect(loadConfig({ ...SECRET, ...env }).telemetry).toEqual(expected);
    expect(loadControlPlaneConfig(env).telemetry).toEqual(expected);
  });

  it('refuse what is not the standard form', () => {
    expect(() => loadConfig({ ...SECRET, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS/);
    expect(() => loadConfig({ ...SECRET, OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://c:4317' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => loadControlPlaneConfig({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => loadControlPlaneConfig({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  });
});

describe('the prom-client bridge', () => {
  it('exports the registry\'s own numbers: counters as monotonic sums, gauges, histograms per bucket', async () => {
    const registry = new Registry();
    const counter = new Counter({ name: 'jobs_total', help: 'Jobs', labelNames: ['app'], registers: [registry] });
    const gauge = new Gauge({ name: 'live', help: 'Live', registers: [registry] });
    const histogram = new Histogram({ name: 'took_seconds', help: 'Took', labelNames: ['kind'], buckets: [0.01, 0.1], registers: [registry] });
    counter.inc({ app: 'app_1' }, 3);
    gauge.set(7);
    for (const v of [0.003, 0.004, 0.02, 5]) histogram.observe({ kind: 'route' }, v);
    const bridge = createPromBridge(() => 1_700_000_000_000);
    bridge.add(registry);
    bridge.add(registry);
    const { resourceMetrics } = await bridge.producer.collect();
    const metrics = resourceMetrics.scopeMetrics[0]!.metrics;
    expect(metrics.map((m) => m.descriptor.name)).toEqual(['jobs_total', 'live', 'took_seconds']);
    expect(metrics[0]).toMatchObject({ dataPointType: DataPointType.SUM, isMonotonic: true, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPoints: [{ attributes: { app: 'app_1' }, value: 3 }] });
    expect(metrics[1]).toMatchObject({ dataPointType: DataPointType.GAUGE, dataPoints: [{ value: 7 }] });
    expect(metrics[2]).toMatchObject({
      dataPointType: DataPointType.HISTOGRAM,
      dataPoints: [{ attributes: { kind: 'route' }, value: { buckets: { boundaries: [0.01, 0.1], counts: [2, 1, 1] }, count: 4 } }],
    });
    expect((metrics[2]!.dataPoints[0]!.value as { sum: number }).sum).toBeCloseTo(5.027);
    counter.inc({ app: 'app_1' });
    const again = (await bridge.producer.collect()).resourceMetrics.scopeMetrics[0]!.metrics[0]!;
    expect(again.dataPoints[0]!.value).toBe(4);
  });
});

describe('samplers by their standard names', () => {
  const decide = (name: Parameters<typeof samplerOf>[0]['sampler'], ratio: number, parentSampled?: boolean) => {
    const parent = parentSampled === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: parentSampled ? TraceFlags.SAMPLED : TraceFlags.NONE, isRemote: true,
    });
    return samplerOf({ sampler: name, samplerRatio: ratio }).shouldSample(parent, 'ffffffffffffffffffffffffffffffff', 'x', SpanKind.SERVER, {}, []).decision;
  };

  it('keep all, none, a ratio, or follow the parent', () => {
    expect(decide('always_on', 0)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide('always_off', 1)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide('traceidratio', 0)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide('traceidratio', 1)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide('parentbased_traceidratio', 0, true)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide('parentbased_always_on', 1, false)).toBe(SamplingDecision.NOT_RECORD);
  });
});
