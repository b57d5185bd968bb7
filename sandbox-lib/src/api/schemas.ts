/**
 * @module api/schemas
 * Request bodies (strict) and responses (lenient) of every `/v0` endpoint, and the route table.
 */
export { lenientEnum } from '../wire/lenient.ts';
export { REQUEST, RESPONSE, type Wire } from '../wire/modes.ts';
// `text`, `label` and `jsonObject` stay internal; the catalog owns the tree types (`ActionTable`, ...).
export {
  graphemeLength, HttpsUrlSchema, IdSchema, TimestampSchema, VersionSchema, COUNTER_MAX, CountedSchema, DocumentSchema, BlockTreeSchema, ActionRefSchema,
  ActionNameSchema, ActionArgsSchema, ActionTableSchema, ActionTableRequestSchema, BlockPropsSchema, BlockStateSchema,
} from '../wire/primitives.ts';
export { StateMatchSchema, hasOneTarget } from './targets.ts';
export * from './streams.ts';
export * from './search.ts';
export * from './blocks.ts';
export * from './messaging.ts';
export * from './references.ts';
export * from './storage.ts';
export * from './apps.ts';
export * from './logs.ts';
export * from './queues.ts';
export * from './error-groups.ts';
export * from './errors.ts';
export * from './routes.ts';
