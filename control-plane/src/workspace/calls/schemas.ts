/**
 * @module workspace/calls/schemas
 * Wire shapes of calls: a call held in a circle with its participants, and its recap once written
 * (the cause of `call.recapReady`).
 */
import { z } from 'zod';
import { Id, Timestamp, visibleText } from '../../core/http/common.ts';

export const CALL_LIMITS = { title: 200, recap: 20_000, participants: 50 } as const;

export const Participant = z.object({ memberId: Id, name: z.string() });

export const Call = z.object({
  id: Id,
  circleId: Id,
  title: z.string(),
  participants: z.array(Participant),
  recap: z.string().nullable().describe('null until the recap is ready'),
  recapAt: Timestamp.nullable(),
  version: z.number().int().describe('Counts changes: each recap adds one'),
  startedBy: Id.nullable(),
  createdAt: Timestamp,
}).meta({ id: 'Call' });
export type Call = z.output<typeof Call>;

export const StartCallBody = z.strictObject({
  title: visibleText(CALL_LIMITS.title),
  participantIds: z.array(Id).max(CALL_LIMITS.participants).optional().describe('Members who took part (you are always one)'),
});

export const RecapBody = z.strictObject({ recap: visibleText(CALL_LIMITS.recap) });

export const CallResponse = z.object({ call: Call });
