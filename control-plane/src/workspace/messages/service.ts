/**
 * @module workspace/messages/service
 * Posting and reading messages: posts in conversations, replies (flat threads under a root
 * message), chat messages in circles that use chat, filing a chat message into a conversation,
 * and direct messages between two members.
 */
import { PlatformError, invalidRequest } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { memberNotFound } from '../members/service.ts';
import { findMember } from '../members/store.ts';
import { assertWritable, canSee, visibleCircle } from '../circles/access.ts';
import { findCircle, type CircleRow } from '../circles/store.ts';
import { visibleConversation } from '../conversations/access.ts';
import { decodeCursor, iso, isoOrNull, toPage, type PageQuery } from '../../core/http/common.ts';

/** Message lists are keyed by (created_at, seq): their cursors carry the seq. */
const bySeq = (row: { seq: string | number }) => String(row.seq);
import { createEventProducer, type EventProducer, type MessageFacts } from '../events/index.ts';
import { bumpMessageVersion, lockMessageVersion } from '../events/store.ts';
import type { Document, Message } from './schemas.ts';
import { deleteVisibleMessage, type RemoveCarried } from './delete.ts';
import * as store from './store.ts';

export interface MessageBody {
  content?: Document | undefined;
  markdown?: string | undefined;
}

export function messageView(row: store.MessageViewRow, viewerId: string): Message {
  const other = row.dm_low === null ? null : row.dm_low === (row.author_member_id ?? viewerId) ? row.dm_high : row.dm_low;
  return {
    id: row.id,
    circleId: row.circle_id,
    conversationId: row.conversation_id,
    replyTo: row.reply_to,
    recipientId: other,
    // A member who inserted a block is its message's author; only app API inserts and app posts are
    // the app's. A stream event's persona overrides the app's name and icon for that message.
    author: row.author_member_id === null && (row.block_id !== null || row.app_author !== null)
      ? {
        kind: 'app', memberId: null, appId: row.author_app_id,
        name: row.app_author?.persona?.name ?? row.author_app_name ?? row.app_author?.name ?? null,
        ...(row.app_author?.persona?.avatarUrl === undefined ? {} : { avatarUrl: row.app_author.persona.avatarUrl }),
      }
      : { kind: 'member', memberId: row.author_member_id, name: row.author_name },
    content: (row.content ?? null) as Document | null,
    markdown: row.markdown,
    createdAt: iso(row.created_at),
    filedAt: isoOrNull(row.filed_at),
    blockId: row.block_id,
  };
}

const messageNotFound = () => new PlatformError('PlatformApiNotFoundError', 'No message with that id that you can see', { path: ['messageId'] });
const conflict = (message: string) => new PlatformError('PlatformApiConflictError', message);

export type MessagesService = ReturnType<typeof createMessagesService>;

/** A circle message as event production sees it (direct messages cause no events). */
function factsOf(row: store.MessageViewRow, author: { id: string; name: string }, version: number): MessageFacts | null {
  if (row.circle_id === null) return null;
  return {
    id: row.id, workspaceId: row.workspace_id, circleId: row.circle_id, conversationId: row.conversation_id, replyTo: row.reply_to,
    body: { content: row.content, markdown: row.markdown }, author, createdAt: row.created_at, version,
  };
}

export function createMessagesService(deps: { db: Db; clock: Clock; events?: EventProducer; removeCarried?: RemoveCarried }) {
  const { db } = deps;
  const events = deps.events ?? createEventProducer();
  const actorRef = (actor: Actor) => ({ memberId: actor.memberId, name: actor.name });

  /** The message and, for circle messages, its circle; absent when the actor cannot see it. */
  async function visibleMessage(actor: Actor, id: string, notFound = messageNotFound): Promise<{ row: store.MessageViewRow; circle: CircleRow | null }> {
    const row = await store.findMessage(db, actor.workspaceId, id);
    if (row === undefined) throw notFound();
    if (row.circle_id === null) {
      if (row.dm_low !== actor.memberId && row.dm_high !== actor.memberId) throw notFound();
      return { row, circle: null };
    }
    const circle = await findCircle(db, actor.workspaceId, row.circle_id, actor.memberId);
    if (circle === undefined || !canSee(circle)) throw notFound();
    return { row, circle };
  }

  async function insert(actor: Actor, at: Omit<store.MessageRow, 'id' | 'workspace_id' | 'author_member_id' | 'content' | 'markdown' | 'created_at'>, body: MessageBody): Promise<Message> {
    const id = newId('message');
    const createdAt = new Date(deps.clock.now());
    // The message and its events commit together (docs/events.md).
    const row = await db.transaction(async (tx) => {
      await store.insertMessage(tx, {
        id, workspace_id: actor.workspaceId, author_member_id: actor.memberId, content: body.content ?? null, markdown: body.markdown ?? null,
        created_at: createdAt, ...at,
      });
      const inserted = (await store.findMessage(tx, actor.workspaceId, id))!;
      const facts = factsOf(inserted, { id: actor.memberId, name: actor.name }, 1);
      if (facts !== null) await events.messagePosted(tx, facts, actorRef(actor), createdAt);
      return inserted;
    });
    events.committed();
    return messageView(row, actor.memberId);
  }

  const view = (actor: Actor) => (row: store.MessageViewRow) => messageView(row, actor.memberId);

  return {
    async get(actor: Actor, messageId: string): Promise<Message> {
      return messageView((await visibleMessage(actor, messageId)).row, actor.memberId);
    },

    async postInConversation(actor: Actor, conversationId: string, body: MessageBody): Promise<Message> {
      const { conversation, circle } = await visibleConversation(db, actor, conversationId);
      assertWritable(circle);
      return insert(actor, { circle_id: circle.id, conversation_id: conversation.id, direct_chat_id: null, reply_to: null, filed_at: null }, body);
    },

    async listInConversation(actor: Actor, conversationId: string, query: PageQuery) {
      await visibleConversation(db, actor, conversationId);
      return toPage(await store.listConversationMessages(db, conversationId, decodeCursor(query.cursor), query.limit), query.limit, view(actor), bySeq);
    },

    async postChat(actor: Actor, circleId: string, body: MessageBody): Promise<Message> {
      const circle = await visibleCircle(db, actor, circleId);
      assertWritable(circle);
      if (!circle.chat) throw conflict('This circle does not use chat: post in a conversation');
      return insert(actor, { circle_id: circle.id, conversation_id: null, direct_chat_id: null, reply_to: null, filed_at: null }, body);
    },

    async listChat(actor: Actor, circleId: string, query: PageQuery) {
      await visibleCircle(db, actor, circleId);
      return toPage(await store.listChatMessages(db, circleId, decodeCursor(query.cursor), query.limit), query.limit, view(actor), bySeq);
    },

    /** Replies join the thread of the root message (a reply to a reply goes under the same root). */
    async reply(actor: Actor, messageId: string, body: MessageBody): Promise<Message> {
      const notFound = () => new PlatformError('PlatformApiReplyNotFoundError', 'No message with that id that you can reply to', { path: ['messageId'] });
      const { row, circle } = await visibleMessage(actor, messageId, notFound);
      if (circle !== null) assertWritable(circle);
      return insert(actor, {
        circle_id: row.circle_id, conversation_id: row.conversation_id, direct_chat_id: row.direct_chat_id,
        reply_to: row.reply_to ?? row.id, filed_at: row.filed_at,
      }, body);
    },

    async listReplies(actor: Actor, messageId: string, query: PageQuery) {
      const { row } = await visibleMessage(actor, messageId);
      const root = row.reply_to ?? row.id;
      return toPage(await store.listReplies(db, root, decodeCursor(query.cursor), query.limit), query.limit, view(actor), bySeq);
    },

    /** Files an unfiled chat message (with its replies) into a conversation of the same circle. */
    async file(actor: Actor, messageId: string, conversationId: string): Promise<Message> {
      const { row, circle } = await visibleMessage(actor, messageId);
      if (circle === null || row.reply_to !== null) throw conflict('Only chat messages in a circle can be filed (not replies or direct messages)');
      assertWritable(circle);
      if (row.conversation_id !== null) throw conflict('The message is already filed in a conversation');
      const { conversation } = await visibleConversation(db, actor, conversationId);
      if (conversation.circle_id !== circle.id) {
        throw invalidRequest([{ path: ['conversationId'], message: 'The conversation is in another circle' }]);
      }
      const at = new Date(deps.clock.now());
      await db.transaction(async (tx) => {
        if (!(await store.fileMessage(tx, messageId, conversationId, at))) throw conflict('The message is already filed in a conversation');
        const filed = (await store.findMessage(tx, actor.workspaceId, messageId))!;
        const facts = factsOf(filed, { id: filed.author_member_id ?? actor.memberId, name: filed.author_name ?? '' }, await bumpMessageVersion(tx, messageId));
        if (facts !== null) await events.messageFiled(tx, facts, actorRef(actor), at);
      });
      events.committed();
      return messageView((await visibleMessage(actor, messageId)).row, actor.memberId);
    },

    /** Replaces the body of the actor's own message; links and app names it adds or drops cause events. */
    async edit(actor: Actor, messageId: string, body: MessageBody): Promise<Message> {
      const { row, circle } = await visibleMessage(actor, messageId);
      if (row.author_member_id !== actor.memberId) throw new PlatformError('PlatformApiForbiddenError', 'Only its author can edit a message', { path: ['messageId'] });
      if (circle !== null) assertWritable(circle);
      const at = new Date(deps.clock.now());
      const author = { id: actor.memberId, name: actor.name };
      await db.transaction(async (tx) => {
        const beforeVersion = await lockMessageVersion(tx, messageId);
        const before = (await store.findMessage(tx, actor.workspaceId, messageId))!;
        const version = await store.updateMessageBody(tx, messageId, { content: body.content ?? null, markdown: body.markdown ?? null });
        const after = (await store.findMessage(tx, actor.workspaceId, messageId))!;
        const was = factsOf(before, author, beforeVersion);
        const now = factsOf(after, author, version);
        if (was !== null && now !== null) await events.messageEdited(tx, was, now, actorRef(actor), at);
      });
      events.committed();
      return messageView((await visibleMessage(actor, messageId)).row, actor.memberId);
    },

    /** Deletes a message (and its thread when it is a root): see workspace/messages/delete.ts. */
    async remove(actor: Actor, messageId: string): Promise<void> {
      const { row, circle } = await visibleMessage(actor, messageId);
      await deleteVisibleMessage({ db, clock: deps.clock, events, removeCarried: deps.removeCarried }, actor, row, circle);
    },

    async sendDirect(actor: Actor, to: string, body: MessageBody): Promise<Message> {
      if (to === actor.memberId) throw invalidRequest([{ path: ['to'], message: 'Direct messages go to another member' }]);
      if ((await findMember(db, actor.workspaceId, to)) === undefined) throw memberNotFound();
      const chat = await store.directChatId(db, actor.workspaceId, actor.memberId, to, newId('directChat'), new Date(deps.clock.now()));
      return insert(actor, { circle_id: null, conversation_id: null, direct_chat_id: chat, reply_to: null, filed_at: null }, body);
    },

    async listDirect(actor: Actor, otherMemberId: string, query: PageQuery) {
      if ((await findMember(db, actor.workspaceId, otherMemberId)) === undefined) throw memberNotFound();
      const chat = await store.findDirectChat(db, actor.memberId, otherMemberId);
      if (chat === undefined) return { items: [], nextCursor: null };
      return toPage(await store.listDirectMessages(db, chat, decodeCursor(query.cursor), query.limit), query.limit, view(actor), bySeq);
    },
  };
}
