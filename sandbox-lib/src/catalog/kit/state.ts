/**
 * @module catalog/kit/state
 * What the walk carries: the first problem (thrown, caught once by `validateTree`), the ancestors of
 * the node being checked, and the block-wide tallies (text, images, field names, handles).
 */
import { LIMITS } from '../../limits/limits.ts';
import { SPEC } from './messages.ts';
import type { ActionTable, PathSegment } from './types.ts';
import type { TreeIndex } from './prepass.ts';

/** The first problem found; thrown so that the walk stops where it stands. */
export class TreeProblem {
  readonly message: string;
  readonly path: PathSegment[];
  constructor(message: string, path: PathSegment[]) {
    this.message = message;
    this.path = path;
  }
}

export function fail(message: string, path: PathSegment[]): never {
  throw new TreeProblem(message, path);
}

/** Children whose labels must be unique; `name` names the group in the message (`<Actions>`). */
export interface LabelGroup {
  readonly name: string;
  readonly of: readonly string[];
}

export interface LabelTally {
  readonly group: LabelGroup;
  readonly seen: Set<string>;
}

/** One node on the way from the root to the node being checked. */
export interface Frame {
  readonly type: string;
  /** Attrs as found (already checked once the node's own rules run). */
  readonly attrs: Readonly<Record<string, unknown>>;
  readonly path: PathSegment[];
  /** Labels seen among this node's children, when they form a group whose labels must be unique. */
  readonly labels: LabelTally | null;
}

/** A component whose free text has its own cap (a Prose counts the text of all its paragraphs). */
interface TextOwner {
  readonly path: PathSegment[];
  readonly limit: number;
  count: number;
}

export class WalkState {
  readonly actions: Readonly<ActionTable> | undefined;
  readonly index: TreeIndex;
  readonly frames: Frame[] = [];
  readonly fieldNames = new Set<string>();
  readonly seenHandles = new Set<string>();
  /** Bytes of the prefilled values of each form, as one submission would carry them. */
  readonly formInput = new Map<Frame, number>();
  images = 0;
  private blockText = 0;
  private readonly owners: TextOwner[] = [];

  constructor(actions: Readonly<ActionTable> | undefined, index: TreeIndex) {
    this.actions = actions;
    this.index = index;
  }

  /** The nearest ancestor of the node being checked (its parent), if any. */
  parent(): Frame | undefined {
    return this.frames[this.frames.length - 1];
  }

  /** The nearest ancestor of one of `types`, or undefined. */
  closest(...types: string[]): Frame | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) if (types.includes(this.frames[i]!.type)) return this.frames[i];
    return undefined;
  }

  /** Counts visible text toward the block's total (the cap is 20,000 characters per block). */
  addBlockText(graphemes: number): void {
    this.blockText += graphemes;
    if (this.blockText > LIMITS.blockTree.textPerBlock) fail(SPEC.tooLong(LIMITS.blockTree.textPerBlock), []);
  }

  /** Counts the free text of a component toward its own cap, and toward the block's. */
  addOwnedText(graphemes: number): void {
    const owner = this.owners[this.owners.length - 1];
    if (owner) {
      owner.count += graphemes;
      if (owner.count > owner.limit) fail(SPEC.tooLong(owner.limit), owner.path);
    }
    this.addBlockText(graphemes);
  }

  pushOwner(path: PathSegment[], limit: number): void {
    this.owners.push({ path, limit, count: 0 });
  }

  popOwner(): void {
    this.owners.pop();
  }
}
