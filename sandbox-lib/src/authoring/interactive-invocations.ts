/**
 * @module authoring/interactive-invocations
 * `command.run` and `messageAction.run`: run the handler with the invocation context and answer
 * its InvocationAnswer, or `202` with an InvocationDeferral when it deferred.
 */
import type { InteractiveData, InvocationAnswer } from '../delivery/index.ts';
import { extendContext, handlerContext, waitUntilOf, type HandlerContext } from './context.ts';
import { deferred, isDeferred, type Deferred } from './deferred.ts';
import { callHandler } from './failures.ts';
import { unknownCommand, unknownMessageAction } from './absent-pieces.ts';
import type { InvocationContext, InvocationOutput } from './invocation.ts';
import type { BlockAnswer, InteractiveRun } from './tables.ts';

type InvocationData = InteractiveData<'command.run'> | InteractiveData<'messageAction.run'>;

function invocationContext(run: InteractiveRun<InvocationData>, onDefer: (deferral: Deferred) => void): InvocationContext {
  const data = run.envelope.data;
  const base = handlerContext(run.envelope, run.deps);
  const waitUntil = waitUntilOf(run.deps);
  const extra: Omit<InvocationContext, keyof HandlerContext> = {
    surface: data.surface,
    invocationId: data.invocationId,
    interactionToken: data.interactionToken,
    defer(work, options) {
      const deferral = deferred(options);
      onDefer(deferral);
      if (work) waitUntil(Promise.resolve().then(work));
      return deferral;
    },
    respond: (answer: InvocationAnswer) => base.api.invocations.respond({ interactionToken: data.interactionToken, answer: answer as never }),
  };
  return extendContext(base, extra);
}

function settle(output: InvocationOutput | undefined, deferral: Deferred | undefined): BlockAnswer {
  if (isDeferred(output)) return { kind: 'deferred', deferral: output };
  if (output === undefined && deferral) return { kind: 'deferred', deferral };
  return { kind: 'result', body: output };
}

export async function commandRun(run: InteractiveRun<InteractiveData<'command.run'>>): Promise<BlockAnswer> {
  const data = run.envelope.data;
  const command = run.tables.commands.get(data.command);
  if (!command) throw unknownCommand(data.command);
  let deferral: Deferred | undefined;
  const ctx = extendContext(invocationContext(run, (d) => (deferral = d)), { command: data.command, options: data.options, data });
  const output = await callHandler(`command ${data.command}`, () => command.handler(ctx));
  return settle(output, deferral);
}

export async function messageActionRun(run: InteractiveRun<InteractiveData<'messageAction.run'>>): Promise<BlockAnswer> {
  const data = run.envelope.data;
  const action = run.tables.messageActions.get(data.id);
  if (!action) throw unknownMessageAction(data.id);
  let deferral: Deferred | undefined;
  const ctx = extendContext(invocationContext(run, (d) => (deferral = d)), { id: data.id, message: data.message, context: data.context });
  const output = await callHandler(`message action ${data.id}`, () => action.handler(ctx));
  return settle(output, deferral);
}
