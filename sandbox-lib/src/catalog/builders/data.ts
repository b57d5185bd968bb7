/**
 * @module catalog/builders/data
 * Builders for figures and key–value data.
 */
import { type ActionInput, type Draft, type WithAudience, audienceOf, compact, node, toCall } from './core.ts';
import type { Confirm } from './actions.ts';
import type { Tone } from './content.ts';

export type NumberFormat = 'number' | 'percent' | 'currency' | 'duration';

interface Formatted {
  /** `percent` values are fractions (0.08 is 8 %); `duration` is in seconds. */
  format?: NumberFormat;
  /** ISO 4217 code, only with `format: 'currency'`. */
  currency?: string;
  /** Only for plain numbers. */
  unit?: string;
}

/**
 * A row of 1 to 6 metrics.
 * @example ui.metrics([ui.metric({ label: 'Signups', value: 1280, delta: { value: 0.12 } })])
 */
export function metrics(children: readonly Draft[], options?: WithAudience): Draft {
  return node('uiMetrics', { audience: audienceOf(options) }, children);
}

export interface MetricOptions extends Formatted {
  label: string;
  value: number;
  /** Change since the last period, read with the metric's format. */
  delta?: { value: number; tone?: 'positive' | 'negative' | 'neutral' };
  /** 2 to 24 recent values, drawn as a sparkline. */
  trend?: readonly number[];
  href?: string;
}

/**
 * One figure with its label.
 * @example ui.metric({ label: 'Conversion', value: 0.034, format: 'percent', trend: [0.03, 0.031, 0.034] })
 */
export function metric(options: MetricOptions): Draft {
  const { delta, trend, ...rest } = options;
  return node('uiMetric', { ...rest, delta: delta && compact({ ...delta }), trend: trend && [...trend] });
}

/**
 * A line of 1 to 6 short facts with icons.
 * @example ui.metaList([ui.metaItem({ text: 'Due Friday', icon: 'calendar' })])
 */
export function metaList(children: readonly Draft[], options?: WithAudience): Draft {
  return node('uiMetaList', { audience: audienceOf(options) }, children);
}

/**
 * One entry of a meta list.
 * @example ui.metaItem({ text: '4 comments', icon: 'comment', href: 'https://t.example.com/1#comments' })
 */
export function metaItem(options: { text: string; icon?: string; href?: string }): Draft {
  return node('uiMetaItem', { text: options.text, icon: options.icon, href: options.href });
}

/**
 * Label–value pairs.
 * @example ui.facts([ui.fact({ label: 'Owner', value: 'Ada' }), ui.fact({ label: 'Region', value: 'eu-west-1' })])
 */
export function facts(children: readonly Draft[], options?: WithAudience): Draft {
  return node('uiFacts', { audience: audienceOf(options) }, children);
}

/**
 * One label–value pair.
 * @example ui.fact({ label: 'Status', value: 'Shipped' })
 */
export function fact(options: { label: string; value: string }): Draft {
  return node('uiFact', { label: options.label, value: options.value });
}

export interface TableColumn extends Formatted {
  label: string;
  type?: 'text' | 'number' | 'status' | 'badge' | 'link' | 'person' | 'date';
  align?: 'start' | 'center' | 'end';
}

/** A table cell; its shape follows its column's type. `null` is an empty cell. */
export type TableCell =
  | string
  | number
  | null
  | { label: string; tone?: Tone }
  | { label: string; href: string }
  | { name: string; avatarSrc?: string };

export interface TableMenuItem<N extends string = string> {
  label: string;
  action?: ActionInput<N>;
  args?: unknown;
  href?: string;
  intent?: 'default' | 'primary' | 'destructive';
  confirm?: Confirm;
  icon?: string;
}

export interface TableOptions<N extends string = string> extends WithAudience {
  title?: string;
  columns: readonly TableColumn[];
  rows: ReadonlyArray<{ cells: readonly TableCell[]; menu?: readonly TableMenuItem<N>[] }>;
}

/**
 * Up to 12 typed columns and 200 rows; each row may carry a menu of up to 12 items.
 * @example ui.table({ columns: [{ label: 'Task' }, { label: 'Hours', type: 'number' }], rows: [{ cells: ['Review', 2], menu: [{ label: 'Reopen', action: 'reopen', args: { id: 1 } }] }] })
 */
export function table<N extends string = string>(options: TableOptions<NoInfer<N>>): Draft<N> {
  const rows = options.rows.map((r) => {
    const menu = r.menu?.map(({ action, args, ...rest }) => compact({ ...rest, action: toCall(action, args) }));
    return menu ? { cells: [...r.cells], menu } : { cells: [...r.cells] };
  });
  return node('uiTable', { title: options.title, columns: options.columns.map((c) => compact({ ...c })), rows, audience: audienceOf(options) });
}

export interface ChartOptions extends Formatted, WithAudience {
  chartType: 'bar' | 'line' | 'area' | 'donut';
  title?: string;
  /** Up to 3 series of up to 24 points; a donut is one series of up to 5 points adding up above zero. */
  series: ReadonlyArray<{ name: string; points: ReadonlyArray<{ label: string; value: number }> }>;
}

/**
 * A chart.
 * @example ui.chart({ chartType: 'bar', series: [{ name: 'Deploys', points: [{ label: 'Mon', value: 4 }, { label: 'Tue', value: 6 }] }] })
 */
export function chart(options: ChartOptions): Draft {
  const { series, audience: _, ...rest } = options;
  const copied = series.map((s) => ({ name: s.name, points: s.points.map((p) => ({ label: p.label, value: p.value })) }));
  return node('uiChart', { ...rest, series: copied, audience: audienceOf(options) });
}
