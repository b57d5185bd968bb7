/**
 * @module @platform/sdk
 * The platform's contract as code (wire schemas, limits, error tags, validators, delivery signing)
 * and the SDK app authors build with. It imports nothing else of ours; the servers import it.
 */
export * from './limits/index.ts';
export * from './errors/index.ts';
export * from './scopes/index.ts';
export * from './events/index.ts';
export * from './hosts/index.ts';
export * from './json-schema/index.ts';
export * from './manifest/index.ts';
export * from './delivery/index.ts';
export * from './api/index.ts';
export * from './signing/index.ts';
export * from './authoring/index.ts';
export * from './client/index.ts';
export * from './net/index.ts';
export * from './names/index.ts';
export * from './catalog/index.ts';
export * from './schedules/index.ts';
export * from './queues/index.ts';
