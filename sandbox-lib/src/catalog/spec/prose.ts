/**
 * @module catalog/spec/prose
 * Prose: rich text reusing the editor's nodes (paragraph, heading, bullet and ordered lists with
 * their items, blockquote, code block). A Prose holds up to 10,000 characters over all its nodes.
 */
import { LIMITS } from '../../limits/limits.ts';
import { listPlacement, quotePlacement, standAlonePlacement } from '../rules/prose.ts';
import { identifier, number, optional, required } from '../kit/attr-types.ts';
import { ofType, slot } from './groups.ts';
import type { ComponentSpec } from '../kit/spec.ts';

const MANY = Number.POSITIVE_INFINITY;
const RICH = ['bold', 'italic', 'strike', 'code', 'link'] as const;
const listItems = { kind: 'slots', slots: [slot(ofType('listItem'), 1, MANY, 'a <ListItem>')] } as const;

export const proseSpecs: ComponentSpec[] = [
  {
    type: 'uiProse',
    attrs: {},
    content: { kind: 'slots', slots: [slot(ofType('paragraph', 'heading', 'bulletList', 'orderedList', 'blockquote', 'codeBlock'), 1, MANY, 'a <Paragraph>')] },
    textLimit: LIMITS.blockTree.textPerProse,
  },
  { type: 'paragraph', attrs: {}, content: { kind: 'inline', marks: RICH, empty: 'allow' } },
  {
    type: 'heading',
    attrs: { level: required(number({ integer: true, min: 1, max: 3 })) },
    content: { kind: 'inline', marks: ['italic', 'strike', 'code', 'link'], empty: 'allow' },
    placement: [standAlonePlacement],
  },
  { type: 'bulletList', attrs: {}, content: listItems, placement: [listPlacement] },
  { type: 'orderedList', attrs: { start: optional(number({ integer: true, min: 1 })) }, content: listItems, placement: [listPlacement] },
  {
    type: 'listItem',
    attrs: {},
    content: { kind: 'slots', slots: [slot(ofType('paragraph'), 1, 1, 'a <Paragraph>'), slot(ofType('paragraph', 'bulletList', 'orderedList'), 0, MANY, 'more')] },
  },
  {
    type: 'blockquote',
    attrs: {},
    content: { kind: 'slots', slots: [slot(ofType('paragraph', 'bulletList', 'orderedList'), 1, MANY, 'a <Paragraph>')] },
    placement: [quotePlacement],
  },
  {
    type: 'codeBlock',
    attrs: { language: optional(identifier(/^[A-Za-z0-9_+#.-]{1,32}$/, 'a language name such as ts')) },
    content: { kind: 'inline', marks: [], empty: 'code' },
    placement: [standAlonePlacement],
  },
];
