/**
 * @module authoring/lifecycle
 * One lifecycle delivery (an event). Events the app does not handle are acknowledged (an older
 * app version keeps working when new events appear). A payload older than one already processed
 * for the same subject is acknowledged without running the handler. The handler returning
 * acknowledges; throwing answers `500`, and the service retries later.
 */
import { isEventType } from '../events/index.ts';
import { eventDataChecks, read } from '../delivery/lean/index.ts';
import { extendContext, handlerContext, type ContextDeps, type DeliveryEnvelope } from './context.ts';
import { eventSubject } from './events.ts';
import { callHandler, DeliveryRejection } from './failures.ts';
import type { VersionStore } from './stores.ts';
import type { AppTables } from './tables.ts';
import { SCHEDULE_FIRED } from '../schedules/delivery-type.ts';
import { QUEUE_MESSAGE } from '../queues/delivery-type.ts';

/** Lifecycle answers carry no body; any `2xx` acknowledges. */
export const acknowledged = (): Response => new Response(null, { status: 204 });

/**
 * Handles a verified lifecycle delivery.
 * @example return handleLifecycle(envelope, tables, deps, versions);
 */
export async function handleLifecycle(envelope: DeliveryEnvelope, tables: AppTables, deps: ContextDeps, versions: VersionStore | null): Promise<Response> {
  const type = envelope.type;
  // The runners come with the definitions (initiative-pieces.ts): without them nothing would run.
  if (type === SCHEDULE_FIRED) {
    if (tables.fireSchedule) await tables.fireSchedule(envelope, tables.schedules, deps);
    else deps.log.debug('No schedules here; acknowledged', { delivery: envelope.id });
    return acknowledged();
  }
  if (type === QUEUE_MESSAGE) {
    if (tables.queue) await tables.queue.run(envelope, tables.queue.handler, deps);
    else deps.log.warn('No queue here; acknowledged', { delivery: envelope.id });
    return acknowledged();
  }
  const entry = isEventType(type) ? tables.events.get(type) : undefined;
  if (!isEventType(type) || !entry) {
    deps.log.debug(`No handler for event ${type.slice(0, 100)}; acknowledged`, { delivery: envelope.id });
    return acknowledged();
  }
  const parsed = read(eventDataChecks[type], envelope.data);
  if (!parsed.ok) {
    throw new DeliveryRejection(400, 'invalid-data', `The ${type} data does not match its schema at ${parsed.path.join('.') || '(root)'}: ${parsed.message}`);
  }
  const data = parsed.value as Record<string, unknown>;
  const subject = eventSubject(type, data);
  const key = subject ? `${envelope.install.id}:${subject.key}` : undefined;
  const latest = versions && key ? await versions.get(key) : undefined;
  if (subject && latest !== undefined && subject.version < latest) {
    deps.log.debug(`Event ${type} is older than one already processed; ignored`, { delivery: envelope.id, version: subject.version, latest });
    return acknowledged();
  }
  const ctx = extendContext(handlerContext({ ...envelope, data }, deps), { type, data });
  await callHandler(`event ${type}`, () => entry.handler(ctx as never));
  if (versions && key && subject) await versions.set(key, Math.max(subject.version, latest ?? subject.version));
  return acknowledged();
}
