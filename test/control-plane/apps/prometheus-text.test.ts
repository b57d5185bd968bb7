/**
 * The operator page's reader of the Prometheus text format: samples with escaped label values,
 * comments and unparseable lines skipped, and histogram quantiles interpolated as Prometheus does.
 */
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { histogramQuantile, parseSamples } from '../../../control-plane/src/apps/operator-metrics/prometheus-text.ts';

describe('parseSamples', () => {
  it('reads names, labels (escapes included) and values, skipping comments and broken lines', () => {
    const text = '# HELP x A counter\n# TYPE x counter\nx{app="a\\"b",host="h\\\\1"} 3\nx 4.5\nnot a sample line\ny{le="+Inf"} +Inf\n';
    expect(parseSamples(text)).toEqual([
      { name: 'x', labels: { app: 'a"b', host: 'h\\1' }, value: 3 },
      { name: 'x', labels: {}, value: 4.5 },
      { name: 'y', labels: { le: '+Inf' }, value: Infinity },
    ]);
    expect(parseSamples(text, new Set(['y']))).toHaveLength(1);
  });

  it('reads what prom-client writes, and interpolates quantiles within the bucket', async () => {
    const registry = new Registry();
    const h = new Histogram({ name: 'cpu_seconds', help: 'h', labelNames: ['app'], buckets: [0.01, 0.1, 1], registers: [registry] });
    for (const v of [0.005, 0.05, 0.05, 0.5]) h.observe({ app: 'a' }, v);
    const buckets = new Map(parseSamples(await registry.metrics(), new Set(['cpu_seconds_bucket'])).map((s) => [s.labels.le === '+Inf' ? Infinity : Number(s.labels.le), s.value]));
    expect([...buckets.values()]).toEqual([1, 3, 4, 4]);
    // rank 2 of 4 falls in (0.01, 0.1], halfway through its two samples.
    expect(histogramQuantile(0.5, buckets)).toBeCloseTo(0.055);
    expect(histogramQuantile(0.99, buckets)).toBeCloseTo(0.1 + 0.9 * 0.96);
    expect(histogramQuantile(0.5, new Map([[Infinity, 0]]))).toBeNull();
  });
});
