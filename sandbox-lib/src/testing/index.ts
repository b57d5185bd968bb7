/**
 * @module @platform/sdk/testing
 * Testing an app without a running platform, as Miniflare or Slack's test utilities let their
 * authors: `createTestPlatform({ app })` sends deliveries of every interactive and lifecycle type
 * the way the platform sends them, answers typed and checked results, and records the `/v0` calls
 * the app made. Runs wherever the SDK runs (Web-standard APIs only).
 */
export { createTestPlatform, type AnswerProblem, type EventOutcome, type InteractiveOutcome, type TestPlatform, type TestPlatformOptions, type TestTarget } from './platform.ts';
export { DeliveryInputError, type DeliveryInput, type DeliveryParties, type Envelope } from './deliveries.ts';
export type { ApiAnswer, ApiCall } from './api-calls.ts';
