/**
 * @module api/routes
 * Every `/v0` endpoint as data: method and path, credentials, scope, and the schemas of its query,
 * body and `2xx` response. Servers mount routes from it, the client calls through it and the
 * OpenAPI document is generated from it, so a shape changes in one place. Paths marked ours in
 * docs/decisions/contract.md are where the spec leaves the exact path open.
 */
import type { z } from 'zod';
import type { Scope } from '../scopes/index.ts';
import { ROUTE_PATHS } from './route-paths.ts';
import * as apps from './apps.ts';
import * as blocks from './blocks.ts';
import * as messaging from './messaging.ts';
import * as references from './references.ts';
import * as search from './search.ts';
import * as storage from './storage.ts';
import * as streams from './streams.ts';
import * as queues from './queues.ts';

/** Who may call: install token, interaction token, client credentials, member API key, deploy token, agent builder token, anyone. */
export type Credential = 'install' | 'interaction' | 'client' | 'member' | 'deploy' | 'agentBuilder' | 'none';

export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly credentials: readonly Credential[];
  readonly scope: Scope | null;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
  readonly status: 200 | 201;
}

const route = <const R extends RouteSpec>(spec: R): R => spec;
const TOOLING: readonly Credential[] = ['member', 'deploy', 'agentBuilder'];

export const API_ROUTES = {
  jwks: route({ ...ROUTE_PATHS.jwks, credentials: ['none'], scope: null, response: apps.JwksResponseSchema, status: 200 }),
  streamEvent: route({ ...ROUTE_PATHS.streamEvent, credentials: ['install'], scope: 'replies:write', body: streams.StreamEventRequestSchema, response: streams.StreamEventResponseSchema, status: 200 }),
  searchObjectPut: route({ ...ROUTE_PATHS.searchObjectPut, credentials: ['install'], scope: 'search:write', body: search.SearchObjectPutRequestSchema, response: search.SearchObjectPutResponseSchema, status: 200 }),
  searchObjectDelete: route({ ...ROUTE_PATHS.searchObjectDelete, credentials: ['install'], scope: 'search:write', body: search.SearchObjectDeleteRequestSchema, response: search.SearchObjectDeleteResponseSchema, status: 200 }),
  blocksUpdateByState: route({ ...ROUTE_PATHS.blocksUpdateByState, credentials: ['install'], scope: 'blocks:write', body: blocks.BlocksUpdateByStateRequestSchema, response: blocks.BlocksUpdateByStateResponseSchema, status: 200 }),
  blockInsert: route({ ...ROUTE_PATHS.blockInsert, credentials: ['install'], scope: 'blocks:write', body: blocks.BlockInsertRequestSchema, response: blocks.BlockRecordSchema, status: 201 }),
  blockQuery: route({ ...ROUTE_PATHS.blockQuery, credentials: ['install'], scope: null, body: blocks.BlockQueryRequestSchema, response: blocks.BlockQueryResponseSchema, status: 200 }),
  blockGet: route({ ...ROUTE_PATHS.blockGet, credentials: ['install', 'interaction'], scope: null, response: blocks.BlockRecordSchema, status: 200 }),
  // With an interaction token no scope is needed (the block the action ran on); with an install token, blocks:write.
  blockUpdate: route({ ...ROUTE_PATHS.blockUpdate, credentials: ['install', 'interaction'], scope: 'blocks:write', body: blocks.BlockUpdateRequestSchema, response: blocks.BlockRecordSchema, status: 200 }),
  blockReplace: route({ ...ROUTE_PATHS.blockReplace, credentials: ['install', 'interaction'], scope: 'blocks:write', body: blocks.BlockReplaceRequestSchema, response: blocks.BlockRecordSchema, status: 200 }),
  blockRevalidate: route({ ...ROUTE_PATHS.blockRevalidate, credentials: ['install'], scope: null, body: blocks.BlockRevalidateRequestSchema, response: blocks.ScheduledResponseSchema, status: 200 }),
  reply: route({ ...ROUTE_PATHS.reply, credentials: ['install'], scope: 'replies:write', body: messaging.ReplyRequestSchema, response: messaging.ReplyResponseSchema, status: 201 }),
  notification: route({ ...ROUTE_PATHS.notification, credentials: ['install'], scope: 'notifications:write', body: messaging.NotificationRequestSchema, response: messaging.NotificationResponseSchema, status: 201 }),
  memory: route({ ...ROUTE_PATHS.memory, credentials: ['install'], scope: 'memories:write', body: messaging.MemoryRequestSchema, response: messaging.MemoryResponseSchema, status: 201 }),
  invocationRespond: route({ ...ROUTE_PATHS.invocationRespond, credentials: ['install'], scope: null, body: messaging.InvocationRespondRequestSchema, response: messaging.InvocationRespondResponseSchema, status: 200 }),
  referencePush: route({ ...ROUTE_PATHS.referencePush, credentials: ['install'], scope: 'references:write', body: references.ReferencePushRequestSchema, response: references.ReferencePushResponseSchema, status: 200 }),
  referenceRevalidate: route({ ...ROUTE_PATHS.referenceRevalidate, credentials: ['install'], scope: 'references:write', body: references.ReferenceRevalidateRequestSchema, response: blocks.ScheduledResponseSchema, status: 200 }),
  devSync: route({ ...ROUTE_PATHS.devSync, credentials: ['member', 'agentBuilder'], scope: null, query: apps.DevSyncQuerySchema, body: apps.DevSyncRequestSchema, response: apps.DevSyncResponseSchema, status: 200 }),
  manifestSync: route({ ...ROUTE_PATHS.manifestSync, credentials: TOOLING, scope: null, body: apps.ManifestSyncRequestSchema, response: apps.AppVersionRecordSchema, status: 200 }),
  manifestGet: route({ ...ROUTE_PATHS.manifestGet, credentials: TOOLING, scope: null, query: apps.ManifestGetQuerySchema, response: apps.ManifestGetResponseSchema, status: 200 }),
  // Issue 4: any valid credential of the spec (member key, install, deploy, agent builder token).
  checkTrees: route({ ...ROUTE_PATHS.checkTrees, credentials: [...TOOLING, 'install'], scope: null, body: apps.CheckTreesRequestSchema, response: apps.CheckTreesResponseSchema, status: 200 }),
  accessToken: route({ ...ROUTE_PATHS.accessToken, credentials: ['client'], scope: null, body: apps.AccessTokenRequestSchema, response: apps.AccessTokenResponseSchema, status: 201 }),
  // Ours (docs/decisions/queues.md): the install's own queue, so no scope.
  queueSend: route({ ...ROUTE_PATHS.queueSend, credentials: ['install'], scope: null, body: queues.QueueSendRequestSchema, response: queues.QueueSendResponseSchema, status: 200 }),
  // Ours: app storage; an interaction token's writes are staged with the action's result (docs/decisions/storage.md).
  storageGet: route({ ...ROUTE_PATHS.storageGet, credentials: ['install', 'interaction'], scope: null, body: storage.StorageGetRequestSchema, response: storage.StorageGetResponseSchema, status: 200 }),
  storageList: route({ ...ROUTE_PATHS.storageList, credentials: ['install', 'interaction'], scope: null, body: storage.StorageListRequestSchema, response: storage.StorageListResponseSchema, status: 200 }),
  storageCommit: route({ ...ROUTE_PATHS.storageCommit, credentials: ['install', 'interaction'], scope: null, body: storage.StorageCommitRequestSchema, response: storage.StorageCommitResponseSchema, status: 200 }),
} as const satisfies Record<keyof typeof ROUTE_PATHS, RouteSpec>;

export type RouteName = keyof typeof API_ROUTES;
