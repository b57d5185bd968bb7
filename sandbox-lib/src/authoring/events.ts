/**
 * @module authoring/events
 * Event subscriptions: a handler per event name. The manifest's `events` are the subscribed names;
 * each implies its read scope (`requiredScopes`). `eventSubject` finds the object a payload is
 * about and its `version`, for ignoring deliveries older than one already processed.
 */
import type { Scope } from '../scopes/index.ts';
import { isEventType, type EventType } from '../events/index.ts';
import type { EventData, LifecycleEnvelope } from '../delivery/index.ts';
import { AppDefinitionError } from './errors.ts';
import type { HandlerContext } from './context.ts';

export interface EventContext<T extends EventType = EventType> extends HandlerContext<LifecycleEnvelope<T>> {
  readonly type: T;
  readonly data: EventData<T>;
}

/** Returning acknowledges (`2xx`); throwing makes the service retry later. */
export type EventHandler<T extends EventType = EventType> = (ctx: EventContext<T>) => void | Promise<void>;

export type EventSubscription<T extends EventType> = EventHandler<T> | { readonly handler: EventHandler<T>; readonly scopes?: readonly Scope[] };

/**
 * Event name to handler (or `{ handler, scopes }` when the handler calls endpoints needing scopes).
 * @example
 * const events: EventSubscriptions = { 'decision.published': async ({ data, api }) => { await api.memories.add({ text: data.decision.text }) } };
 */
export type EventSubscriptions = { readonly [T in EventType]?: EventSubscription<T> };

export interface EventEntry {
  readonly handler: EventHandler<any>;
  readonly scopes: readonly Scope[];
}

/** Checked subscriptions, in declaration order. */
export function eventEntries(subscriptions: EventSubscriptions): Map<EventType, EventEntry> {
  const entries = new Map<EventType, EventEntry>();
  for (const [type, value] of Object.entries(subscriptions) as Array<[string, EventSubscription<any> | undefined]>) {
    if (value === undefined) continue;
    if (!isEventType(type)) throw new AppDefinitionError(['events', type], 'not an event name of the platform');
    const handler = typeof value === 'function' ? value : value.handler;
    if (typeof handler !== 'function') throw new AppDefinitionError(['events', type], 'give a handler function (or { handler, scopes })');
    entries.set(type, { handler, scopes: typeof value === 'function' ? [] : [...(value.scopes ?? [])] });
  }
  return entries;
}

/** The object a lifecycle payload is about: a stable key and its `version`. */
export interface EventSubject {
  readonly key: string;
  readonly version: number;
}

/**
 * The subject of an event payload: the first field holding an object with a numeric `version`
 * (the post, reply, message, reference, conversation, decision, call, install or block), keyed by
 * the event name and the object's identity, so a late `conversation.updated` v3 after v5 is
 * ignored while a `conversation.agreed` v4 still runs.
 * @example eventSubject('decision.updated', { decision: { id: 'dec_1', version: 3 } }) // { key: 'decision.updated:dec_1', version: 3 }
 */
export function eventSubject(type: string, data: Readonly<Record<string, unknown>>): EventSubject | null {
  for (const value of Object.values(data)) {
    if (typeof value !== 'object' || value === null) continue;
    const subject = value as Record<string, unknown>;
    if (typeof subject.version !== 'number' || !Number.isFinite(subject.version)) continue;
    const identity = typeof subject.id === 'string'
      ? subject.id
      // A reference occurrence has no id of its own: its kind, object and message name it.
      : [subject.kind, subject.externalId ?? subject.url, subject.messageId].map((part) => String(part)).join('|');
    return { key: `${type}:${identity}`, version: subject.version };
  }
  return null;
}
