/**
 * @module messaging/app-messages/schemas
 * Wire shapes of app streams in the client API (`/client/v1/circles/{circleId}/streams`,
 * `/client/v1/streams/{streamId}/revoke|unrevoke`).
 */
import { z } from 'zod';
import { Id, Timestamp } from '../../core/http/common.ts';

export const Stream = z.object({
  id: Id,
  circleId: Id,
  appId: Id,
  name: z.string(),
  icon: z.string().nullable(),
  createdAt: Timestamp,
  revoked: z.object({ at: Timestamp, byMemberId: Id.nullable() }).nullable(),
}).meta({ id: 'AppStream' });

export const StreamList = z.object({ streams: z.array(Stream) });
export const StreamResponse = z.object({ stream: Stream });
