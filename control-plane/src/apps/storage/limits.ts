/**
 * @module apps/storage/limits
 * The sizes and counts of `LIMITS.storage`, checked before anything is read or written. Each limit
 * answers `PlatformAppStorageLimitExceededError` with `limit` (the row's name), `max` and the `path`
 * of the offending part, so an app can tell which one it passed.
 */
import { LIMITS, PlatformError, type PathSegment } from '@platform/sdk';

const L = LIMITS.storage;
type LimitName = keyof typeof L;

/** The highest code point: a prefix's upper bound in byte order, so it may not appear in keys. */
export const KEY_CEILING = '\u{10FFFF}';

export function limitExceeded(limit: LimitName, message: string, path: PathSegment[] = []): PlatformError {
  return new PlatformError('PlatformAppStorageLimitExceededError', message, { path, fields: { limit, max: L[limit] } });
}

export const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** A value's size: its compact JSON in UTF-8, the form it is stored and answered in. */
export const valueBytes = (value: unknown): number => utf8Bytes(JSON.stringify(value));

export function checkKey(key: string, path: PathSegment[]): void {
  if (utf8Bytes(key) > L.keyBytes) throw limitExceeded('keyBytes', `A key is at most ${L.keyBytes} bytes (UTF-8)`, path);
  if (key.includes(KEY_CEILING)) {
    throw new PlatformError('PlatformApiInvalidRequestError', 'Keys may not contain U+10FFFF (it bounds prefix lists)', { path, fields: { issues: [{ path, message: 'Keys may not contain U+10FFFF' }] } });
  }
}

export function checkValue(value: unknown, path: PathSegment[]): number {
  const bytes = valueBytes(value);
  if (bytes > L.valueBytes) throw limitExceeded('valueBytes', `A value is at most ${L.valueBytes} bytes as compact JSON`, path);
  return bytes;
}

export function checkGetKeys(keys: readonly string[]): void {
  if (keys.length > L.keysPerGetMany) throw limitExceeded('keysPerGetMany', `At most ${L.keysPerGetMany} keys per read`, ['keys']);
  keys.forEach((key, i) => checkKey(key, ['keys', i]));
}

export function checkListLimit(limit: number | undefined): number {
  if (limit === undefined) return L.listLimitDefault;
  if (limit > L.listLimitMax) throw limitExceeded('listLimitMax', `At most ${L.listLimitMax} entries per page`, ['limit']);
  return limit;
}

export function checkExpireIn(expireIn: number, path: PathSegment[]): void {
  if (expireIn < L.expireInMinMs) throw limitExceeded('expireInMinMs', `An expiry is at least ${L.expireInMinMs} ms away`, path);
  if (expireIn > L.expireInMaxMs) throw limitExceeded('expireInMaxMs', `An expiry is at most ${L.expireInMaxMs} ms away`, path);
}

interface CommitShape {
  checks?: ReadonlyArray<{ key: string }> | undefined;
  mutations: ReadonlyArray<{ type: string; key: string; value?: unknown; expireIn?: number | undefined }>;
}

/** Counts, then every key and value, then the commit's total of key and value bytes. */
export function checkCommit(commit: CommitShape): void {
  const checks = commit.checks ?? [];
  if (checks.length > L.checksPerCommit) throw limitExceeded('checksPerCommit', `At most ${L.checksPerCommit} checks per commit`, ['checks']);
  if (commit.mutations.length > L.mutationsPerCommit) throw limitExceeded('mutationsPerCommit', `At most ${L.mutationsPerCommit} mutations per commit`, ['mutations']);
  let total = 0;
  checks.forEach((c, i) => { checkKey(c.key, ['checks', i, 'key']); total += utf8Bytes(c.key); });
  commit.mutations.forEach((m, i) => {
    checkKey(m.key, ['mutations', i, 'key']);
    total += utf8Bytes(m.key);
    if (m.type === 'set') total += checkValue(m.value, ['mutations', i, 'value']);
    if (m.expireIn !== undefined) checkExpireIn(m.expireIn, ['mutations', i, 'expireIn']);
  });
  if (total > L.commitBytes) throw limitExceeded('commitBytes', `A commit's keys and values are at most ${L.commitBytes} bytes together`, ['mutations']);
}
