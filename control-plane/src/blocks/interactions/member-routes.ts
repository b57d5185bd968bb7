/**
 * @module blocks/interactions/member-routes
 * `POST /client/v1/blocks`: a member inserts a block of an installed app (blocks/interactions/member-insert.ts).
 * Answers the block as the member sees it, like `GET /client/v1/blocks/{blockId}`.
 */
import { z } from 'zod';
import type { ClientApi } from '../../core/http/client-api.ts';
import { Id } from '../../core/http/common.ts';
import { BlockViewResponse } from './schemas.ts';
import type { MemberBlocks } from '../../wiring/blocks.ts';

const one = (v: Record<string, unknown>, keys: readonly string[]) => keys.filter((k) => v[k] !== undefined).length === 1;

export const MemberInsertRequest = z.strictObject({
  appId: Id.optional().describe('The app; its workspace install is used (its development install when it has only that)'),
  installId: Id.optional(),
  type: z.string().min(1).max(64).describe('A block type of the version the install runs, marked `insertable`'),
  props: z.record(z.string(), z.unknown()).describe('Checked against the block type\'s props schema (at most 16 KB)'),
  target: z.strictObject({ conversationId: Id.optional(), replyTo: Id.optional(), circleId: Id.optional() })
    .refine((t) => one(t, ['conversationId', 'replyTo', 'circleId']), 'Send exactly one of conversationId, replyTo and circleId'),
}).refine((b) => one(b, ['appId', 'installId']), { message: 'Send exactly one of appId and installId', path: [] });

export function registerMemberBlockRoutes(api: ClientApi, blocks: MemberBlocks): void {
  api.route({
    operationId: 'insertBlockAsMember', method: 'post', path: '/blocks', tag: 'blocks', auth: 'member', status: 201,
    summary: 'Insert a block of an installed app where you can post (a conversation, a thread, or a circle\'s chat)',
    description: 'Only block types marked `insertable` in the install\'s running version. The app is asked for the block\'s first state and '
      + 'tree (`block.insert`, with you as `actor`); `block.created` is recorded. The block\'s message is yours.',
    body: MemberInsertRequest, maxBytes: 48 * 1024, response: BlockViewResponse,
    errors: [
      { status: 403, description: 'PlatformApiForbiddenError: the type is not insertable, the app cannot reach the circle, or the circle is read-only' },
      { status: 404, description: 'PlatformApiNotFoundError (no such install, conversation or circle you see), PlatformApiReplyNotFoundError' },
      { status: 409, description: 'PlatformApiConflictError: the circle does not use chat' },
      { status: 422, description: 'PlatformAppBlockTypeUnknownError' },
      { status: 502, description: 'PlatformAppResponseInvalidError, PlatformAppDeliveryFailedError (`reason`): the app did not give a valid first state and tree' },
      { status: 503, description: 'PlatformAppRelayNotConnectedError' },
    ],
  }, async ({ auth, body }) => blocks.insert(auth, body));
}
