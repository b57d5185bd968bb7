/**
 * @module deliveries/queues/v0-routes
 * `POST /v0/queue/messages` (ours, docs/decisions/queues.md) with the shapes of
 * `API_ROUTES.queueSend`: `{ messages: [{ body, delaySeconds?, key? }] }` (1 to 100) →
 * `200 { messages: [{ id, deduplicated, deliverAt }] }`, one answer per message in order.
 */
import { API_ROUTES, LIMITS } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { QueueService } from './service.ts';

const R = API_ROUTES.queueSend;
const Q = LIMITS.queues;

export function registerQueueV0Routes(api: V0Api, queues: QueueService): void {
  api.route({
    operationId: 'sendQueueMessages', method: 'post', path: '/queue/messages', tag: 'queues', auth: 'install', status: R.status,
    summary: 'Send messages to the install\'s own queue (ours)',
    description: 'Our extension of the spec. Each message comes back to the app as a `queue.message` lifecycle delivery (one per message) '
      + `after \`delaySeconds\` (0 to ${Q.maxDelaySeconds}), retried on the outbox's backoff up to the queue's \`maxAttempts\` (manifest \`queue\`, `
      + `${Q.maxAttemptsMin} to ${Q.maxAttemptsMax}), then kept as a dead letter on the Deliveries page, from where it can be sent again. `
      + `A \`key\` sent within ${Q.dedupeWindowMs / 3_600_000} hours is not sent again: the answer names the first message (\`deduplicated\`). `
      + `At most ${Q.messagesPerBatch} messages per request, ${Q.messageBytes / 1024} KB per body as JSON, `
      + `${Q.messagesPerSecondPerInstall} messages a second and ${Q.queuedBytesPerInstall / (1024 * 1024)} MB waiting per install.`,
    body: R.body, maxBytes: Q.requestBytes, response: R.response,
    errors: [
      { status: 403, description: 'PlatformAppInstallRevokedError' },
      { status: 409, description: 'PlatformAppQueueUndefinedError: the version the install runs has no `queue`' },
      { status: 413, description: 'PlatformApiPayloadTooLargeError: the request is over 1 MB' },
      { status: 429, description: 'PlatformAppQueueLimitError (`reason`: `rate` or `queued-bytes`, `limit`)' },
    ],
  }, async ({ auth, body }) => queues.send(auth, body));
}
