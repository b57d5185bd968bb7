/**
 * @module workspace/events
 * Lifecycle event production (docs/events.md): fan-out by subscription, scope and reach, and
 * outbox rows written in the transaction of their cause.
 */
export { createEventProducer, type EventProducer } from './producer.ts';
export { recordEvent, eventBatch, type EventActor, type EventBatch, type RecordEventInput } from './record.ts';
export { findRecipients, type Recipient, type FanOutInput } from './fan-out.ts';
export type { MessageFacts, ConversationFacts } from './subjects.ts';
