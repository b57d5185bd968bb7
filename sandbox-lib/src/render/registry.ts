/**
 * @module render/registry
 * One renderer per catalog node type, gathered from one file per family (as the catalog's spec
 * registry is). A test checks every type of the catalog has an entry here.
 */
import { actionRenderers } from './actions.ts';
import { chartRenderers } from './chart.ts';
import { contentRenderers } from './content.ts';
import { dataRenderers } from './data.ts';
import { formRenderers } from './forms.ts';
import { proseRenderers } from './prose.ts';
import { structureRenderers } from './structure.ts';
import { tableRenderers } from './table.ts';
import type { Render } from './types.ts';

export const RENDERERS: Readonly<Record<string, Render>> = {
  ...structureRenderers,
  ...contentRenderers,
  ...actionRenderers,
  ...dataRenderers,
  ...tableRenderers,
  ...chartRenderers,
  ...formRenderers,
  ...proseRenderers,
};
