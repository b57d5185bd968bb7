/**
 * @module catalog/kit/spec
 * The shape of one component's entry in the catalog registry: which attributes it takes, what it may
 * hold, where it may sit, and the extra rules that run once its attributes are known to be well-typed.
 */
import type { PathSegment, UiMark } from './types.ts';
import type { LabelGroup, WalkState } from './state.ts';

/** Where an attribute value sits, for messages (`<Button>'s "confirm.title"`) and paths. */
export interface AttrAt {
  readonly component: string;
  /** Dotted name from the attribute down to the value (`confirm.title`, `columns.2.label`). */
  readonly name: string;
  readonly path: PathSegment[];
  readonly state: WalkState;
}

/** Checks one attribute value; throws the first problem (see `fail`). */
export type AttrCheck = (value: unknown, at: AttrAt) => void;

export interface AttrSpec {
  readonly check: AttrCheck;
  readonly required?: boolean;
}

/** The node being checked, once its attributes passed their own checks. */
export interface NodeView {
  readonly type: string;
  readonly component: string;
  readonly attrs: Readonly<Record<string, unknown>>;
  /** Children as found (not yet checked). */
  readonly content: readonly unknown[];
  readonly path: PathSegment[];
}

/** A rule across attributes or about the node's place; throws the first problem. */
export type NodeRule = (node: NodeView, state: WalkState) => void;

/** One run of children in a content model: which children it takes and how many. */
export interface Slot {
  readonly accepts: (child: Readonly<Record<string, unknown>>) => boolean;
  readonly min: number;
  readonly max: number;
  /** Completes "{parent} needs …" when fewer than `min` children are present. */
  readonly what: string;
  /** Message when the run holds more than `max` (and fewer than `min`, unless `few` is set). */
  readonly count?: string;
  readonly few?: string;
}

export type InlineEmpty = 'allow' | 'label' | 'needs' | 'code';

export type ContentModel =
  /** Only text nodes, with these marks; `empty` says what an empty run means. */
  | { readonly kind: 'inline'; readonly marks: readonly UiMark['type'][]; readonly empty: InlineEmpty }
  /** Child nodes in runs. `order` words the root's ordering message; `after` is said of anything past the last run. */
  | { readonly kind: 'slots'; readonly slots: readonly Slot[]; readonly order?: (child: string) => string; readonly after?: string };

export interface ComponentSpec {
  readonly type: string;
  readonly attrs: Readonly<Record<string, AttrSpec>>;
  /** What the node may hold; without it, the node holds nothing. */
  readonly content?: ContentModel;
  /** Free-text cap of this component (counted over text nodes it holds, Prose over all its paragraphs). */
  readonly textLimit?: number;
  /** Labels of these children must be unique; `name` names the group in the message (`<Actions>`). */
  readonly labelGroup?: LabelGroup;
  /** Runs before the node's attributes are read: rules about where the node sits. */
  readonly placement?: readonly NodeRule[];
  /** Runs after the attributes passed their own checks. */
  readonly rules?: readonly NodeRule[];
}
