/**
 * @module client/methods
 * The `/v0` client's methods, grouped by resource, over any way of calling a route by name: the
 * checked client (`createPlatformClient`) and the lean one (`createLeanPlatformClient`) are these
 * same methods over two `call`s, so they cannot drift apart.
 */
import type { RouteName } from '../api/routes.ts';
import { encodeBase64 } from '../signing/base64.ts';
import { storageClient } from './storage.ts';
import type { CallInput, CallOptions, RouteBody, RouteQuery, RouteResponse } from './request.ts';

/** Calls the route `name` (what differs between the clients). */
export type RouteCaller = <N extends RouteName>(name: N, input: CallInput<N>, options?: CallOptions) => Promise<RouteResponse<N>>;

/**
 * The client's methods over `call`.
 * @example const api = clientMethods((name, input, options) => callRoute(transport, name, input, options));
 */
export function clientMethods(call: RouteCaller) {
  const id = (blockId: string) => ({ block_id: blockId });
  return {
    /** Any route by its name in `API_ROUTES`. */
    request: call,
    blocks: {
      insert: (body: RouteBody<'blockInsert'>, o?: CallOptions) => call('blockInsert', { body }, o),
      get: (blockId: string, o?: CallOptions) => call('blockGet', { params: id(blockId) }, o),
      /** Shallow-merges `state`; with an interaction token (`{ token }`) inside an action's 15 minutes. */
      update: (blockId: string, body: RouteBody<'blockUpdate'>, o?: CallOptions) => call('blockUpdate', { params: id(blockId), body }, o),
      replace: (blockId: string, body: RouteBody<'blockReplace'>, o?: CallOptions) => call('blockReplace', { params: id(blockId), body }, o),
      query: (body: RouteBody<'blockQuery'> = {}, o?: CallOptions) => call('blockQuery', { body }, o),
      revalidate: (blockId: string, o?: CallOptions) => call('blockRevalidate', { params: id(blockId), body: {} }, o),
      /** `PATCH /v0/blocks`: merges `state` into every non-final block of `type` whose state matches. */
      updateByState: (body: RouteBody<'blocksUpdateByState'>, o?: CallOptions) => call('blocksUpdateByState', { body }, o),
    },
    replies: {
      post: (body: RouteBody<'reply'>, o?: CallOptions) => call('reply', { body }, o),
    },
    streams: {
      postEvent: (body: RouteBody<'streamEvent'>, o?: CallOptions) => call('streamEvent', { body }, o),
    },
    notifications: {
      send: (body: RouteBody<'notification'>, o?: CallOptions) => call('notification', { body }, o),
    },
    memories: {
      add: (body: RouteBody<'memory'>, o?: CallOptions) => call('memory', { body }, o),
    },
    references: {
      push: (body: RouteBody<'referencePush'>, o?: CallOptions) => call('referencePush', { body }, o),
      revalidate: (body: RouteBody<'referenceRevalidate'>, o?: CallOptions) => call('referenceRevalidate', { body }, o),
    },
    search: {
      put: (body: RouteBody<'searchObjectPut'>, o?: CallOptions) => call('searchObjectPut', { body }, o),
      delete: (body: RouteBody<'searchObjectDelete'>, o?: CallOptions) => call('searchObjectDelete', { body }, o),
    },
    invocations: {
      respond: (body: RouteBody<'invocationRespond'>, o?: CallOptions) => call('invocationRespond', { body }, o),
    },
    apps: {
      checkTree: (body: RouteBody<'checkTrees'>, o?: CallOptions) => call('checkTrees', { body }, o),
      syncDev: (body: RouteBody<'devSync'>, query?: RouteQuery<'devSync'>, o?: CallOptions) => call('devSync', { body, query }, o),
      syncManifest: (appId: string, body: RouteBody<'manifestSync'>, o?: CallOptions) => call('manifestSync', { params: { app_id: appId }, body }, o),
      getManifest: (appId: string, query?: RouteQuery<'manifestGet'>, o?: CallOptions) => call('manifestGet', { params: { app_id: appId }, query }, o),
      /** Mints an install token with the app's client credentials (HTTP Basic). */
      mintAccessToken: (installId: string, credentials: { clientId: string; clientSecret: string }, o?: CallOptions) =>
        call('accessToken', { params: { install_id: installId }, body: {} }, { ...o, authorization: `Basic ${encodeBase64(new TextEncoder().encode(`${credentials.clientId}:${credentials.clientSecret}`))}` }),
    },
    queue: {
      /** One message to the install's own queue; it comes back as a `queue.message` delivery. */
      send: (body: unknown, options: { delaySeconds?: number; key?: string } = {}, o?: CallOptions) =>
        call('queueSend', { body: { messages: [{ body: body as never, ...options }] } }, o),
      /** Up to 100 messages in one request. */
      sendBatch: (messages: RouteBody<'queueSend'>['messages'], o?: CallOptions) => call('queueSend', { body: { messages } }, o),
    },
    /** The install's key-value storage (ours; docs/decisions/storage.md). */
    storage: storageClient(call),
    jwks: (o?: CallOptions) => call('jwks', {}, o),
  };
}

/** The client both factories return. */
export type PlatformClient = ReturnType<typeof clientMethods>;
