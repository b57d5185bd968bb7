/**
 * @module workspace/calls/service
 * Calls in circles: start one with its participants, then write its recap, which records
 * `call.recapReady` in the same transaction (a new recap of the same call records it again, with
 * the next version).
 */
import { PlatformError, invalidRequest } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { assertWritable, canSee, visibleCircle } from '../circles/access.ts';
import { findCircle } from '../circles/store.ts';
import { iso, isoOrNull } from '../../core/http/common.ts';
import { createEventProducer, type EventProducer } from '../events/index.ts';
import type { Call } from './schemas.ts';
import * as store from './store.ts';

type People = Array<{ member_id: string; name: string }>;

const view = (row: store.CallRow, people: People): Call => ({
  id: row.id, circleId: row.circle_id, title: row.title, participants: people.map((p) => ({ memberId: p.member_id, name: p.name })),
  recap: row.recap, recapAt: isoOrNull(row.recap_at), version: row.version, startedBy: row.started_by, createdAt: iso(row.created_at),
});

const notFound = () => new PlatformError('PlatformApiNotFoundError', 'No call with that id that you can see', { path: ['callId'] });

export type CallsService = ReturnType<typeof createCallsService>;

export function createCallsService(deps: { db: Db; clock: Clock; events?: EventProducer }) {
  const { db } = deps;
  const events = deps.events ?? createEventProducer();

  const visible = async (actor: Actor, callId: string) => {
    const row = await store.findCall(db, actor.workspaceId, callId);
    if (row === undefined) throw notFound();
    const circle = await findCircle(db, actor.workspaceId, row.circle_id, actor.memberId);
    if (circle === undefined || !canSee(circle)) throw notFound();
    return { row, circle };
  };

  return {
    async start(actor: Actor, circleId: string, input: { title: string; participantIds?: string[] | undefined }): Promise<Call> {
      const circle = await visibleCircle(db, actor, circleId);
      assertWritable(circle);
      const wanted = [...new Set([actor.memberId, ...(input.participantIds ?? [])])];
      const known = await store.workspaceMembers(db, actor.workspaceId, wanted);
      const unknown = wanted.filter((id) => !known.includes(id));
      if (unknown.length > 0) throw invalidRequest([{ path: ['participantIds'], message: `Not members of this workspace: ${unknown.slice(0, 5).join(', ')}` }]);
      const row: store.CallRow = {
        id: newId('call'), workspace_id: actor.workspaceId, circle_id: circle.id, title: input.title,
        recap: null, recap_at: null, version: 1, started_by: actor.memberId, created_at: new Date(deps.clock.now()),
      };
      await db.transaction((tx) => store.insertCall(tx, row, known));
      return view(row, await store.participants(db, row.id));
    },

    async get(actor: Actor, callId: string): Promise<Call> {
      const { row } = await visible(actor, callId);
      return view(row, await store.participants(db, row.id));
    },

    async recap(actor: Actor, callId: string, recap: string): Promise<Call> {
      const { circle } = await visible(actor, callId);
      assertWritable(circle);
      const at = new Date(deps.clock.now());
      const { row, people } = await db.transaction(async (tx) => {
        const updated = await store.setRecap(tx, callId, recap, at);
        if (updated === undefined) throw notFound();
        const who = await store.participants(tx, callId);
        const call = {
          id: updated.id, circleId: updated.circle_id, title: updated.title, recap, version: updated.version,
          participants: who.map((p) => ({ kind: 'member' as const, id: p.member_id, name: p.name })),
        };
        await events.record(tx, { type: 'call.recapReady', workspaceId: actor.workspaceId, circleId: updated.circle_id, actor: { memberId: actor.memberId, name: actor.name }, data: { call }, at });
        return { row: updated, people: who };
      });
      events.committed();
      return view(row, people);
    },
  };
}
