/**
 * @module telemetry/prom-bridge
 * The prom-client figures as OpenTelemetry metric data: a `MetricProducer` the SDK's periodic reader
 * asks at every export, which reads the same registries `/metrics` serves (`getMetricsAsJSON`), so the
 * two views can never drift apart. Counters become monotonic cumulative sums, gauges gauges, and
 * histograms explicit-bucket histograms (prom-client's cumulative `le` buckets turned into per-bucket
 * counts); summaries (none of ours) are left out. Labels become attributes as they are.
 */
import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';
import { emptyResource } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType, type MetricData, type MetricProducer } from '@opentelemetry/sdk-metrics';
import type { Registry } from 'prom-client';

type PromMetric = Awaited<ReturnType<Registry['getMetricsAsJSON']>>[number];
type PromValue = PromMetric['values'][number] & { metricName?: string };

const SCOPE = { name: 'prom-client' };

function attributesOf(labels: PromValue['labels'], without?: string): Attributes {
  const out: Attributes = {};
  for (const key in labels) if (key !== without) out[key] = labels[key];
  return out;
}

function descriptor(m: PromMetric) {
  return { name: m.name, description: m.help, unit: '', valueType: ValueType.DOUBLE };
}

interface Buckets { attributes: Attributes; bounds: number[]; cumulative: number[]; sum: number; count: number }

/** One histogram point per label set: prom-client lists `_bucket` (cumulative, with `le`), `_sum` and `_count` values. */
function histogramPoints(values: PromValue[], startTime: HrTime, endTime: HrTime) {
  const sets = new Map<string, Buckets>();
  for (const v of values) {
    const attributes = attributesOf(v.labels, 'le');
    const key = JSON.stringify(attributes);
    let set = sets.get(key);
    if (set === undefined) sets.set(key, set = { attributes, bounds: [], cumulative: [], sum: 0, count: 0 });
    if (v.metricName?.endsWith('_bucket') === true) {
      if (v.labels.le !== '+Inf') {
        set.bounds.push(Number(v.labels.le));
        set.cumulative.push(v.value);
      }
    } else if (v.metricName?.endsWith('_sum') === true) set.sum = v.value;
    else if (v.metricName?.endsWith('_count') === true) set.count = v.value;
  }
  return [...sets.values()].map((s) => {
    const counts = s.cumulative.map((c, i) => c - (i === 0 ? 0 : s.cumulative[i - 1]!));
    counts.push(s.count - (s.cumulative.at(-1) ?? 0));
    return { startTime, endTime, attributes: s.attributes, value: { buckets: { boundaries: s.bounds, counts }, sum: s.sum, count: s.count } };
  });
}

function toMetricData(m: PromMetric, startTime: HrTime, endTime: HrTime): MetricData | null {
  const values = m.values as PromValue[];
  const points = () => values.map((v) => ({ startTime, endTime, attributes: attributesOf(v.labels), value: v.value }));
  const type = String(m.type);
  if (type === 'counter') {
    return { descriptor: descriptor(m), aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.SUM, isMonotonic: true, dataPoints: points() };
  }
  if (type === 'gauge') return { descriptor: descriptor(m), aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.GAUGE, dataPoints: points() };
  if (type === 'histogram') {
    return { descriptor: descriptor(m), aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.HISTOGRAM, dataPoints: histogramPoints(values, startTime, endTime) };
  }
  return null;
}

/**
 * @example
 * const bridge = createPromBridge();
 * bridge.add(metrics.registry);
 * new PeriodicExportingMetricReader({ exporter, metricProducers: [bridge.producer] });
 */
export function createPromBridge(now: () => number = Date.now) {
  const registries: Registry[] = [];
  // Cumulative series start when the process began counting (near enough: when the bridge was made).
  const startTime = millisToHrTime(now());
  const producer: MetricProducer = {
    async collect() {
      const endTime = millisToHrTime(now());
      const metrics: MetricData[] = [];
      for (const registry of registries) {
        for (const m of await registry.getMetricsAsJSON()) {
          const data = toMetricData(m, startTime, endTime);
          if (data !== null && data.dataPoints.length > 0) metrics.push(data);
        }
      }
      return { resourceMetrics: { resource: emptyResource(), scopeMetrics: [{ scope: SCOPE, metrics }] }, errors: [] };
    },
  };
  return {
    producer,
    add(registry: Registry): void {
      if (!registries.includes(registry)) registries.push(registry);
    },
  };
}
