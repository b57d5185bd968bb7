/**
 * @module catalog/spec/data
 * Components that show figures and key–value data: Metrics and Metric, MetaList and MetaItem,
 * Facts and Fact, Chart. (Table has its own file.)
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS, SPEC } from '../kit/messages.ts';
import { icon } from '../rules/icons.ts';
import { chartNumbers, currencyCode, metricNumbers, numberFormat } from '../rules/numbers.ts';
import { widePlacement } from '../rules/structure.ts';
import { url } from '../rules/urls.ts';
import { label, list, number, oneOf, optional, record, required, text } from '../kit/attr-types.ts';
import { ofType, slot } from './groups.ts';
import type { ComponentSpec } from '../kit/spec.ts';

const T = LIMITS.text;
const B = LIMITS.blockTree;

export const dataSpecs: ComponentSpec[] = [
  {
    type: 'uiMetrics',
    attrs: {},
    content: {
      kind: 'slots',
      slots: [slot(ofType('uiMetric'), B.metricsMin, B.metricsMax, 'metrics', { count: COUNTS.metrics, few: SPEC.needs('<Metrics>', 'at least one <Metric>') })],
    },
    labelGroup: { name: '<Metrics>', of: ['uiMetric'] },
    placement: [widePlacement],
  },
  {
    type: 'uiMetric',
    attrs: {
      label: required(label(T.metricLabel)),
      value: required(number()),
      format: optional(numberFormat()),
      currency: optional(currencyCode()),
      unit: optional(text({ max: T.unit })),
      delta: optional(record({ value: required(number()), tone: optional(oneOf(['positive', 'negative', 'neutral'])) })),
      trend: optional(list(number(), { min: B.metricTrendPointsMin, max: B.metricTrendPointsMax, count: COUNTS.metricTrend })),
      href: optional(url()),
    },
    rules: [metricNumbers],
  },
  {
    type: 'uiMetaList',
    attrs: {},
    content: {
      kind: 'slots',
      slots: [slot(ofType('uiMetaItem'), B.metaListItemsMin, B.metaListItemsMax, 'items', { count: COUNTS.metaList, few: SPEC.needs('<MetaList>', 'at least one <MetaItem>') })],
    },
  },
  {
    type: 'uiMetaItem',
    attrs: { text: required(label(T.metaItem)), icon: optional(icon()), href: optional(url()) },
  },
  {
    type: 'uiFacts',
    attrs: {},
    content: {
      kind: 'slots',
      slots: [slot(ofType('uiFact'), 1, Number.POSITIVE_INFINITY, 'facts', { few: SPEC.needs('<Facts>', 'at least one <Fact>') })],
    },
    labelGroup: { name: '<Facts>', of: ['uiFact'] },
  },
  {
    type: 'uiFact',
    attrs: { label: required(label(T.factLabel)), value: required(text({ max: T.factValue })) },
  },
  {
    type: 'uiChart',
    attrs: {
      chartType: required(oneOf(['bar', 'line', 'area', 'donut'])),
      title: optional(label(T.chartTitle)),
      series: required(list(record({
        name: required(label(T.chartSeriesName)),
        points: required(list(record({ label: required(label(T.chartPointLabel)), value: required(number()) }), {
          min: 1,
          max: B.chartPointsPerSeries,
          count: COUNTS.chartPoints,
          few: SPEC.needs('A chart series', 'at least one point'),
        })),
      }), { min: 1, max: B.chartSeries, count: COUNTS.chartSeries, few: SPEC.needs('<Chart>', 'at least one series') })),
      format: optional(numberFormat()),
      currency: optional(currencyCode()),
      unit: optional(text({ max: T.unit })),
    },
    placement: [widePlacement],
    rules: [chartNumbers],
  },
];
