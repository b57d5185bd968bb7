/**
 * @module authoring/piece-types
 * The handlers' contexts and outputs of reference kinds, commands and message actions, apart from
 * the `define*` functions that attach their runners: the dispatch tables (tables.ts) and the
 * runners (interactive-*.ts) need these types, and the definers need the runners, so the types
 * sit below both (reference.ts, command.ts and message-action.ts hand them on under their names).
 */
import type { Scope } from '../scopes/index.ts';
import type { ActionResult, InteractiveData, ReferenceResolution } from '../delivery/index.ts';
import type { Deferred } from './deferred.ts';
import type { HandlerContext } from './context.ts';
import type { RenderOutput } from './block.ts';
import type { KnownKeys } from './schema.ts';
import type { InvocationContext } from './invocation.ts';

type MaybePromise<T> = T | Promise<T>;

/** One link to resolve: the kind and pattern that matched, its named parameters and the URL. */
export interface ReferenceItem {
  readonly kind: string;
  readonly patternId: string;
  readonly params: Readonly<Record<string, string>>;
  readonly url: string;
}

export interface ResolveContext extends HandlerContext, ReferenceItem {}

export interface ReferenceSearchContext extends HandlerContext {
  readonly kind: string;
  readonly query: string;
  /** At most this many items are sent back (extra ones are dropped). */
  readonly limit: number;
}

type Granted = KnownKeys<Extract<ReferenceResolution, { access: 'granted' }>>;

/**
 * A resolution as a handler writes it: `url` may be left out (the item's URL is used), a granted
 * one's `visibility` defaults to `restricted`, and its `block` may be a draft from `ui.*`.
 */
export type ResolutionOutput =
  | (Omit<Granted, 'url' | 'visibility' | 'block'> & { url?: string; visibility?: 'public' | 'restricted'; block?: RenderOutput })
  | { access: 'unauthorized' | 'forbidden' | 'notFound' | 'unavailable'; url?: string };

/** A member's click in the block of a card of this kind. */
export interface ReferenceActionContext extends HandlerContext {
  /** The card's object, and the link the member clicked it in. */
  readonly reference: { readonly kind: string; readonly externalId: string; readonly url: string };
  readonly action: { readonly name: string; readonly args: Readonly<Record<string, unknown>> };
  /** The button's args as the block's action table stored them. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly invocationId: string;
  /** The card's revision the member saw. */
  readonly revision: number;
}

/**
 * What a card action returns: a new `tree` for every card of the object (a draft from `ui.*`
 * works), what the acting member sees (`notice`, `fieldErrors`, `openUrl`), `notify`,
 * `revalidate`; nothing; or `deferred()` (then push the new fields with `PUT /v0/references`).
 * Cards have no state and are never final.
 */
export type ReferenceActionOutput =
  | void
  | Deferred
  | (Pick<ActionResult, 'notice' | 'fieldErrors' | 'openUrl' | 'notify' | 'revalidate'> & { tree?: RenderOutput });

export type ReferenceActionHandler = (ctx: ReferenceActionContext) => MaybePromise<ReferenceActionOutput>;

export interface ReferenceSearchItem {
  url: string;
  title: string;
  subtitle?: string;
  status?: { state: string; label: string };
}

export interface ReferenceConfig {
  readonly kind: string;
  readonly title: string;
  /** Pattern id to pattern (`https://host/path/:param`), or `[{ id, pattern }]` when order matters. */
  readonly patterns?: Readonly<Record<string, string>> | ReadonlyArray<{ readonly id: string; readonly pattern: string }>;
  /** True when resolutions of this kind may carry a block. */
  readonly hasBlock?: boolean;
  /** Scopes the handlers need for their own API calls (added to the app's scopes). */
  readonly scopes?: readonly Scope[];
  readonly resolve: (ctx: ResolveContext) => MaybePromise<ResolutionOutput>;
  readonly search?: (ctx: ReferenceSearchContext) => MaybePromise<readonly ReferenceSearchItem[] | { items: readonly ReferenceSearchItem[] }>;
  /** Handlers of the buttons in this kind's blocks, by action name (the `action` of `ui.button`); needs `hasBlock`. */
  readonly actions?: Readonly<Record<string, ReferenceActionHandler>>;
}

export interface CommandRunContext<O = Record<string, unknown>> extends InvocationContext {
  readonly command: string;
  /** Only the options the member filled in, already checked against the manifest by the service. */
  readonly options: O;
  readonly data: InteractiveData<'command.run'>;
}

type Data = InteractiveData<'messageAction.run'>;

export interface MessageActionRunContext extends InvocationContext {
  readonly id: string;
  readonly message: Data['message'];
  /** The message, and the thread, surrounding messages or conversation as the declared `context` allows. */
  readonly context: Data['context'];
}
