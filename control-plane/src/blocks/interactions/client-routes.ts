/**
 * @module blocks/interactions/client-routes
 * The member's side of blocks in the client API: view, click, submit, change, search. A failed
 * delivery is not an HTTP error for the member's client: the answer is `200` with `outcome:
 * failed`, the last good tree and the inline error to show.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import type { InteractionsService } from './service.ts';
import { ActionOutcomeResponse, BlockViewResponse, ChangeRequest, ClickRequest, SearchRequest, SearchResponse, SubmitRequest } from './schemas.ts';

const acting = [
  { status: 403, description: 'PlatformApiForbiddenError: the circle is read-only' },
  { status: 409, description: 'PlatformApiConflictError: the revision is not current (reload; `currentRevision`), or the action is still pending; PlatformAppBlockFinalError' },
];

export function registerInteractionRoutes(api: ClientApi, interactions: InteractionsService): void {
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
}
