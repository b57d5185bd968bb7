/**
 * @module authoring/absent-pieces
 * What an app answers to a delivery for a piece it does not define (no such reference kind,
 * command or message action). The runners of those deliveries come with the definitions
 * (`defineReference`, `defineCommand`, `defineMessageAction` attach them), so an app without any
 * such piece does not bundle them; these answers are what it gives instead, and the runners use the
 * same functions for the names they do not know, so both say the same.
 */
import type { InteractiveData } from '../delivery/index.ts';
import type { InteractiveType } from '../delivery/constants.ts';
import { DeliveryRejection } from './failures.ts';
import type { InteractiveRun, Runner } from './tables.ts';

export const unknownCommand = (name: string): DeliveryRejection =>
  new DeliveryRejection(404, 'unknown-command', `This app version has no command "${name.slice(0, 100)}"`);

export const unknownMessageAction = (id: string): DeliveryRejection =>
  new DeliveryRejection(404, 'unknown-message-action', `This app version has no message action "${id.slice(0, 100)}"`);

export const unknownSearchKind = (kind: string): DeliveryRejection =>
  new DeliveryRejection(404, 'unknown-reference-kind', `This app version has no searchable reference kind "${kind.slice(0, 100)}"`);

type Item = InteractiveData<'reference.resolve'>['items'][number];

/** A link of a kind this app version does not define: `unavailable` (resolved again later), with a warning. */
export function unknownKindResolution(run: InteractiveRun<unknown>, item: Item): { url: string; access: 'unavailable' } {
  run.deps.log.warn(`No reference kind "${item.kind}" in this app version; answering unavailable`, { url: item.url });
  return { url: item.url, access: 'unavailable' };
}

/**
 * The runners of an app that defines none of the pieces. Only the resolve answers, with links it
 * read from checked data marked `unavailable`: a result its schema always accepts, so it carries
 * no check (that is what keeps the pieces' result checks out of such an app).
 */
export const ABSENT_RUNNERS: Record<Extract<InteractiveType, `reference.${string}` | 'command.run' | 'messageAction.run'>, Runner> = {
  'reference.resolve': {
    run: async (run: InteractiveRun<InteractiveData<'reference.resolve'>>) =>
      ({ kind: 'result', body: { items: run.envelope.data.items.map((item) => unknownKindResolution(run, item)) } }),
  },
  'reference.search': {
    run: async (run: InteractiveRun<InteractiveData<'reference.search'>>) => {
      throw unknownSearchKind(run.envelope.data.kind);
    },
  },
  'command.run': {
    run: async (run: InteractiveRun<InteractiveData<'command.run'>>) => {
      throw unknownCommand(run.envelope.data.command);
    },
  },
  'messageAction.run': {
    run: async (run: InteractiveRun<InteractiveData<'messageAction.run'>>) => {
      throw unknownMessageAction(run.envelope.data.id);
    },
  },
};
