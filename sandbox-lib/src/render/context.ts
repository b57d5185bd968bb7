/**
 * @module render/context
 * What a renderer needs beyond the tree: the block's live state as the client API answers it
 * (revision, pending action, inline error, final, viewer inputs with tallies), the answer of the
 * last action (field errors, notice, link to open), and how to turn an asset id into a URL.
 * Every field is optional: the playground draws a bare tree with none of them.
 */
import type { NoticeTone } from '../delivery/constants.ts';

/** A viewer input as the client API shows it: every value's count and the member's own pick. */
export interface RenderInput {
  tallies: Record<string, number>;
  mine: string[];
}

export interface RenderOptions {
  /** Prefixes every id written (labels, tabs, sections), so several blocks share a page. */
  idPrefix?: string;
  /** The block id and revision, written on the root for the client script. */
  blockId?: string;
  revision?: number;
  /** A deferred action: the control with this reference shows pending. */
  pending?: { ref: string } | null;
  /** The inline error left by a failed delivery, shown beside the last good tree. */
  error?: { message: string } | null;
  /** A final block: nothing is clickable any more. */
  final?: { summary: string } | null;
  /** Viewer inputs by field name (`results: tallies` reads its counts here). */
  inputs?: Record<string, RenderInput>;
  /** Field errors of the last form submission, by field name. */
  fieldErrors?: Record<string, string> | null;
  /** The notice of the last action. */
  notice?: { tone: NoticeTone; text: string } | null;
  /** A link the last action asked to open for this member. */
  openUrl?: string | null;
  /** A validator's message, pinned to the node its path leads to (the playground). */
  problem?: { message: string; path: ReadonlyArray<string | number> } | null;
  /** An image `src` that is an asset id (not a URL) becomes this URL; without it, the alt text shows. */
  assetUrl?: (assetId: string) => string;
  /**
   * `false`: an image `src` that is a URL draws its alt text, never an `<img>` of it. A client of
   * the service passes it: the service copies every image, so a URL left in a tree was never checked
   * and would be loaded from the app's server. Default `true` (the playground, `platform dev`).
   */
  remoteImages?: boolean;
}

/** The options plus what the walk learns on the way down. */
export interface RenderContext extends RenderOptions {
  idPrefix: string;
  /** Inside a form: fields are plain form controls, not change handlers. */
  inForm: boolean;
  /** Section handles and whether each starts collapsed, read before the walk, for toggle buttons. */
  sections: Map<string, boolean>;
  /** The node `problem.path` leads to (the deepest element node on the way). */
  problemAt?: object | undefined;
  /** A counter for ids of elements that have no name of their own. */
  next: () => number;
}

export function createContext(options: RenderOptions): RenderContext {
  let n = 0;
  return { ...options, idPrefix: options.idPrefix ?? 'pb', inForm: false, sections: new Map(), next: () => n++ };
}

export const idFor = (ctx: RenderContext, part: string): string => `${ctx.idPrefix}-${part.replace(/[^A-Za-z0-9_-]/g, '_')}`;
