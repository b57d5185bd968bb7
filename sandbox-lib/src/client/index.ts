/**
 * @module client
 * The typed `/v0` client.
 */
export { createPlatformClient, type PlatformClient, type PlatformClientOptions } from './client.ts';
export { PlatformClientError, isPlatformClientError } from './errors.ts';
export { callRoute, type CallInput, type CallOptions, type RouteBody, type RouteQuery, type RouteResponse, type Transport } from './request.ts';
