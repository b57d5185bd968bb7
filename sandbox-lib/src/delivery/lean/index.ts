/**
 * @module delivery/lean
 * Zod-free twins of the delivery schemas the SDK reads inside an app: the envelope, each
 * interactive type's data and result, each event's data. `app.fetch` uses these, so a hosted
 * bundle carries no zod unless the app itself uses it; the servers and tests keep the zod schemas,
 * and property tests hold the two equal (test/sandbox-lib/lean-checks.test.ts).
 */
export { read, type Check, type Issue, type Path, type Read } from './check.ts';
export { envelope as envelopeCheck } from './envelope.ts';
export { interactiveDataChecks, blockResultChecks } from './interactive.ts';
export { pieceResultChecks } from './interactive-pieces.ts';
export { eventDataChecks } from './lifecycle.ts';
