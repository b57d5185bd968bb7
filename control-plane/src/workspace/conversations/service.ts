/**
 * @module workspace/conversations/service
 * Conversations in circles: start one, list, read, and change its title, status or agreement.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { assertWritable, visibleCircle } from '../circles/access.ts';
import { decodeCursor, iso, toPage, type PageQuery } from '../../core/http/common.ts';
import { createEventProducer, type EventProducer } from '../events/index.ts';
import { conversationNotFound, visibleConversation } from './access.ts';
import type { Conversation } from './schemas.ts';
import { insertConversation, listConversations, lockConversation, updateConversation, type ConversationRow } from './store.ts';

export const conversationView = (row: ConversationRow): Conversation => ({
  id: row.id,
  circleId: row.circle_id,
  title: row.title,
  status: row.status,
  agreed: row.agreed,
  createdBy: row.created_by,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export interface ConversationPatch {
  title?: string | undefined;
  status?: string | null | undefined;
  agreed?: boolean | null | undefined;
}

export type ConversationsService = ReturnType<typeof createConversationsService>;

const stateOf = (row: ConversationRow) => ({
  id: row.id, workspaceId: row.workspace_id, circleId: row.circle_id, title: row.title, status: row.status, agreed: row.agreed,
});

export function createConversationsService(deps: { db: Db; clock: Clock; events?: EventProducer }) {
  const { db } = deps;
  const events = deps.events ?? createEventProducer();
  return {
    async create(actor: Actor, circleId: string, input: { title: string; status?: string | null | undefined; agreed?: boolean | null | undefined }): Promise<Conversation> {
      const circle = await visibleCircle(db, actor, circleId);
      assertWritable(circle);
      const at = new Date(deps.clock.now());
      const row: ConversationRow = {
        id: newId('conversation'), workspace_id: actor.workspaceId, circle_id: circleId, title: input.title,
        status: input.status ?? null, agreed: input.agreed ?? null, created_by: actor.memberId, created_at: at, updated_at: at,
      };
      await insertConversation(db, row);
      return conversationView(row);
    },

    async get(actor: Actor, conversationId: string): Promise<Conversation> {
      return conversationView((await visibleConversation(db, actor, conversationId)).conversation);
    },

    async list(actor: Actor, circleId: string, query: PageQuery) {
      await visibleCircle(db, actor, circleId);
      return toPage(await listConversations(db, circleId, decodeCursor(query.cursor), query.limit), query.limit, conversationView);
    },

    async update(actor: Actor, conversationId: string, patch: ConversationPatch): Promise<Conversation> {
      const { circle } = await visibleConversation(db, actor, conversationId);
      assertWritable(circle);
      const at = new Date(deps.clock.now());
      // The change and its events (conversation.updated / conversation.agreed) commit together.
      const row = await db.transaction(async (tx) => {
        const before = await lockConversation(tx, conversationId);
        const after = before === undefined ? undefined : await updateConversation(tx, conversationId, patch, at);
        if (before === undefined || after === undefined) throw conversationNotFound();
        await events.conversationChanged(tx, stateOf(before), stateOf(after), { memberId: actor.memberId, name: actor.name }, at);
        return after;
      });
      events.committed();
      return conversationView(row);
    },
  };
}
