/**
 * @module delivery/schemas
 * Everything that crosses between the service and an app's delivery endpoint.
 */
export * from './headers.ts';
export * from './common.ts';
export * from './envelope.ts';
export * from './action-result.ts';
export * from './interactive.ts';
export * from './lifecycle.ts';
