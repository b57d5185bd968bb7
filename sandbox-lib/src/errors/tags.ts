/**
 * @module errors/tags
 * Every error `_tag` the service answers with, its HTTP status and the extra fields its body carries.
 * Rows marked `spec` are the spec's; the rest are ours (the spec leaves their status or existence
 * open) and are recorded in docs/decisions.md.
 */

export interface ErrorTagInfo {
  readonly status: number;
  /** Extra body fields beyond `_tag`, `message`, `path`. */
  readonly fields: readonly string[];
  /** `user` faults come from callers or guest code; `platform` faults are ours (alerts, retries). */
  readonly fault: 'user' | 'platform';
  readonly source: 'spec' | 'ours';
}

const row = (status: number, fields: readonly string[] = [], fault: 'user' | 'platform' = 'user', source: 'spec' | 'ours' = 'spec'): ErrorTagInfo =>
  ({ status, fields, fault, source });

export const ERROR_TAGS = {
  // Errors every endpoint can return.
  PlatformApiInvalidRequestError: row(400, ['issues']),
  PlatformAppTokenMissingError: row(401),
  PlatformAppTokenInvalidError: row(401),
  PlatformAppInteractionExpiredError: row(401),
  PlatformAppInstallRevokedError: row(403),
  PlatformApiRateLimitExceededError: row(429),
  PlatformApiInternalServerError: row(500, [], 'platform'),
  PlatformApiServiceUnavailableError: row(503, [], 'platform'),
  PlatformAppScopeMissingError: row(403, ['scope']),

  // Endpoint-specific.
  PlatformAppCircleNotFoundError: row(404, ['circleIds']),
  PlatformAppStreamRevokedError: row(410),
  PlatformAppStreamInvalidPayloadError: row(400, ['reason']),
  PlatformAppReferenceKindUnknownError: row(422),
  PlatformAppReferenceKindNotSearchableError: row(422),
  PlatformAppBlockTypeUnknownError: row(422),
  PlatformAppBlockStateInvalidError: row(422),
  PlatformAppsUnavailableError: row(403),
  PlatformAppDevSlugUnavailableError: row(409),
  PlatformAppDeployTargetForbiddenError: row(403),
  PlatformAppNotFoundError: row(404),
  PlatformAppManifestInvalidError: row(422, ['reason']),
  PlatformAppPatternInvalidError: row(422, ['reason']),

  // Named by the spec without a status: ours.
  PlatformApiConversationNotFoundError: row(404, [], 'user', 'ours'),
  PlatformApiReplyNotFoundError: row(404, [], 'user', 'ours'),
  PlatformAppBlockVersionConflictError: row(409, ['blockId', 'expectedVersion', 'currentVersion'], 'user', 'ours'),
  PlatformAppInstallNotFoundError: row(404, [], 'user', 'ours'),
  PlatformAppResponseInvalidError: row(502, [], 'user', 'ours'),

  // Not in the spec: ours.
  PlatformApiNotFoundError: row(404, [], 'user', 'ours'),
  PlatformApiMethodNotAllowedError: row(405, [], 'user', 'ours'),
  PlatformApiPayloadTooLargeError: row(413, ['limit'], 'user', 'ours'),
  PlatformApiUriTooLongError: row(414, ['limit'], 'user', 'ours'),
  PlatformApiHeadersTooLargeError: row(431, ['limit'], 'user', 'ours'),
  PlatformApiForbiddenError: row(403, [], 'user', 'ours'),
  PlatformApiConflictError: row(409, [], 'user', 'ours'),
  PlatformAppBlockNotFoundError: row(404, [], 'user', 'ours'),
  PlatformAppBlockFinalError: row(409, ['blockId'], 'user', 'ours'),
  PlatformAppTreeInvalidError: row(422, [], 'user', 'ours'),
  PlatformAppBundleInvalidError: row(422, [], 'user', 'ours'),
  PlatformAppDeliveryFailedError: row(502, ['reason'], 'user', 'ours'),
  PlatformAppRelayNotConnectedError: row(503, [], 'user', 'ours'),
  PlatformRuntimeCpuLimitError: row(503, ['limitMs'], 'user', 'ours'),
  PlatformRuntimeMemoryLimitError: row(503, [], 'user', 'ours'),
  PlatformRuntimeDeadlineError: row(504, ['deadlineMs'], 'user', 'ours'),
  PlatformRuntimeGuestError: row(500, [], 'user', 'ours'),
  PlatformRuntimeCrashedError: row(503, [], 'platform', 'ours'),
  PlatformRuntimeEgressDeniedError: row(403, ['host', 'reason'], 'user', 'ours'),
  // App storage (docs/decisions/storage.md): a commit's check saw another version; a limit of
  // LIMITS.storage was passed (`limit` names the row, `max` its value); a sum met a value that is not a number.
  PlatformAppStorageCheckFailedError: row(409, ['checkIndex', 'key'], 'user', 'ours'),
  PlatformAppStorageLimitExceededError: row(422, ['limit', 'max'], 'user', 'ours'),
  PlatformAppStorageQuotaExceededError: row(409, ['limit', 'max'], 'user', 'ours'),
  PlatformAppStorageNotANumberError: row(422, ['key'], 'user', 'ours'),
  // A replay's read-only token asked to write (platform replay; docs/decisions/cli.md).
  PlatformReplayReadOnlyError: row(403, [], 'user', 'ours'),
  // Queues (docs/decisions/queues.md): the app defines no consumer, or a limit of the install's queue.
  PlatformAppQueueUndefinedError: row(409, [], 'user', 'ours'),
  PlatformAppQueueLimitError: row(429, ['limit', 'reason'], 'user', 'ours'),
} as const satisfies Record<string, ErrorTagInfo>;

export type ErrorTag = keyof typeof ERROR_TAGS;
