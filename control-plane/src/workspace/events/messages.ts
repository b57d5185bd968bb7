/**
 * @module workspace/events/messages
 * Events caused by messages in circles (docs/events.md):
 *
 * - a top-level message that starts something: the first message of a conversation, or a chat
 *   message in a circle → `post.created`;
 * - a reply in a thread → `reply.created` (`replyTo` the thread's root); a later top-level message
 *   of a conversation answers its first post → `reply.created` (`replyTo` that post);
 * - a message naming the app (`@slug`, or an app mention node) → `app.mentioned`, to that app only;
 * - each link matching a pattern of one of the app's reference kinds → `reference.created`; an
 *   edit that drops it, or deleting the message → `reference.removed` (an edit adding one →
 *   `reference.created`);
 * - filing a chat message into a conversation → `message.filed`.
 *
 * Direct messages are in no circle and cause no event.
 */
import { matchReferencePattern, type EventType } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { links, mentions } from './content.ts';
import { findRecipients, type Recipient } from './fan-out.ts';
import { eventBatch, type EventActor, type EventBatch } from './record.ts';
import { conversationHasOtherPosts, firstPostOf } from './store.ts';
import { messageSubject, referenceSubject, type MessageFacts, type ReferenceMatch } from './subjects.ts';

/** Each (kind, link) of the message matching one of the recipient's patterns, first pattern wins. */
export function referenceMatches(recipient: Recipient, urls: readonly string[]): ReferenceMatch[] {
  const out: ReferenceMatch[] = [];
  for (const { kind, patterns } of recipient.referenceKinds()) {
    for (const url of urls) {
      for (const { id, pattern } of patterns) {
        const params = matchReferencePattern(pattern, url);
        if (params !== null) {
          out.push({ kind, patternId: id, params, url });
          break;
        }
      }
    }
  }
  return out;
}

const names = (recipient: Recipient, named: ReadonlySet<string>) => named.has(recipient.slug) || named.has(recipient.appId);

function addMentionsAndReferences(batch: EventBatch, recipients: Recipient[], m: MessageFacts, named: ReadonlySet<string>, urls: readonly string[], removed: readonly string[]): void {
  for (const r of recipients) {
    if (named.size > 0 && r.accepts('app.mentioned') && names(r, named)) batch.add(r, 'app.mentioned', { message: messageSubject(m) });
    if (urls.length > 0 && r.accepts('reference.created')) {
      for (const match of referenceMatches(r, urls)) batch.add(r, 'reference.created', { reference: referenceSubject(m, match) });
    }
    if (removed.length > 0 && r.accepts('reference.removed')) {
      for (const match of referenceMatches(r, removed)) batch.add(r, 'reference.removed', { reference: referenceSubject(m, match) });
    }
  }
}

/**
 * Records the events of a message just posted (call inside the transaction that inserted it).
 * @example await messagePosted(tx, facts, { memberId, name }, at);
 */
export async function messagePosted(tx: Db, m: MessageFacts, actor: EventActor, at: Date): Promise<void> {
  let kind: 'post.created' | 'reply.created' = 'post.created';
  let replyTo = m.replyTo;
  if (replyTo === null && m.conversationId !== null && await conversationHasOtherPosts(tx, m.conversationId, m.id)) {
    kind = 'reply.created';
    replyTo = (await firstPostOf(tx, m.conversationId)) ?? null;
  } else if (replyTo !== null) {
    kind = 'reply.created';
  }
  const types: EventType[] = [kind, 'app.mentioned', 'reference.created'];
  const recipients = await findRecipients(tx, { workspaceId: m.workspaceId, circleId: m.circleId, types });
  if (recipients.length === 0) return;
  const batch = eventBatch(at, actor);
  for (const r of recipients) {
    if (!r.accepts(kind)) continue;
    if (kind === 'post.created') batch.add(r, kind, { post: messageSubject(m) });
    else batch.add(r, kind, { reply: { ...messageSubject(m), replyTo } });
  }
  addMentionsAndReferences(batch, recipients, m, mentions(m.body), links(m.body), []);
  await batch.write(tx);
}

/**
 * Records the events of an edit: apps newly named, links added and links dropped. `after` carries
 * the new version.
 */
export async function messageEdited(tx: Db, before: MessageFacts, after: MessageFacts, actor: EventActor, at: Date): Promise<void> {
  const previous = mentions(before.body);
  const named = new Set([...mentions(after.body)].filter((n) => !previous.has(n)));
  const oldLinks = links(before.body);
  const newLinks = links(after.body);
  const added = newLinks.filter((u) => !oldLinks.includes(u));
  const removed = oldLinks.filter((u) => !newLinks.includes(u));
  if (named.size === 0 && added.length === 0 && removed.length === 0) return;
  const recipients = await findRecipients(tx, { workspaceId: after.workspaceId, circleId: after.circleId, types: ['app.mentioned', 'reference.created', 'reference.removed'] });
  if (recipients.length === 0) return;
  const batch = eventBatch(at, actor);
  addMentionsAndReferences(batch, recipients, after, named, added, removed);
  await batch.write(tx);
}

/**
 * Records the events of a message about to be deleted: each link it carried, as an edit dropping
 * it would (`reference.removed`). `m` carries the version of the deletion.
 */
export async function messageDeleted(tx: Db, m: MessageFacts, actor: EventActor, at: Date): Promise<void> {
  const removed = links(m.body);
  if (removed.length === 0) return;
  const recipients = await findRecipients(tx, { workspaceId: m.workspaceId, circleId: m.circleId, types: ['reference.removed'] });
  if (recipients.length === 0) return;
  const batch = eventBatch(at, actor);
  addMentionsAndReferences(batch, recipients, m, new Set(), [], removed);
  await batch.write(tx);
}

/** Records `message.filed` for a chat message just filed into a conversation (`m` as filed, new version). */
export async function messageFiled(tx: Db, m: MessageFacts, actor: EventActor, at: Date): Promise<void> {
  const recipients = await findRecipients(tx, { workspaceId: m.workspaceId, circleId: m.circleId, types: ['message.filed'] });
  const batch = eventBatch(at, actor);
  for (const r of recipients) if (r.accepts('message.filed')) batch.add(r, 'message.filed', { message: messageSubject(m) });
  await batch.write(tx);
}
