/**
 * @module workspace/events/producer
 * What workspace services call to record events: every function runs inside the caller's
 * transaction; `committed()` after that transaction tells this process's outbox workers to look
 * now. Workers of other processes learn of the rows from the database's notification (real
 * Postgres) or their next poll.
 */
import { conversationChanged } from './conversations.ts';
import { messageDeleted, messageEdited, messageFiled, messagePosted } from './messages.ts';
import { recordEvent } from './record.ts';

export interface EventProducer {
  messagePosted: typeof messagePosted;
  messageEdited: typeof messageEdited;
  messageFiled: typeof messageFiled;
  messageDeleted: typeof messageDeleted;
  conversationChanged: typeof conversationChanged;
  record: typeof recordEvent;
  /** Call after the transaction that recorded events committed. */
  committed(): void;
}

/**
 * @example
 * const events = createEventProducer({ wake: () => outbox.wake() });
 * await db.transaction((tx) => events.messagePosted(tx, facts, actor, at));
 * events.committed();
 */
export function createEventProducer(deps: { wake?: () => void } = {}): EventProducer {
  return {
    messagePosted,
    messageEdited,
    messageFiled,
    messageDeleted,
    conversationChanged,
    record: recordEvent,
    committed: () => deps.wake?.(),
  };
}
