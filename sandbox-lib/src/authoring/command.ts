/**
 * @module authoring/command
 * `defineCommand`: a slash command and its options, written as the manifest lists them (in
 * order, required first). The handler's `options` are typed from the option list: names, value
 * kinds, which ones are always present, and a `choice` option's values.
 */
import type { Scope } from '../scopes/index.ts';
import type { CommandDefinition, CommandOptionType } from '../manifest/index.ts';
import { AppDefinitionError } from './errors.ts';
import { commandRun } from './interactive-invocations.ts';
import { invocationResult } from '../delivery/lean/interactive-pieces.ts';
import type { InvocationOutput } from './invocation.ts';
import type { CommandRunContext } from './piece-types.ts';
import type { InvocationHandlers } from './tables.ts';

export type { CommandRunContext } from './piece-types.ts';

const COMMAND = Symbol.for('platform.authoring.command');
const HANDLERS = Symbol.for('platform.authoring.commandHandlers');
/** `command.run`, run by `defineApp` through the definitions (see absent-pieces.ts). */
const RUNNERS = { 'command.run': { run: commandRun, result: invocationResult } } as const;

export interface CommandOptionConfig {
  readonly name: string;
  readonly description: string;
  readonly type: CommandOptionType;
  readonly required?: boolean;
  /** Only for `choice`. */
  readonly choices?: ReadonlyArray<{ readonly value: string; readonly label: string }>;
  /** Only for `appObject`: one of the app's reference kinds. */
  readonly objectKind?: string;
}

/** The value a member gives for an option. */
export type OptionValueOf<O extends CommandOptionConfig> =
  O['type'] extends 'string' ? string
  : O['type'] extends 'integer' | 'number' ? number
  : O['type'] extends 'boolean' ? boolean
  : O['type'] extends 'choice' ? (O['choices'] extends ReadonlyArray<{ readonly value: infer V }> ? V : string)
  : O['type'] extends 'member' ? { kind: 'member'; memberId: string; name: string }
  : O['type'] extends 'circle' ? { kind: 'circle'; circleId: string; name: string }
  : O['type'] extends 'appObject' ? { kind: 'appObject'; id: string; title: string }
  : never;

/** The options a handler receives: required ones always present, the others only when filled in. */
export type CommandOptions<O extends readonly CommandOptionConfig[]> =
  & { [K in O[number] as K extends { required: true } ? K['name'] : never]: OptionValueOf<K> }
  & { [K in O[number] as K extends { required: true } ? never : K['name']]?: OptionValueOf<K> };

export interface CommandConfig<O extends readonly CommandOptionConfig[]> {
  readonly name: string;
  readonly description: string;
  readonly options?: O;
  readonly scopes?: readonly Scope[];
  readonly handler: (ctx: CommandRunContext<CommandOptions<O>>) => InvocationOutput | Promise<InvocationOutput>;
}

export interface Command {
  readonly [COMMAND]: true;
  readonly name: string;
  readonly manifest: CommandDefinition;
  readonly [HANDLERS]: InvocationHandlers<CommandRunContext<any>>;
  toJSON(): CommandDefinition;
}

/**
 * Defines a slash command.
 * @example
 * const poll = defineCommand({
 *   name: 'poll', description: 'Start a poll',
 *   options: [{ name: 'question', type: 'string', description: 'What to ask', required: true }],
 *   handler: ({ options }) => ({ visibility: 'public', block: { type: 'poll', props: { question: options.question } } }),
 * });
 */
export function defineCommand<const O extends readonly CommandOptionConfig[] = []>(config: CommandConfig<O>): Command {
  const where = ['commands', typeof config?.name === 'string' ? config.name : '?'];
  if (typeof config?.handler !== 'function') throw new AppDefinitionError([...where, 'handler'], 'every command needs a handler');
  const manifest: CommandDefinition = {
    name: config.name,
    description: config.description,
    options: (config.options ?? []).map((option) => ({
      name: option.name,
      description: option.description,
      type: option.type,
      required: option.required === true,
      ...(option.choices !== undefined ? { choices: option.choices.map(({ value, label }) => ({ value, label })) } : {}),
      ...(option.objectKind !== undefined ? { objectKind: option.objectKind } : {}),
    })),
  };
  const command = { [COMMAND]: true as const, name: config.name, manifest, toJSON: () => manifest };
  Object.defineProperty(command, HANDLERS, { value: { handler: config.handler, scopes: [...(config.scopes ?? [])], runners: RUNNERS }, enumerable: false });
  return Object.freeze(command) as Command;
}

/** The handlers of a defined command, or `undefined`. */
export function commandHandlers(value: unknown): InvocationHandlers<CommandRunContext<any>> | undefined {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[COMMAND] === true ? (value as Command)[HANDLERS] : undefined;
}
