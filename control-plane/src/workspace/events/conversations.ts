/**
 * @module workspace/events/conversations
 * Events caused by changes of a conversation (docs/events.md): agreement reached (`agreed` turning
 * true) → `conversation.agreed`; any other change of title, status or agreement →
 * `conversation.updated`. One request changing the title and reaching agreement records both, with
 * the same version. A change that changes nothing records nothing and keeps the version.
 */
import type { EventType } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { findRecipients } from './fan-out.ts';
import { eventBatch, type EventActor } from './record.ts';
import { bumpConversationVersion } from './store.ts';
import { conversationSubject, type ConversationFacts } from './subjects.ts';

export interface ConversationState {
  id: string;
  workspaceId: string;
  circleId: string;
  title: string;
  status: string | null;
  agreed: boolean | null;
}

/** Which events a change causes. */
export function conversationChangeEvents(before: ConversationState, after: ConversationState): EventType[] {
  const agreedNow = after.agreed === true && before.agreed !== true;
  const otherChange = before.title !== after.title || before.status !== after.status || (before.agreed !== after.agreed && !agreedNow);
  return [...(agreedNow ? ['conversation.agreed' as const] : []), ...(otherChange ? ['conversation.updated' as const] : [])];
}

/**
 * Counts the change and records its events (inside the transaction that made it); answers the
 * conversation's version.
 */
export async function conversationChanged(tx: Db, before: ConversationState, after: ConversationState, actor: EventActor, at: Date): Promise<number | null> {
  const types = conversationChangeEvents(before, after);
  if (types.length === 0) return null;
  const version = await bumpConversationVersion(tx, after.id);
  const recipients = await findRecipients(tx, { workspaceId: after.workspaceId, circleId: after.circleId, types });
  const facts: ConversationFacts = { id: after.id, circleId: after.circleId, title: after.title, status: after.status, agreed: after.agreed, version };
  const batch = eventBatch(at, actor);
  for (const r of recipients) for (const type of types) if (r.accepts(type)) batch.add(r, type, { conversation: conversationSubject(facts) });
  await batch.write(tx);
  return version;
}
