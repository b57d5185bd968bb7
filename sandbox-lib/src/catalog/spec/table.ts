/**
 * @module catalog/spec/table
 * Table: up to 12 typed columns and 200 rows of cells, each row with an optional menu. Rows are
 * data (attrs), not child nodes, so a full table is one component of the block's 250.
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS, OURS, SPEC } from '../kit/messages.ts';
import { checkMenuItem } from '../rules/actions.ts';
import { uniqueLabels } from '../rules/labels.ts';
import { checkFormatFit, checkPercent, currencyCode, numberFormat } from '../rules/numbers.ts';
import { widePlacement } from '../rules/structure.ts';
import { url } from '../rules/urls.ts';
import { identifier, label, list, name, number, oneOf, optional, record, required, sub, text } from '../kit/attr-types.ts';
import { fail } from '../kit/state.ts';
import { TONES } from './groups.ts';
import { menuItemFields } from './actions.ts';
import type { AttrCheck, ComponentSpec, NodeRule } from '../kit/spec.ts';

const T = LIMITS.text;
const B = LIMITS.blockTree;

export const COLUMN_TYPES = ['text', 'number', 'status', 'badge', 'link', 'person', 'date'] as const;
type ColumnType = (typeof COLUMN_TYPES)[number];

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** What a cell of each column type holds; `null` is an empty cell in any column. */
const CELLS: Readonly<Record<ColumnType, AttrCheck>> = {
  text: text({ max: B.tableTextCell }),
  number: number(),
  status: record({ label: required(label(T.statusCell)), tone: optional(oneOf(TONES)) }),
  badge: record({ label: required(label(T.badgeCell)), tone: optional(oneOf(TONES)) }),
  link: record({ label: required(label(T.linkCellLabel)), href: required(url()) }),
  person: record({ name: required(name(T.personName)), avatarSrc: optional(url()) }),
  date: identifier(ISO_DATE, 'an ISO 8601 date or time'),
};

interface Column extends Readonly<Record<string, unknown>> {
  label: string;
  type?: ColumnType;
  format?: string;
}

interface Row {
  cells: unknown[];
  menu?: Array<Record<string, unknown>>;
}

/** Column labels unique and formats fitting; then every row: one fitting cell per column, a sound menu. */
const tableRule: NodeRule = (node, state) => {
  const at = { component: node.component, name: '', path: [...node.path, 'attrs'], state };
  const columns = node.attrs.columns as Column[];
  uniqueLabels(columns, (c) => c.label, () => SPEC.columnLabelsUnique, (i) => [...at.path, 'columns', i, 'label']);
  columns.forEach((column, i) => {
    const where = [...at.path, 'columns', i];
    const type = column.type ?? 'text';
    if (column.format !== undefined && type !== 'number') fail(SPEC.onlyNumberColumnFormat, [...where, 'format']);
    checkFormatFit(column, where, type === 'number');
  });
  (node.attrs.rows as Row[]).forEach((row, r) => {
    const rowAt = sub(sub(at, 'rows'), r);
    if (row.cells.length !== columns.length) fail(OURS.tableCells, [...rowAt.path, 'cells']);
    row.cells.forEach((cell, c) => {
      if (cell === null) return;
      const column = columns[c]!;
      CELLS[column.type ?? 'text'](cell, sub(sub(rowAt, 'cells'), c));
      checkPercent(column.format, cell, [...rowAt.path, 'cells', c]);
    });
    const menu = row.menu ?? [];
    menu.forEach((item, m) => checkMenuItem(item, [...rowAt.path, 'menu', m], [...rowAt.path, 'menu', m]));
    uniqueLabels(menu, (item) => item.label as string, (l) => SPEC.duplicateLabel(l, '<Menu>'), (m) => [...rowAt.path, 'menu', m, 'label']);
  });
};

export const tableSpecs: ComponentSpec[] = [
  {
    type: 'uiTable',
    attrs: {
      title: optional(label(T.tableTitle)),
      columns: required(list(record({
        label: required(label(T.tableColumnLabel)),
        type: optional(oneOf(COLUMN_TYPES)),
        format: optional(numberFormat()),
        currency: optional(currencyCode()),
        unit: optional(text({ max: T.unit })),
        align: optional(oneOf(['start', 'center', 'end'])),
      }), { min: 1, max: B.tableColumns, count: COUNTS.tableColumns, few: SPEC.needs('<Table>', 'at least one column') })),
      rows: required(list(record({
        cells: required(list(() => undefined)),
        menu: optional(list(record(menuItemFields), { min: 1, max: B.tableMenuItemsPerRow, count: COUNTS.tableRowMenu, few: SPEC.needs('A table row menu', 'at least one item') })),
      }), { max: B.tableRows, count: COUNTS.tableRows })),
    },
    placement: [widePlacement],
    rules: [tableRule],
  },
];
