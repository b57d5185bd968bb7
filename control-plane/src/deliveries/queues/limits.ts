/**
 * @module deliveries/queues/limits
 * The limits of an install's queue (docs/decisions/queues.md), each refused with
 * `PlatformAppQueueLimitError` (`reason`, `limit`): messages per second and bytes waiting. The
 * size of one message, the batch size and the delay bound are the request schema's
 * (`PlatformApiInvalidRequestError`).
 */
import { LIMITS, PlatformError } from '@platform/sdk';

const Q = LIMITS.queues;

export const queueLimit = (reason: 'rate' | 'queued-bytes', limit: number, message: string, path: Array<string | number> = ['messages']) =>
  new PlatformError('PlatformAppQueueLimitError', message, { path, fields: { reason, limit } });

/** Throws when `adding` messages of `bytes` would pass a limit, given what the queue already holds. */
export function checkQueueLimits(usage: { recent: number; queuedBytes: number }, adding: { count: number; bytes: number }): void {
  if (usage.recent + adding.count > Q.messagesPerSecondPerInstall) {
    throw queueLimit('rate', Q.messagesPerSecondPerInstall, `At most ${Q.messagesPerSecondPerInstall} messages a second per install; ${usage.recent} sent in the last second`);
  }
  if (usage.queuedBytes + adding.bytes > Q.queuedBytesPerInstall) {
    throw queueLimit('queued-bytes', Q.queuedBytesPerInstall, `At most ${Q.queuedBytesPerInstall / (1024 * 1024)} MB of messages may wait per install; ${usage.queuedBytes} bytes wait`);
  }
}
