/**
 * @module events/table
 * The spec's event table as data: each of the 18 lifecycle event names and the read scope a
 * subscription to it implies (`null`: no scope needed).
 */
import type { Scope } from '../scopes/index.ts';

export const EVENTS = {
  'post.created': 'conversations:read',
  'reply.created': 'conversations:read',
  'app.mentioned': 'conversations:read',
  'reference.created': 'conversations:read',
  'reference.removed': 'conversations:read',
  'message.filed': 'conversations:read',
  'conversation.updated': 'conversations:read',
  'conversation.agreed': 'conversations:read',
  'decision.published': 'decisions:read',
  'decision.updated': 'decisions:read',
  'call.recapReady': 'calls:read',
  'app.installed': null,
  'app.uninstalled': null,
  'app.reconsentRequired': null,
  'block.created': null,
  'block.removed': null,
} as const satisfies Record<string, Scope | null>;

export type EventType = keyof typeof EVENTS;

/** Every event name, in the spec's order. */
export const EVENT_TYPES = Object.keys(EVENTS) as [EventType, ...EventType[]];


/**
 * True when `value` names a lifecycle event of the spec.
 * @example isEventType('block.created') // true
 */
export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.hasOwn(EVENTS, value);
}

/**
 * The read scope a subscription to `type` implies, or `null`.
 * @example eventScope('decision.updated') // 'decisions:read'
 */
export function eventScope(type: EventType): Scope | null {
  return EVENTS[type];
}
