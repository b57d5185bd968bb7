/**
 * @module workspace/decisions/service
 * Decisions in circles: publish one (`decision.published`), change its title or text
 * (`decision.updated`, version + 1), read and list them. Events commit with the change.
 */
import { PlatformError, invalidRequest } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { assertWritable, canSee, visibleCircle } from '../circles/access.ts';
import { findCircle } from '../circles/store.ts';
import { visibleConversation } from '../conversations/access.ts';
import { decodeCursor, iso, toPage, type PageQuery } from '../../core/http/common.ts';
import { createEventProducer, type EventProducer } from '../events/index.ts';
import type { Decision } from './schemas.ts';
import * as store from './store.ts';

const view = (row: store.DecisionRow): Decision => ({
  id: row.id, circleId: row.circle_id, conversationId: row.conversation_id, title: row.title, text: row.body, version: row.version,
  createdBy: row.created_by, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at),
});

/** The `decision` object of `decision.*` payloads. */
const subject = (row: store.DecisionRow) => ({
  id: row.id, circleId: row.circle_id, conversationId: row.conversation_id, title: row.title, text: row.body, version: row.version,
});

const notFound = () => new PlatformError('PlatformApiNotFoundError', 'No decision with that id that you can see', { path: ['decisionId'] });

export type DecisionsService = ReturnType<typeof createDecisionsService>;

export function createDecisionsService(deps: { db: Db; clock: Clock; events?: EventProducer }) {
  const { db } = deps;
  const events = deps.events ?? createEventProducer();
  const actorRef = (actor: Actor) => ({ memberId: actor.memberId, name: actor.name });

  const visible = async (actor: Actor, decisionId: string) => {
    const row = await store.findDecision(db, actor.workspaceId, decisionId);
    if (row === undefined) throw notFound();
    const circle = await findCircle(db, actor.workspaceId, row.circle_id, actor.memberId);
    if (circle === undefined || !canSee(circle)) throw notFound();
    return { row, circle };
  };

  return {
    async publish(actor: Actor, circleId: string, input: { title: string; text: string; conversationId?: string | undefined }): Promise<Decision> {
      const circle = await visibleCircle(db, actor, circleId);
      assertWritable(circle);
      if (input.conversationId !== undefined) {
        const { conversation } = await visibleConversation(db, actor, input.conversationId);
        if (conversation.circle_id !== circle.id) throw invalidRequest([{ path: ['conversationId'], message: 'The conversation is in another circle' }]);
      }
      const at = new Date(deps.clock.now());
      const row: store.DecisionRow = {
        id: newId('decision'), workspace_id: actor.workspaceId, circle_id: circle.id, conversation_id: input.conversationId ?? null,
        title: input.title, body: input.text, version: 1, created_by: actor.memberId, created_at: at, updated_at: at,
      };
      await db.transaction(async (tx) => {
        await store.insertDecision(tx, row);
        await events.record(tx, { type: 'decision.published', workspaceId: actor.workspaceId, circleId: circle.id, actor: actorRef(actor), data: { decision: subject(row) }, at });
      });
      events.committed();
      return view(row);
    },

    async get(actor: Actor, decisionId: string): Promise<Decision> {
      return view((await visible(actor, decisionId)).row);
    },

    async list(actor: Actor, circleId: string, query: PageQuery) {
      await visibleCircle(db, actor, circleId);
      return toPage(await store.listDecisions(db, circleId, decodeCursor(query.cursor), query.limit), query.limit, view);
    },

    async update(actor: Actor, decisionId: string, patch: { title?: string | undefined; text?: string | undefined }): Promise<Decision> {
      const { row: current, circle } = await visible(actor, decisionId);
      assertWritable(circle);
      const at = new Date(deps.clock.now());
      const row = await db.transaction(async (tx) => {
        const updated = await store.updateDecision(tx, current.id, patch, at);
        if (updated === undefined) throw notFound();
        await events.record(tx, { type: 'decision.updated', workspaceId: actor.workspaceId, circleId: updated.circle_id, actor: actorRef(actor), data: { decision: subject(updated) }, at });
        return updated;
      });
      events.committed();
      return view(row);
    },
  };
}
