/**
 * @module render/types
 * The shape every component renderer has: the node, the context, and a way to draw children.
 */
import type { UiElementNode, UiNode } from '../catalog/kit/types.ts';
import type { RenderContext } from './context.ts';

export type Kids = (nodes: readonly UiNode[] | undefined, ctx?: RenderContext) => string;
export type Render = (node: UiElementNode, ctx: RenderContext, kids: Kids) => string;

/** Attributes of a node as a loose record (the tree may be unvalidated in the playground). */
export const attrsOf = (node: UiElementNode): Record<string, unknown> => node.attrs ?? {};
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const refOf = (v: unknown): string | undefined =>
  (typeof v === 'object' && v !== null && typeof (v as { ref?: unknown }).ref === 'string' ? (v as { ref: string }).ref : undefined);
/** `record[key]` only when the record has it as its own property: keys come from apps (`__proto__`, `valueOf`). */
export function own<T>(record: Readonly<Record<string, T>> | null | undefined, key: unknown): T | undefined {
  return record != null && typeof key === 'string' && Object.hasOwn(record, key) ? record[key] : undefined;
}

export const TONES = new Set(['neutral', 'info', 'success', 'warning', 'danger']);
export const toneOf = (v: unknown): string => (typeof v === 'string' && TONES.has(v) ? v : 'neutral');
