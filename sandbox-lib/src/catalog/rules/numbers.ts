/**
 * @module catalog/rules/numbers
 * How numbers read: a `format` (`number`, the default, `percent`, `currency`, `duration` in
 * seconds), a currency code only for currency, a unit only for plain numbers. Percent values are
 * fractions (0.08 is 8 %). Also progress bars and donut charts, whose numbers must add up.
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS, OURS, SPEC } from '../kit/messages.ts';
import type { NodeRule } from '../kit/spec.ts';
import type { PathSegment } from '../kit/types.ts';
import { identifier, oneOf } from '../kit/attr-types.ts';
import { labelKey } from '../kit/measure.ts';
import { fail } from '../kit/state.ts';

export const NUMBER_FORMATS = ['number', 'percent', 'currency', 'duration'] as const;
export const numberFormat = () => oneOf(NUMBER_FORMATS);
export const currencyCode = () => identifier(/^[A-Z]{3}$/, 'a three-letter currency code such as USD');

/**
 * Percent values are fractions, so a magnitude above 100 (10,000 %) is almost surely a whole
 * percentage typed by mistake. The guard cannot tell 8 (800 %) from 0.08; the docs say which is meant.
 */
export const PERCENT_FRACTION_MAX = 100;

/** Format, currency and unit fit together. `at` is where the fields sit (a node's attrs or a column). */
export function checkFormatFit(fields: Readonly<Record<string, unknown>>, at: PathSegment[], plainAllowed = true): void {
  const format = fields.format ?? 'number';
  if (format === 'currency' && fields.currency === undefined) fail(SPEC.currencyNeedsCode, at);
  if (fields.currency !== undefined && format !== 'currency') fail(SPEC.onlyCurrencyCode, [...at, 'currency']);
  if (fields.unit !== undefined && (format !== 'number' || !plainAllowed)) fail(SPEC.onlyPlainUnit, [...at, 'unit']);
}

/** A value read with `format`: percent values must look like fractions. */
export function checkPercent(format: unknown, value: unknown, at: PathSegment[]): void {
  if (format === 'percent' && typeof value === 'number' && Math.abs(value) > PERCENT_FRACTION_MAX) fail(OURS.percentFraction, at);
}

export const metricNumbers: NodeRule = (node) => {
  const at = [...node.path, 'attrs'];
  checkFormatFit(node.attrs, at);
  const format = node.attrs.format;
  checkPercent(format, node.attrs.value, [...at, 'value']);
  const delta = node.attrs.delta as { value: number } | undefined;
  if (delta) checkPercent(format, delta.value, [...at, 'delta', 'value']);
  const trend = (node.attrs.trend as number[] | undefined) ?? [];
  trend.forEach((v, i) => checkPercent(format, v, [...at, 'trend', i]));
};

export const progressNumbers: NodeRule = (node) => {
  const { value, max, unit } = node.attrs as { value: number; max?: number; unit?: string };
  if (value > (max ?? 1)) fail(SPEC.progressOverMax, [...node.path, 'attrs', 'value']);
  if (unit !== undefined && max === undefined) fail(SPEC.progressUnitNeedsMax, [...node.path, 'attrs', 'unit']);
};

interface Series {
  name: string;
  points: Array<{ label: string; value: number }>;
}

/** Series names and point labels are unique; a donut is one series of a few slices adding up above zero. */
export const chartNumbers: NodeRule = (node) => {
  const at = [...node.path, 'attrs'];
  checkFormatFit(node.attrs, at);
  const series = node.attrs.series as Series[];
  const names = new Set<string>();
  series.forEach((s, i) => {
    const key = labelKey(s.name);
    if (names.has(key)) fail(SPEC.seriesNamesUnique, [...at, 'series', i, 'name']);
    names.add(key);
    const labels = new Set<string>();
    s.points.forEach((p, j) => {
      const pointKey = labelKey(p.label);
      if (labels.has(pointKey)) fail(SPEC.pointLabelsUnique, [...at, 'series', i, 'points', j, 'label']);
      labels.add(pointKey);
      checkPercent(node.attrs.format, p.value, [...at, 'series', i, 'points', j, 'value']);
    });
  });
  if (node.attrs.chartType !== 'donut') return;
  const { donutSeries, donutPoints } = LIMITS.blockTree;
  if (series.length > donutSeries) fail(COUNTS.donut, [...at, 'series', donutSeries]);
  const points = series[0]!.points;
  if (points.length > donutPoints) fail(COUNTS.donut, [...at, 'series', 0, 'points', donutPoints]);
  const negative = points.findIndex((p) => p.value < 0);
  if (negative >= 0) fail(OURS.donutNegative, [...at, 'series', 0, 'points', negative, 'value']);
  if (points.reduce((sum, p) => sum + p.value, 0) <= 0) fail(SPEC.donutTotal, [...at, 'series']);
};
