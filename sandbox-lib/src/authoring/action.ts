/**
 * @module authoring/action
 * Block actions: hints, scopes, the `agent` flag, `args` and `input` schemas, and two handlers a
 * block action may have: `handler` for `block.action` (a click, a form, a change) and `search`
 * for `select.search` (a search select pointing at this action). `defineAction` checks the
 * definition; the block computes its manifest fragment, since the action's name is its key there.
 */
import type { Scope } from '../scopes/index.ts';
import type { ActionDefinition } from '../manifest/index.ts';
import type { BlockRecord } from '../api/index.ts';
import type { ActionTable, Draft, RenderedTree, UiBlockNode } from '../catalog/index.ts';
import type { ActionResult, BlockAsDelivered } from '../delivery/index.ts';
import { AppDefinitionError, type DefinitionPath } from './errors.ts';
import type { HandlerContext } from './context.ts';
import type { Deferred } from './deferred.ts';
import { toJsonSchema, type Infer, type KnownKeys, type SchemaInput } from './schema.ts';

const ACTION = Symbol.for('platform.authoring.action');

type Json = Record<string, unknown>;
/** The value a schema type parameter describes; JSON when none was written (`undefined`, or `unknown` when inferred from nothing). */
type InferOr<S> = [S] extends [undefined] ? Json : unknown extends S ? Json : Infer<S>;

/** The block a delivery is about, with props and state read by the block's schemas. */
export interface BlockView<P, S> {
  /** The block as delivered (its fields only, as `ctx.actor`). */
  readonly block: KnownKeys<BlockAsDelivered>;
  readonly props: P;
  readonly state: S;
}

export interface ActionContext<P = Json, S = Json, A = Json, I = Json> extends HandlerContext, BlockView<P, S> {
  readonly action: { readonly name: string; readonly args: Json };
  /** `action.args`, read by the action's `args` schema. */
  readonly args: A;
  /** Form values or a change handler's picks, read by the action's `input` schema. */
  readonly input: I | undefined;
  readonly tallies: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly invocationId: string;
  readonly interactionToken: string;
  /** Answer `202` now; `work` (if given) runs on and should update the block with `ctx.updateBlock`. */
  defer(work?: () => Promise<unknown>): Deferred;
  /** The block's tree for `state` (default: the current state), from the block's `render`. */
  render(state?: S): Promise<RenderedTree>;
  /** Updates this block with the interaction token (within 15 minutes): merges `state`, or replaces it. */
  updateBlock(state: Partial<S>, options?: { expectedVersion?: number; replace?: boolean }): Promise<BlockRecord>;
}

export interface SearchContext<P = Json, S = Json, A = Json> extends HandlerContext, BlockView<P, S> {
  readonly action: { readonly name: string; readonly args: Json };
  readonly args: A;
  readonly query: string;
}

export interface SelectOption {
  value: string;
  label: string;
  description?: string;
}

/**
 * What a `block.action` handler returns: an ActionResult whose `state` has the block's type and
 * whose `tree` may be a draft from `ui.*` (its action table is then computed), nothing (`{}`),
 * or `deferred()`. `N`: the action names the tree's builders may use (the block's, inline).
 */
export type ActionOutput<S = Json, N extends string = string> =
  | void
  | Deferred
  | (Omit<ActionResult, 'state' | 'tree' | 'actions'> & { state?: S; tree?: Draft<N> | UiBlockNode; actions?: ActionTable });

export type SearchOutput = readonly SelectOption[] | { options: readonly SelectOption[] };

type MaybePromise<T> = T | Promise<T>;

/** An action as written: hints at the top level (default `false`), scopes, schemas and handlers. */
export interface ActionConfig<P = Json, S = Json, A extends SchemaInput | undefined = undefined, I extends SchemaInput | undefined = undefined> {
  readonly description?: string;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
  readonly scopes?: readonly Scope[];
  /** Whether the action becomes an agent tool. */
  readonly agent?: boolean;
  readonly args?: A;
  readonly input?: I;
  readonly handler?: (ctx: ActionContext<P, S, InferOr<A>, InferOr<I>>) => MaybePromise<ActionOutput<S>>;
  readonly search?: (ctx: SearchContext<P, S, InferOr<A>>) => MaybePromise<SearchOutput>;
}

/**
 * An action written inline in `defineBlock({ actions })`: the block gives it the props and state
 * types and its action names `N` (for the builders of a tree it answers), and its own `args` and
 * `input` schemas give `ctx.args` and `ctx.input` theirs. `A` and `I` are inferred from what is
 * written (`unknown` when a schema is left out: JSON then).
 */
export interface InlineAction<P, S, A, I, N extends string = string> extends Omit<ActionConfig<P, S>, 'args' | 'input' | 'handler' | 'search'> {
  readonly args?: A & SchemaInput;
  readonly input?: I & SchemaInput;
  readonly handler?: (ctx: ActionContext<P, S, InferOr<A>, InferOr<I>>) => MaybePromise<ActionOutput<S, N>>;
  readonly search?: (ctx: SearchContext<P, S, InferOr<A>>) => MaybePromise<SearchOutput>;
}

/**
 * The `actions` of a block: `defineAction(...)` values or inline objects. Written as two mapped
 * types over the action names so TypeScript infers each action's `args` schema (`A`) and `input`
 * schema (`I`) from the object literal, then types its handlers with them. `N`: the block's action
 * names, which the builders of the trees its handlers answer may use.
 */
export type BlockActions<P, S, A, I, N extends string = string> =
  & { readonly [K in keyof A]: BlockAction<P, S> | InlineAction<P, S, A[K], K extends keyof I ? I[K] : unknown, NoInfer<N>> }
  & { readonly [K in keyof I]: BlockAction<P, S> | { readonly input?: I[K] & SchemaInput } };

/** A checked action definition (what `defineAction` returns). */
export interface BlockAction<P = any, S = any> {
  readonly [ACTION]: true;
  readonly config: ActionConfig<P, S, SchemaInput | undefined, SchemaInput | undefined>;
}

/**
 * Defines a block action. Inside `defineBlock({ actions })` a plain object works too and gets the
 * block's props and state types; give them as type arguments when defining an action apart.
 * @example
 * const close = defineAction<Props, State>({ destructive: true, scopes: ['notifications:write'],
 *   handler: ({ state }) => ({ state: { ...state, open: false }, final: { summary: 'Poll closed' } }) });
 */
export function defineAction<P = Json, S = Json, const A extends SchemaInput | undefined = undefined, const I extends SchemaInput | undefined = undefined>(
  config: ActionConfig<P, S, A, I>,
): BlockAction<P, S> {
  checkAction(config, ['action']);
  return Object.freeze({ [ACTION]: true as const, config: config as ActionConfig<P, S, SchemaInput | undefined, SchemaInput | undefined> });
}

/** The config of an action given as `defineAction(...)` or as a plain object. */
export function actionConfig(value: unknown, path: DefinitionPath): ActionConfig<any, any, SchemaInput | undefined, SchemaInput | undefined> {
  const config = typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ACTION] === true ? (value as BlockAction).config : value;
  checkAction(config, path);
  return config as ActionConfig<any, any, SchemaInput | undefined, SchemaInput | undefined>;
}

function checkAction(config: unknown, path: DefinitionPath): void {
  if (typeof config !== 'object' || config === null) throw new AppDefinitionError(path, 'an action is an object (or defineAction(...))');
  const { handler, search } = config as ActionConfig;
  if (handler !== undefined && typeof handler !== 'function') throw new AppDefinitionError([...path, 'handler'], 'must be a function');
  if (search !== undefined && typeof search !== 'function') throw new AppDefinitionError([...path, 'search'], 'must be a function');
  if (handler === undefined && search === undefined) throw new AppDefinitionError(path, 'give a handler (block.action), a search (select.search), or both');
}

/**
 * The manifest fragment of an action named `name`.
 * @example actionFragment('close', { destructive: true, handler }, ['blocks', 'poll', 'actions', 'close'])
 */
export function actionFragment(name: string, config: ActionConfig<any, any, SchemaInput | undefined, SchemaInput | undefined>, path: DefinitionPath): ActionDefinition {
  return {
    name,
    ...(config.description !== undefined ? { description: config.description } : {}),
    ...(config.args !== undefined ? { args: toJsonSchema(config.args, 'input', [...path, 'args']) } : {}),
    ...(config.input !== undefined ? { input: toJsonSchema(config.input, 'input', [...path, 'input']) } : {}),
    hints: { readOnly: config.readOnly === true, destructive: config.destructive === true, idempotent: config.idempotent === true },
    scopes: [...(config.scopes ?? [])],
    agent: config.agent === true,
  };
}
