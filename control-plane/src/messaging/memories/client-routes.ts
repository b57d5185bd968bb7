/**
 * @module messaging/memories/client-routes
 * `GET /client/v1/memories`: the workspace memories the calling member sees, newest first, in
 * pages; `PATCH` and `DELETE /client/v1/memories/{memoryId}`: editing and deleting one.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PageQuery } from '../../core/http/common.ts';
import { EDIT_MEMORY_MAX_BYTES, EditMemoryRequest, MemoryPage, MemoryResponse } from './schemas.ts';
import type { MemoriesService } from './service.ts';

export function registerMemoryClientRoutes(api: ClientApi, memories: MemoriesService): void {
  api.route({
    operationId: 'listMemories', method: 'get', path: '/memories', tag: 'memories', auth: 'member',
    summary: 'Workspace memories apps saved, newest first',
    description: 'Every memory of a workspace install; a development install\'s only for its developer.',
    query: PageQuery, status: 200, response: MemoryPage,
  }, async ({ auth, query }) => memories.list(auth, query));

  const rules = 'A memory the whole workspace sees: owners and admins. One shown to you alone (a development install\'s): you.';
  const errors = [
    { status: 403, description: 'PlatformApiForbiddenError: a memory the whole workspace sees, and you are not an owner or admin' },
    { status: 404, description: 'PlatformApiNotFoundError (path `memoryId`): no memory you can see has that id' },
  ];

  api.route({
    operationId: 'editMemory', method: 'patch', path: '/memories/{memoryId}', tag: 'memories', auth: 'member',
    summary: 'Edit a memory\'s text or title (the app stays credited; `editedAt` and `editedBy` record the edit)',
    description: rules, body: EditMemoryRequest, maxBytes: EDIT_MEMORY_MAX_BYTES, status: 200, response: MemoryResponse, errors,
  }, async ({ auth, params, body }) => memories.edit(auth, params.memoryId, body));

  api.route({
    operationId: 'deleteMemory', method: 'delete', path: '/memories/{memoryId}', tag: 'memories', auth: 'member',
    summary: 'Delete a memory', description: rules, status: 204, errors,
  }, async ({ auth, params }) => memories.remove(auth, params.memoryId));
}
