/**
 * @module catalog/kit/types
 * Wire shapes of a block UI document (catalog v1), shaped like the editor's stored documents.
 */

/** One step of a location inside a tree: an object key or an array index. */
export type PathSegment = string | number;

/** Formatting on a run of text. Only `link` carries attrs (`{ href }`). */
export interface UiMark {
  type: 'bold' | 'italic' | 'strike' | 'code' | 'link';
  attrs?: { href: string };
}

/** A run of plain text; never empty, never with attrs or content. */
export interface UiTextNode {
  type: 'text';
  text: string;
  marks?: UiMark[];
}

/** Any catalog node (`ui…`) or rich-text node inside `uiProse` (`paragraph`, `heading`, …). */
export interface UiElementNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: UiNode[];
}

export type UiNode = UiElementNode | UiTextNode;

/** The root of every block UI document. */
export interface UiBlockNode extends UiElementNode {
  type: 'uiBlock';
  attrs: { catalog: 1; summary: string };
}

/** `action` attrs (and `onChange`, `search`) point into the action table by reference. */
export interface ActionRef {
  ref: string;
}

/** One entry of the action table: the action's name and the arguments delivered with a click. */
export interface ActionEntry {
  name: string;
  args?: unknown;
}

/** The table sent with every tree: map from reference (`a0`, `a1`, …) to the action. */
export type ActionTable = Record<string, ActionEntry>;

/** The answer of `validateTree`: valid, or the first problem with the spec's message and where it is. */
export type TreeValidation = { valid: true } | { valid: false; message: string; path: PathSegment[] };
