/**
 * @module authoring/block
 * `defineBlock`: a block type's manifest fragment (computed now, from data only) and its handlers
 * (`render`, `insert`, the actions' handlers), kept apart so `JSON.stringify(block)` is the fragment.
 */
import type { BlockDefinition } from '../manifest/index.ts';
import type { Draft, RenderedTree } from '../catalog/index.ts';
import { AppDefinitionError } from './errors.ts';
import type { HandlerContext } from './context.ts';
import { actionConfig, actionFragment, type ActionConfig, type BlockActions, type BlockView } from './action.ts';
import { toJsonSchema, type Infer, type SchemaInput } from './schema.ts';

const BLOCK = Symbol.for('platform.authoring.block');
const HANDLERS = Symbol.for('platform.authoring.blockHandlers');

type MaybePromise<T> = T | Promise<T>;
type Json = Record<string, unknown>;
type AnyAction = ActionConfig<any, any, SchemaInput | undefined, SchemaInput | undefined>;

export interface RenderContext<P = Record<string, unknown>, S = Record<string, unknown>> extends HandlerContext, BlockView<P, S> {
  readonly mode: 'interactive';
}

export interface InsertContext<P = Record<string, unknown>> extends HandlerContext {
  readonly type: string;
  readonly props: P;
  /** Where the block goes; neither is set outside a circle (a preview). */
  readonly target: { readonly conversationId?: string; readonly circleId?: string };
}

/**
 * A tree from `render`: a draft from `ui.block(...)` (references assigned for you) or `renderTree`'s
 * answer. `N`: the action names its builders may use (in `defineBlock`, the block's own).
 */
export type RenderOutput<N extends string = string> = Draft<N> | RenderedTree;

/** A choice input members vote or pick with (counted by the service in `tallies`). */
export interface ChoiceInputConfig {
  readonly kind?: 'choice';
  readonly values: readonly string[];
  readonly multiple?: boolean;
  readonly anonymous?: boolean;
}

/**
 * `K`: the names of `actions`, inferred from its keys (a mapped type over a type parameter is
 * inferred from the keys even while the handlers wait for their own types); `render` and the
 * inline handlers' trees take them as the only names their builders accept.
 */
export interface BlockConfig<PS extends SchemaInput, SS extends SchemaInput, A extends Json = Json, I extends Json = Json, K extends string = string> {
  readonly type: string;
  readonly title: string;
  readonly description?: string;
  readonly icon?: string;
  /** Members may insert it from the composer. */
  readonly insertable?: boolean;
  readonly reopenable?: boolean;
  readonly props: PS;
  readonly state: SS;
  /** Seconds after which the service asks for a fresh render (60 s to 30 days). */
  readonly staleAfter?: number;
  readonly inputs?: Readonly<Record<string, ChoiceInputConfig>>;
  readonly sections?: readonly string[];
  /** Inline objects get `args` and `input` typed from their own schemas, and props and state from the block's. */
  readonly actions?: { readonly [Name in K]: unknown } & BlockActions<Infer<PS>, Infer<SS>, A, I, K>;
  /**
   * Draws the block for its props and state (`block.render`, and after an action that changed state).
   * The builders written in it take only the block's action names (`ui.button({ action })`).
   */
  readonly render: (ctx: RenderContext<Infer<PS>, Infer<SS>>) => MaybePromise<RenderOutput<NoInfer<K>>>;
  /** The initial state of a new block (`block.insert`). Default: the state schema's reading of `{}`. */
  readonly insert?: (ctx: InsertContext<Infer<PS>>) => MaybePromise<Infer<SS>>;
}

/** What `render`, `insert` and the actions need at delivery time. */
export interface BlockHandlers {
  readonly props: SchemaInput;
  readonly state: SchemaInput;
  readonly render: (ctx: RenderContext<any, any>) => MaybePromise<RenderOutput>;
  readonly insert?: (ctx: InsertContext<any>) => MaybePromise<unknown>;
  readonly actions: ReadonlyMap<string, AnyAction>;
}

/** A defined block: its manifest fragment, plus handlers in a slot JSON does not see. */
export interface Block<P = any, S = any> {
  readonly [BLOCK]: true;
  readonly type: string;
  readonly manifest: BlockDefinition;
  readonly [HANDLERS]: BlockHandlers;
  /** Phantom: the props and state types, for typed helpers. */
  readonly __types?: { props: P; state: S };
  toJSON(): BlockDefinition;
}

/**
 * Defines a block type.
 * @example
 * const counter = defineBlock({
 *   type: 'counter', title: 'Counter', insertable: true,
 *   props: z.object({ label: z.string().default('Clicks') }),
 *   state: z.object({ count: z.int().min(0).default(0) }),
 *   actions: { increment: { idempotent: false, handler: ({ state }) => ({ state: { count: state.count + 1 } }) } },
 *   render: ({ props, state }) => ui.block({ summary: `${props.label}: ${state.count}` }, [
 *     ui.header({ title: `${props.label}: ${state.count}` }),
 *     ui.actions([ui.button({ label: 'Add one', action: 'increment' })]),
 *   ]),
 * });
 */
export function defineBlock<const PS extends SchemaInput, const SS extends SchemaInput, A extends Json = Record<never, never>, I extends Json = Record<never, never>, K extends string = never>(
  config: BlockConfig<PS, SS, A, I, K>,
): Block<Infer<PS>, Infer<SS>> {
  if (typeof config !== 'object' || config === null) throw new AppDefinitionError(['blocks'], 'a block is an object');
  const where = ['blocks', typeof config.type === 'string' ? config.type : '?'];
  if (typeof config.render !== 'function') throw new AppDefinitionError([...where, 'render'], 'every block needs a render function');
  if (config.insert !== undefined && typeof config.insert !== 'function') throw new AppDefinitionError([...where, 'insert'], 'must be a function');

  const actions = new Map<string, AnyAction>();
  for (const [name, value] of Object.entries(config.actions ?? {})) actions.set(name, actionConfig(value, [...where, 'actions', name]));

  const manifest: BlockDefinition = {
    type: config.type,
    title: config.title,
    ...(config.description !== undefined ? { description: config.description } : {}),
    ...(config.icon !== undefined ? { icon: config.icon } : {}),
    insertable: config.insertable === true,
    reopenable: config.reopenable === true,
    props: toJsonSchema(config.props, 'input', [...where, 'props']),
    state: toJsonSchema(config.state, 'output', [...where, 'state']),
    ...(config.staleAfter !== undefined ? { staleAfter: config.staleAfter } : {}),
    inputs: Object.fromEntries(Object.entries(config.inputs ?? {}).map(([name, input]) => [name, {
      kind: 'choice' as const,
      values: [...(input.values ?? [])],
      ...(input.multiple !== undefined ? { multiple: input.multiple } : {}),
      ...(input.anonymous !== undefined ? { anonymous: input.anonymous } : {}),
    }])),
    sections: [...(config.sections ?? [])],
    actions: [...actions].map(([name, action]) => actionFragment(name, action, [...where, 'actions', name])),
  };
  const handlers: BlockHandlers = { props: config.props, state: config.state, render: config.render, insert: config.insert, actions };
  const block = { [BLOCK]: true as const, type: config.type, manifest, toJSON: () => manifest };
  Object.defineProperty(block, HANDLERS, { value: handlers, enumerable: false });
  return Object.freeze(block) as Block<Infer<PS>, Infer<SS>>;
}

/** The handlers of a defined block, or `undefined` for anything else. */
export function blockHandlers(value: unknown): BlockHandlers | undefined {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BLOCK] === true ? (value as Block)[HANDLERS] : undefined;
}
