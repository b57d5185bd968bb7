/**
 * @module blocks/playground/client-routes
 * `POST /client/v1/installs/{installId}/playground-blocks`: the author's tree as a block of their
 * development install, in a conversation or chat, its buttons answered by the app's own handler.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PlaygroundBlockRequest, PlaygroundBlockResponse } from './schemas.ts';
import type { PlaygroundBlocks } from './service.ts';

export function registerPlaygroundClientRoutes(api: ClientApi, playground: PlaygroundBlocks): void {
  api.route({
    operationId: 'insertPlaygroundBlock', method: 'post', path: '/installs/{installId}/playground-blocks', tag: 'blocks', auth: 'member', status: 201,
    summary: 'Try a tree against your development install: it is posted as a block of the install where you can post, and its actions run the app\'s handler',
    description: 'Only the developer\'s own active `dev` install. The tree and its action table are checked like any tree an app sends, every action '
      + 'name must be an action of `type`, `props` and `state` must fit its schemas (properties left out start at the schemas\' `default`s). '
      + 'The app is not asked for a first tree (`block.insert`); `block.created` is recorded and the message is yours. Answered as you see '
      + 'the block, with the props and state stored.',
    body: PlaygroundBlockRequest, maxBytes: 160 * 1024, response: PlaygroundBlockResponse,
    errors: [
      { status: 403, description: 'PlatformApiForbiddenError: the install does not reach the circle, or the circle is read-only' },
      { status: 404, description: 'PlatformApiNotFoundError: no development install of yours with that id, or no conversation or circle you see' },
      { status: 409, description: 'PlatformApiConflictError: the circle does not use chat' },
      { status: 422, description: 'PlatformAppBlockTypeUnknownError' },
    ],
  }, async ({ auth, params, body }) => playground.insert(auth, params.installId, body));
}
