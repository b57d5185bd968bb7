/**
 * @module blocks/app-api/v0-routes
 * The blocks endpoints of `/v0`, with the paths and shapes of `API_ROUTES`
 * (docs/decisions/contract.md): insert, query, read, update, replace, revalidate, bulk update.
 */
import { API_ROUTES } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { BlocksService } from './service.ts';

const R = API_ROUTES;
const KB = 1024;
// A state is at most 64 KB as compact JSON; a body may carry whitespace and the other fields.
const STATE_BODY_BYTES = 160 * KB;
const INSERT_BODY_BYTES = 48 * KB;

const notFound = { status: 404, description: 'PlatformAppBlockNotFoundError: no such block created by this install (or another block than the interaction token\'s)' };
const scope = { status: 403, description: 'PlatformAppScopeMissingError (`blocks:write`), PlatformAppInstallRevokedError' };
const stateInvalid = { status: 422, description: 'PlatformAppBlockStateInvalidError: the state would not match the block\'s state schema (or is over 64 KB); PlatformAppBlockTypeUnknownError' };

export function registerBlockV0Routes(api: V0Api, blocks: BlocksService): void {
  api.route({
    operationId: 'insertBlock', method: 'post', path: '/blocks', tag: 'blocks', auth: 'install', status: 201,
    summary: 'Insert a block into a conversation, a thread (replyTo) or a circle\'s chat',
    description: 'Scope `blocks:write`. Exactly one of `conversationId`, `replyTo`, `circleId`, within reach. The service asks the app for the '
      + 'initial state and tree (`block.insert`) and records `block.created`.',
    body: R.blockInsert.body, maxBytes: INSERT_BODY_BYTES, response: R.blockInsert.response,
    errors: [
      scope,
      { status: 404, description: 'PlatformApiConversationNotFoundError, PlatformApiReplyNotFoundError, PlatformAppCircleNotFoundError (`circleIds`): target missing or out of reach' },
      { status: 409, description: 'PlatformApiConflictError: the circle does not use chat' },
      { status: 422, description: 'PlatformAppBlockTypeUnknownError' },
      { status: 502, description: 'PlatformAppResponseInvalidError (the app\'s answer, state or tree is invalid), PlatformAppDeliveryFailedError (`reason`)' },
      { status: 503, description: 'PlatformAppRelayNotConnectedError' },
    ],
  }, async ({ auth, body }) => blocks.insert(auth, body));

  api.route({
    operationId: 'queryBlocks', method: 'post', path: '/blocks/query', tag: 'blocks', auth: 'install', status: 200, reads: true,
    summary: 'Page through the install\'s blocks by type and state (newest first)', description: 'No scope. `stateMatch`: up to 8 top-level state keys with scalar values.',
    body: R.blockQuery.body, response: R.blockQuery.response,
  }, async ({ auth, body }) => blocks.query(auth, body));

  api.route({
    operationId: 'updateBlocksByState', method: 'patch', path: '/blocks', tag: 'blocks', auth: 'install', status: 200,
    summary: 'Shallow-merge state into every matching block of a type, and re-render each; final blocks are skipped',
    body: R.blocksUpdateByState.body, maxBytes: STATE_BODY_BYTES, response: R.blocksUpdateByState.response,
    errors: [scope, stateInvalid],
  }, async ({ auth, body }) => blocks.updateByState(auth, body));

  api.route({
    operationId: 'getBlock', method: 'get', path: '/blocks/{block_id}', tag: 'blocks', auth: 'installOrInteraction', status: 200,
    summary: 'Read one of the install\'s blocks', description: 'No scope. An interaction token reads only the block its action ran on.',
    response: R.blockGet.response, errors: [notFound],
  }, async ({ auth, params }) => blocks.get(auth, params.block_id));

  const updateErrors = [
    notFound, scope,
    { status: 409, description: 'PlatformAppBlockVersionConflictError (`blockId`, `expectedVersion`, `currentVersion`); PlatformAppBlockFinalError' },
    stateInvalid,
    { status: 401, description: 'PlatformAppInteractionExpiredError: the interaction token\'s 15 minutes are over; use an install token' },
  ];
  api.route({
    operationId: 'updateBlock', method: 'patch', path: '/blocks/{block_id}', tag: 'blocks', auth: 'installOrInteraction', status: 200,
    summary: 'Shallow-merge state into one block (optionally only at `expectedVersion`), then re-render it',
    description: 'Install token with `blocks:write`, or the interaction token of an action on this block (15 minutes, no scope; ends a deferral).',
    body: R.blockUpdate.body, maxBytes: STATE_BODY_BYTES, response: R.blockUpdate.response, errors: updateErrors,
  }, async ({ auth, params, body }) => blocks.update(auth, params.block_id, body));

  api.route({
    operationId: 'replaceBlock', method: 'put', path: '/blocks/{block_id}', tag: 'blocks', auth: 'installOrInteraction', status: 200,
    summary: 'Replace one block\'s whole state (optionally only at `expectedVersion`), then re-render it',
    description: 'Same credentials as the update.',
    body: R.blockReplace.body, maxBytes: STATE_BODY_BYTES, response: R.blockReplace.response, errors: updateErrors,
  }, async ({ auth, params, body }) => blocks.replace(auth, params.block_id, body));

  api.route({
    operationId: 'revalidateBlock', method: 'post', path: '/blocks/{block_id}/revalidate', tag: 'blocks', auth: 'install', status: 200,
    summary: 'Ask for a fresh render (`block.render`) of one block', description: 'No scope. `scheduled` is false for a final block (never rendered again).',
    body: R.blockRevalidate.body, response: R.blockRevalidate.response, errors: [notFound],
  }, async ({ auth, params }) => blocks.revalidate(auth, params.block_id));
}
