/**
 * @module apps/operator-metrics/prometheus-text
 * Reads the samples of a Prometheus text exposition (what prom-client's `registry.metrics()` and a
 * runtime node's `/metrics` answer): `name{label="value",…} number` per line, `#` lines skipped.
 * prom-client writes but does not read the format, and these few lines are all the operator page
 * needs; a line that does not parse is skipped, not fatal.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const unescape = (v: string) => v.replace(/\\(["\\n])/g, (_, ch: string) => (ch === 'n' ? '\n' : ch));

export function parseSamples(text: string, wanted?: ReadonlySet<string>): Sample[] {
  const out: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (m === null || (wanted !== undefined && !wanted.has(m[1]!))) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = unescape(l[2]!);
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    if (!Number.isNaN(value)) out.push({ name: m[1]!, labels, value });
  }
  return out;
}

/**
 * The q-quantile of a histogram from its cumulative buckets (`le` upper bounds), interpolated
 * within the bucket it falls in, as Prometheus's `histogram_quantile` does; null without samples.
 */
export function histogramQuantile(q: number, buckets: ReadonlyMap<number, number>): number | null {
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let [lowerBound, lowerCount] = [0, 0];
  for (const [bound, count] of sorted) {
    if (count >= rank) {
      // Past the last finite bound Prometheus answers that bound.
      if (bound === Infinity) return lowerBound;
      return lowerBound + (bound - lowerBound) * ((rank - lowerCount) / Math.max(count - lowerCount, Number.MIN_VALUE));
    }
    [lowerBound, lowerCount] = [bound, count];
  }
  return lowerBound;
}
