/**
 * @module api/route-paths
 * Where each `/v0` endpoint of `API_ROUTES` lives (method and path), as plain data (no zod): the
 * client an app's handlers get (`ctx.api`) calls through this table, so a hosted bundle carries no
 * schemas. `API_ROUTES` adds credentials, scope and schemas to each row; a test keeps the two equal.
 */

export interface RoutePath {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
}

export const ROUTE_PATHS = {
  jwks: { method: 'GET', path: '/.well-known/platform/jwks.json' },
  streamEvent: { method: 'POST', path: '/v0/streams/events' },
  searchObjectPut: { method: 'PUT', path: '/v0/search/objects' },
  searchObjectDelete: { method: 'DELETE', path: '/v0/search/objects' },
  blocksUpdateByState: { method: 'PATCH', path: '/v0/blocks' },
  blockInsert: { method: 'POST', path: '/v0/blocks' },
  blockQuery: { method: 'POST', path: '/v0/blocks/query' },
  blockGet: { method: 'GET', path: '/v0/blocks/{block_id}' },
  blockUpdate: { method: 'PATCH', path: '/v0/blocks/{block_id}' },
  blockReplace: { method: 'PUT', path: '/v0/blocks/{block_id}' },
  blockRevalidate: { method: 'POST', path: '/v0/blocks/{block_id}/revalidate' },
  reply: { method: 'POST', path: '/v0/replies' },
  notification: { method: 'POST', path: '/v0/notifications' },
  memory: { method: 'POST', path: '/v0/memories' },
  invocationRespond: { method: 'POST', path: '/v0/invocations/respond' },
  referencePush: { method: 'PUT', path: '/v0/references' },
  referenceRevalidate: { method: 'POST', path: '/v0/references/revalidate' },
  devSync: { method: 'PUT', path: '/v0/apps/dev' },
  manifestSync: { method: 'PUT', path: '/v0/apps/{app_id}/manifest' },
  manifestGet: { method: 'GET', path: '/v0/apps/{app_id}/manifest' },
  checkTrees: { method: 'POST', path: '/v0/apps/check/trees' },
  accessToken: { method: 'POST', path: '/v0/apps/installs/{install_id}/access-tokens' },
  queueSend: { method: 'POST', path: '/v0/queue/messages' },
  // Ours: app storage (docs/decisions/storage.md).
  storageGet: { method: 'POST', path: '/v0/storage/get' },
  storageList: { method: 'POST', path: '/v0/storage/list' },
  storageCommit: { method: 'POST', path: '/v0/storage/commit' },
} as const satisfies Record<string, RoutePath>;
