/**
 * @module @platform/runtime
 * A runtime node (supervisor, sandbox workers with isolated-vm isolates, hosted ingress, the
 * internal API) and the small client the control plane uses to call one. The control plane imports
 * only `createRuntimeClient` and the types from here.
 */
export { createRuntimeNode, type RuntimeNode, type RuntimeNodeDeps } from './node.ts';
export { createRuntimeClient, RuntimeClientError, type RuntimeClient, type RuntimeDeliveryKind, type RuntimeDeliveryRequest, type RuntimeDeliveryResult, type RuntimeOutcome } from './client.ts';
export { loadConfig, CONFIG_TABLE, type RuntimeConfig } from './config/config.ts';
export { createMemoryAppDirectory, type AppDirectory, type ResolvedApp } from './ingress/directory.ts';
