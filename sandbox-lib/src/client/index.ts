/**
 * @module client
 * The typed `/v0` client: checked (`createPlatformClient`) or lean (`createLeanPlatformClient`, what
 * `ctx.api` is).
 */
export { createPlatformClient, type PlatformClient, type PlatformClientOptions } from './client.ts';
export { createLeanPlatformClient } from './lean.ts';
export { PlatformClientError, isPlatformClientError } from './errors.ts';
export { callRoute, type CallInput, type CallOptions, type RouteBody, type RouteQuery, type RouteResponse, type Transport } from './request.ts';
export { storageClient, type StorageClient, type StorageEntry as StorageEntryRead, type StorageListOptions, type StorageListPage, type AtomicOperation, type CommitResult as StorageCommitResult } from './storage.ts';
