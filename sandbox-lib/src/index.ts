/**
 * @module @platform/sandbox-lib
 * The platform's contract as code (wire schemas, limits, error tags, validators, delivery signing)
 * and the SDK app authors build with. It imports nothing else of ours; the servers import it.
 */
export * from './limits/index.ts';
export * from './errors/index.ts';
