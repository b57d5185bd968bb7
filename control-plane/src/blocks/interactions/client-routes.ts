/**
 * @module blocks/interactions/client-routes
 * The member's side of blocks in the client API: view, click, submit, change, search, and insert a
 * block of an installed app (`POST /client/v1/blocks`, answered as the member sees the block). A failed
 * delivery is not an HTTP error for the member's client: the answer is `200` with `outcome:
 * failed`, the last good tree and the inline error to show.
 */
import { z } from 'zod';
import type { ClientApi } from '../../core/http/client-api.ts';
import { Id } from '../../core/http/common.ts';
import type { MemberBlocks } from './member-insert.ts';
import type { InteractionsService } from './service.ts';
import {
  ActionOutcomeResponse, BlockViewResponse, ChangeRequest, ClickRequest, ReferenceActionOutcomeResponse, ReferenceClickRequest, SearchRequest, SearchResponse, SubmitRequest,
} from './schemas.ts';

const acting = [
  { status: 403, description: 'PlatformApiForbiddenError: the circle is read-only' },
  { status: 409, description: 'PlatformApiConflictError: the revision is not current (reload; `currentRevision`), or the action is still pending; PlatformAppBlockFinalError' },
];

const one = (v: Record<string, unknown>, keys: readonly string[]) => keys.filter((k) => v[k] !== undefined).length === 1;

export const MemberInsertRequest = z.strictObject({
  appId: Id.optional().describe('The app; its workspace install is used (its development install when it has only that)'),
  installId: Id.optional(),
  type: z.string().min(1).max(64).describe('A block type of the version the install runs, marked `insertable`'),
  props: z.record(z.string(), z.unknown()).describe('Checked against the block type\'s props schema (at most 16 KB)'),
  target: z.strictObject({ conversationId: Id.optional(), replyTo: Id.optional(), circleId: Id.optional() })
    .refine((t) => one(t, ['conversationId', 'replyTo', 'circleId']), 'Send exactly one of conversationId, replyTo and circleId'),
}).refine((b) => one(b, ['appId', 'installId']), { message: 'Send exactly one of appId and installId', path: [] });

export function registerInteractionClientRoutes(api: ClientApi, interactions: InteractionsService, members: MemberBlocks): void {
  api.route({
    operationId: 'getBlock', method: 'get', path: '/blocks/{blockId}', tag: 'blocks', auth: 'member', status: 200,
    summary: 'View a block (rendered first when its render is due)', response: BlockViewResponse,
  }, async ({ auth, params }) => interactions.view(auth, params.blockId));

  api.route({
    operationId: 'clickBlock', method: 'post', path: '/blocks/{blockId}/click', tag: 'blocks', auth: 'member', status: 200,
    summary: 'Click a button or menu item of the block by reference and revision',
    description: 'A destructive action (the tree carries `confirm`) needs `confirmed: true`. `outcome` says whether the result was applied, '
      + 'the action is pending (the app answered later) or it failed (the last good tree stays, with `error`).',
    body: ClickRequest, response: ActionOutcomeResponse, errors: acting,
  }, async ({ auth, params, body }) => interactions.click(auth, params.blockId, body));

  api.route({
    operationId: 'clickReferenceBlock', method: 'post', path: '/messages/{messageId}/references/{referenceId}/click', tag: 'references', auth: 'member', status: 200,
    summary: 'Click a button or menu item in the block of a message\'s link card, by reference and the card\'s revision',
    description: 'The app receives `block.action` with `data.block` = `{ id: referenceId, type: kind, props: {}, state: {}, revision, version, '
      + 'reference: { kind, externalId, url } }`. A new `tree` in the result replaces the card\'s block for every occurrence; `notice`, `fieldErrors` '
      + 'and `openUrl` are yours; `state` and `final` do not apply to cards. A destructive button needs `confirmed: true`.',
    body: ReferenceClickRequest, response: ReferenceActionOutcomeResponse,
    errors: [
      { status: 404, description: 'PlatformApiNotFoundError: no message you can see (`messageId`), or none of its cards shows that reference (`referenceId`)' },
      { status: 409, description: 'PlatformApiConflictError: the card changed since you saw it (reload; `currentRevision`)' },
    ],
  }, async ({ auth, params, body }) => interactions.clickReference(auth, params.messageId, params.referenceId, body));

  api.route({
    operationId: 'submitBlockForm', method: 'post', path: '/blocks/{blockId}/submit', tag: 'blocks', auth: 'member', status: 200,
    summary: 'Submit a form of the block (its submit button\'s reference and the form\'s values, at most 16 KB)',
    body: SubmitRequest, maxBytes: 24 * 1024, response: ActionOutcomeResponse, errors: acting,
  }, async ({ auth, params, body }) => interactions.submit(auth, params.blockId, body));

  api.route({
    operationId: 'changeBlockField', method: 'post', path: '/blocks/{blockId}/change', tag: 'blocks', auth: 'member', status: 200,
    summary: 'Change a choice group, select or toggle that has a change handler (viewer inputs are stored and tallied)',
    body: ChangeRequest, response: ActionOutcomeResponse, errors: acting,
  }, async ({ auth, params, body }) => interactions.change(auth, params.blockId, body));

  api.route({
    operationId: 'searchBlockSelect', method: 'post', path: '/blocks/{blockId}/search', tag: 'blocks', auth: 'member', status: 200,
    summary: 'Options of a search select for what the member typed (at most 50)',
    body: SearchRequest, response: SearchResponse, errors: acting,
  }, async ({ auth, params, body }) => interactions.search(auth, params.blockId, body));

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
  }, async ({ auth, body }) => members.insert(auth, body));
}
