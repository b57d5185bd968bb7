/**
 * @module catalog/spec/registry
 * The one registry of catalog v1: every node type a block tree may contain, gathered from the
 * family files. Adding a component means adding its entry to a family file (and a builder, and a
 * section in docs/catalog.md; a test checks that all three exist).
 */
import { actionSpecs } from './actions.ts';
import { contentSpecs } from './content.ts';
import { dataSpecs } from './data.ts';
import { formSpecs } from './forms.ts';
import { proseSpecs } from './prose.ts';
import { structureSpecs } from './structure.ts';
import { tableSpecs } from './table.ts';
import type { ComponentSpec } from '../kit/spec.ts';

/** The catalog version this registry implements (`attrs.catalog` of the root). */
export const CATALOG_VERSION = 1;

const ALL: readonly ComponentSpec[] = [...structureSpecs, ...contentSpecs, ...actionSpecs, ...dataSpecs, ...tableSpecs, ...formSpecs, ...proseSpecs];

export const REGISTRY: ReadonlyMap<string, ComponentSpec> = new Map(ALL.map((spec) => [spec.type, spec]));

/** True for node types of the catalog (plain `text` included). */
export function isKnownType(type: string): boolean {
  return type === 'text' || REGISTRY.has(type);
}
