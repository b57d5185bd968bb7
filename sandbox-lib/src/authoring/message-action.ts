/**
 * @module authoring/message-action
 * `defineMessageAction`: an entry of a message's menu. `context` is how much of the conversation
 * the app receives; the manifest leaves it out when it is `message` (the spec's rule), and any
 * message action makes the app ask for `conversations:read`.
 */
import type { Scope } from '../scopes/index.ts';
import type { MessageActionContext, MessageActionDefinition } from '../manifest/index.ts';
import { AppDefinitionError } from './errors.ts';
import { messageActionRun } from './interactive-invocations.ts';
import { invocationResult } from '../delivery/lean/interactive-pieces.ts';
import type { InvocationOutput } from './invocation.ts';
import type { MessageActionRunContext } from './piece-types.ts';
import type { InvocationHandlers } from './tables.ts';

export type { MessageActionRunContext } from './piece-types.ts';

const MESSAGE_ACTION = Symbol.for('platform.authoring.messageAction');
const HANDLERS = Symbol.for('platform.authoring.messageActionHandlers');
/** `messageAction.run`, run by `defineApp` through the definitions (see absent-pieces.ts). */
const RUNNERS = { 'messageAction.run': { run: messageActionRun, result: invocationResult } } as const;

export interface MessageActionConfig {
  readonly id: string;
  readonly label: string;
  readonly icon?: string;
  /** `message` (default), `thread` or `conversation`. */
  readonly context?: MessageActionContext;
  readonly scopes?: readonly Scope[];
  readonly handler: (ctx: MessageActionRunContext) => InvocationOutput | Promise<InvocationOutput>;
}

export interface MessageAction {
  readonly [MESSAGE_ACTION]: true;
  readonly id: string;
  readonly manifest: MessageActionDefinition;
  readonly [HANDLERS]: InvocationHandlers<MessageActionRunContext>;
  toJSON(): MessageActionDefinition;
}

/**
 * Defines a message action.
 * @example
 * const summarize = defineMessageAction({ id: 'summarize', label: 'Summarize', context: 'thread',
 *   handler: ({ context }) => ({ visibility: 'private', notice: { tone: 'info', text: `${context.thread?.length ?? 0} messages` } }) });
 */
export function defineMessageAction(config: MessageActionConfig): MessageAction {
  const where = ['messageActions', typeof config?.id === 'string' ? config.id : '?'];
  if (typeof config?.handler !== 'function') throw new AppDefinitionError([...where, 'handler'], 'every message action needs a handler');
  const manifest: MessageActionDefinition = {
    id: config.id,
    label: config.label,
    ...(config.icon !== undefined ? { icon: config.icon } : {}),
    ...(config.context !== undefined && config.context !== 'message' ? { context: config.context } : {}),
  };
  const action = { [MESSAGE_ACTION]: true as const, id: config.id, manifest, toJSON: () => manifest };
  Object.defineProperty(action, HANDLERS, { value: { handler: config.handler, scopes: [...(config.scopes ?? [])], runners: RUNNERS }, enumerable: false });
  return Object.freeze(action) as MessageAction;
}

/** The handlers of a defined message action, or `undefined`. */
export function messageActionHandlers(value: unknown): InvocationHandlers<MessageActionRunContext> | undefined {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MESSAGE_ACTION] === true ? (value as MessageAction)[HANDLERS] : undefined;
}
