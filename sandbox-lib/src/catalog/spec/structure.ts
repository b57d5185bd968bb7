/**
 * @module catalog/spec/structure
 * The frame of a block and the containers that arrange flow elements: Block, Header (+ title),
 * Footer, Section, Columns and Column, Tabs and Tab, Stack.
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS, SPEC } from '../kit/messages.ts';
import { icon } from '../rules/icons.ts';
import { sectionHandle, sectionPlacement, stackPlacement, tabsPlacement, widePlacement } from '../rules/structure.ts';
import { url } from '../rules/urls.ts';
import { flag, identifier, label, literal, oneOf, optional, required, text } from '../kit/attr-types.ts';
import { flowChild, flowSlot, ofType, slot } from './groups.ts';
import type { ComponentSpec } from '../kit/spec.ts';

const T = LIMITS.text;
const B = LIMITS.blockTree;
const ADORNMENTS = 3;

export const SECTION_HANDLE = identifier(LIMITS.identifiers.sectionName, '1 to 48 characters from A-Z, a-z, 0-9, _ and -');

export const structureSpecs: ComponentSpec[] = [
  {
    type: 'uiBlock',
    attrs: { catalog: required(literal(1)), summary: required(label(B.summary)) },
    content: {
      kind: 'slots',
      order: SPEC.rootOrder,
      slots: [
        slot(ofType('uiHeader'), 0, 1, 'a <Header>'),
        slot((c) => flowChild(c) && c.type !== 'uiActions', 0, Number.POSITIVE_INFINITY, 'a body'),
        slot(ofType('uiActions'), B.rootActionsPerBlock, B.rootActionsPerBlock, 'one <Actions>'),
        slot(ofType('uiFooter'), 0, 1, 'a <Footer>'),
      ],
    },
  },
  {
    type: 'uiHeader',
    attrs: { href: optional(url()), trailing: optional(text({ max: T.headerTrailing })) },
    content: {
      kind: 'slots',
      slots: [
        slot(ofType('uiHeaderTitle'), 1, 1, 'a <HeaderTitle>'),
        slot(ofType('uiBadge', 'uiStatus', 'uiIcon'), 0, ADORNMENTS, 'badges', { count: COUNTS.headerAdornments }),
      ],
    },
  },
  {
    type: 'uiHeaderTitle',
    attrs: {},
    content: { kind: 'inline', marks: ['italic', 'strike', 'code', 'link'], empty: 'label' },
    textLimit: T.headerTitle,
  },
  {
    type: 'uiFooter',
    attrs: {},
    content: { kind: 'inline', marks: ['bold', 'italic', 'code', 'link'], empty: 'needs' },
    textLimit: T.footerText,
  },
  {
    type: 'uiSection',
    attrs: { title: optional(label(T.sectionTitle)), handle: optional(SECTION_HANDLE), collapsed: optional(flag()) },
    content: { kind: 'slots', slots: [flowSlot()] },
    placement: [sectionPlacement],
    rules: [sectionHandle],
  },
  {
    type: 'uiColumns',
    attrs: {},
    content: { kind: 'slots', slots: [slot(ofType('uiColumn'), B.columnsMin, B.columnsMax, 'columns', { count: COUNTS.columns })] },
    placement: [widePlacement],
  },
  {
    type: 'uiColumn',
    attrs: { width: optional(oneOf(['auto', 'fill'])) },
    content: { kind: 'slots', slots: [flowSlot()] },
  },
  {
    type: 'uiTabs',
    attrs: { title: optional(label(T.tabsTitle)) },
    content: { kind: 'slots', slots: [slot(ofType('uiTab'), B.tabsMin, B.tabsMax, 'tabs', { count: COUNTS.tabs })] },
    labelGroup: { name: '<Tabs>', of: ['uiTab'] },
    placement: [tabsPlacement, widePlacement],
  },
  {
    type: 'uiTab',
    attrs: { label: required(label(T.tabLabel)), icon: optional(icon()) },
    content: { kind: 'slots', slots: [flowSlot()] },
  },
  {
    type: 'uiStack',
    attrs: { direction: optional(oneOf(['vertical', 'horizontal'])), gap: optional(oneOf(['small', 'medium', 'large'])) },
    content: { kind: 'slots', slots: [flowSlot()] },
    placement: [stackPlacement],
  },
];
