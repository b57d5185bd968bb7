/**
 * @module messaging/memories/client-routes
 * `GET /client/v1/memories`: the workspace memories the calling member sees, newest first, in pages.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PageQuery } from '../../core/http/common.ts';
import { MemoryPage } from './schemas.ts';
import type { MemoriesService } from './service.ts';

export function registerMemoryClientRoutes(api: ClientApi, memories: MemoriesService): void {
  api.route({
    operationId: 'listMemories', method: 'get', path: '/memories', tag: 'memories', auth: 'member',
    summary: 'Workspace memories apps saved, newest first',
    description: 'Every memory of a workspace install; a development install\'s only for its developer.',
    query: PageQuery, status: 200, response: MemoryPage,
  }, async ({ auth, query }) => memories.list(auth, query));
}
