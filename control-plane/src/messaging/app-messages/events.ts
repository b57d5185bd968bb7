/**
 * @module messaging/app-messages/events
 * The lifecycle events of a message an app posted, by the rules members' messages follow
 * (workspace/events/messages.ts, docs/events.md): `post.created` for a chat message or a conversation's first
 * post, `reply.created` for a thread reply or a later top-level message (`replyTo` the thread's
 * root or the conversation's first post), `app.mentioned` for apps it names, `reference.created`
 * for links matching an app's patterns; fan-out by subscription, scope and reach as for members.
 *
 * Two differences (docs/decisions/app-messages.md):
 * - the message's `author` is `{ kind: 'app', id: appId, name }` and the envelope has no `actor`;
 * - the posting install receives none of its own message's events: it knows what it posted (the
 *   API answered it), and an app that reacts to posts would otherwise answer itself in a loop.
 *   Other apps do receive them, and tell app messages apart by `author.kind`.
 */
import type { EventType } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { links, mentions } from '../../workspace/events/content.ts';
import { eventBatch, findRecipients } from '../../workspace/events/index.ts';
import { referenceMatches } from '../../workspace/events/messages.ts';
import { conversationHasOtherPosts, firstPostOf } from '../../workspace/events/store.ts';
import { messageSubject, referenceSubject, type MessageFacts } from '../../workspace/events/subjects.ts';

export interface PostingApp {
  appId: string;
  installId: string;
  /** The name members see on the message (a stream event's persona name, else the app's). */
  name: string;
}

/**
 * Records the events of a message an app just posted (call inside the transaction that inserted it).
 *
 * @example
 * await appMessagePosted(tx, facts, { appId, installId, name: 'Deploys' }, at);
 */
export async function appMessagePosted(tx: Db, m: MessageFacts, app: PostingApp, at: Date): Promise<void> {
  let kind: 'post.created' | 'reply.created' = 'post.created';
  let replyTo = m.replyTo;
  if (replyTo !== null) {
    kind = 'reply.created';
  } else if (m.conversationId !== null && await conversationHasOtherPosts(tx, m.conversationId, m.id)) {
    kind = 'reply.created';
    replyTo = (await firstPostOf(tx, m.conversationId)) ?? null;
  }
  const types: EventType[] = [kind, 'app.mentioned', 'reference.created'];
  const recipients = (await findRecipients(tx, { workspaceId: m.workspaceId, circleId: m.circleId, types }))
    .filter((r) => r.installId !== app.installId);
  if (recipients.length === 0) return;

  const message = { ...messageSubject(m), author: { kind: 'app' as const, id: app.appId, name: app.name } };
  const named = mentions(m.body);
  const urls = links(m.body);
  const batch = eventBatch(at, null);
  for (const r of recipients) {
    if (r.accepts(kind)) batch.add(r, kind, kind === 'post.created' ? { post: message } : { reply: { ...message, replyTo } });
    if (named.size > 0 && r.accepts('app.mentioned') && (named.has(r.slug) || named.has(r.appId))) batch.add(r, 'app.mentioned', { message });
    if (urls.length > 0 && r.accepts('reference.created')) {
      for (const match of referenceMatches(r, urls)) batch.add(r, 'reference.created', { reference: referenceSubject(m, match) });
    }
  }
  await batch.write(tx);
}
