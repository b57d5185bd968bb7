/**
 * @module apps/storage/commit
 * One atomic commit inside a transaction the caller owns: lock the keys it touches, read them (and
 * draw the versionstamp), evaluate its checks, fold its mutations in order into each key's final
 * entry, then write them, delete, and charge the space's usage in one statement, checked against
 * the quotas. Three statements within the transaction, whatever the commit holds. Any refusal throws, and the caller's
 * transaction rolls back with it: nothing of a commit is ever applied in part.
 *
 * Taking the transaction from the caller is what makes storage atomic with a card: an action's
 * staged commits run in the same transaction as its block state (blocks/interactions).
 */
import { LIMITS, PlatformError } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { utf8Bytes } from './limits.ts';
import { lockKeys, readStoredAndStamp, writeCommit, type EntryRow, type StorageSpace, type WrittenEntry } from './store.ts';
import { formatVersionstamp } from './versionstamp.ts';

export type Mutation =
  | { type: 'set'; key: string; value: unknown; expireIn?: number | undefined }
  | { type: 'delete'; key: string }
  | { type: 'sum'; key: string; value: number };

export interface CommitRequest {
  checks?: ReadonlyArray<{ key: string; versionstamp: string | null }> | undefined;
  mutations: readonly Mutation[];
}

export interface CommitResult {
  versionstamp: string;
  /** Changes of the space's usage (for metrics). */
  keysDelta: number;
  bytesDelta: number;
}

export type Final = { value: unknown; expiresAt: Date | null } | null;

const isLive = (row: EntryRow | undefined, now: Date): row is EntryRow => row !== undefined && (row.expires_at === null || row.expires_at > now);

export function checkFailed(index: number, key: string): PlatformError {
  return new PlatformError('PlatformAppStorageCheckFailedError', `Check ${index} failed: "${key}" changed since the versionstamp the app read`, {
    path: ['checks', index], fields: { checkIndex: index, key },
  });
}

/** Applies `commit` to `space` within `tx`; the limits of `checkCommit` were checked before. */
export async function applyCommit(tx: Db, space: StorageSpace, commit: CommitRequest, now: Date): Promise<CommitResult> {
  const checks = commit.checks ?? [];
  const keys = [...new Set([...checks.map((c) => c.key), ...commit.mutations.map((m) => m.key)])];
  await lockKeys(tx, space, keys);
  const read = await readStoredAndStamp(tx, space, keys);
  const stored = new Map(read.rows.map((r) => [r.key, r]));

  checks.forEach((check, i) => {
    const row = stored.get(check.key);
    const current = isLive(row, now) ? formatVersionstamp(row.versionstamp) : null;
    if (current !== check.versionstamp) throw checkFailed(i, check.key);
  });

  const finals = foldMutations(commit.mutations, stored, now);
  const { versionstamp } = read;
  const { writes, deletes, keysDelta, bytesDelta } = plan(finals, stored);
  const usage = await writeCommit(tx, space, { writes, deletes, versionstamp, keysDelta, bytesDelta });
  if (usage !== null) checkQuotas(usage, keysDelta, bytesDelta);
  return { versionstamp: formatVersionstamp(versionstamp), keysDelta, bytesDelta };
}

/** Each touched key's entry after the mutations, in order; expired entries count as absent. */
export function foldMutations(mutations: readonly Mutation[], stored: Map<string, EntryRow>, now: Date): Map<string, Final> {
  const finals = new Map<string, Final>();
  const current = (key: string): Final => {
    if (finals.has(key)) return finals.get(key)!;
    const row = stored.get(key);
    return isLive(row, now) ? { value: row.value, expiresAt: row.expires_at } : null;
  };
  mutations.forEach((m, i) => {
    if (m.type === 'delete') finals.set(m.key, null);
    else if (m.type === 'set') finals.set(m.key, { value: m.value, expiresAt: m.expireIn === undefined ? null : new Date(now.getTime() + m.expireIn) });
    else finals.set(m.key, { value: sum(current(m.key), m, i), expiresAt: current(m.key)?.expiresAt ?? null });
  });
  return finals;
}

function sum(entry: Final, m: { key: string; value: number }, index: number): number {
  const base = entry === null ? 0 : entry.value;
  if (typeof base !== 'number') {
    throw new PlatformError('PlatformAppStorageNotANumberError', `"${m.key}" holds a value that is not a number; a sum adds only to numbers`, { path: ['mutations', index], fields: { key: m.key } });
  }
  const result = base + m.value;
  if (!Number.isFinite(result)) {
    throw new PlatformError('PlatformAppStorageNotANumberError', `The sum at "${m.key}" is not a finite number`, { path: ['mutations', index], fields: { key: m.key } });
  }
  return result;
}

/** The rows to write and delete, and how the space's stored keys and bytes change (expired rows included). */
function plan(finals: Map<string, Final>, stored: Map<string, EntryRow>) {
  const writes: WrittenEntry[] = [];
  const deletes: string[] = [];
  let keysDelta = 0;
  let bytesDelta = 0;
  for (const [key, final] of finals) {
    const before = stored.get(key);
    if (final === null) {
      if (before === undefined) continue;
      deletes.push(key);
      keysDelta -= 1;
      bytesDelta -= before.bytes;
      continue;
    }
    const json = JSON.stringify(final.value);
    const bytes = utf8Bytes(key) + utf8Bytes(json);
    writes.push({ key, json, bytes, expiresAt: final.expiresAt });
    if (before === undefined) keysDelta += 1;
    bytesDelta += bytes - (before?.bytes ?? 0);
  }
  return { writes, deletes, keysDelta, bytesDelta };
}

/** Throws past a quota; the caller's transaction then rolls the commit back. */
function checkQuotas(total: { keys: number; bytes: number }, keysDelta: number, bytesDelta: number): void {
  const L = LIMITS.storage;
  // Only growth is refused: a commit that frees space always goes through, even over a quota.
  if (keysDelta > 0 && total.keys > L.keysPerInstall) {
    throw new PlatformError('PlatformAppStorageQuotaExceededError', `An install keeps at most ${L.keysPerInstall} keys`, { fields: { limit: 'keysPerInstall', max: L.keysPerInstall } });
  }
  if (bytesDelta > 0 && total.bytes > L.bytesPerInstall) {
    throw new PlatformError('PlatformAppStorageQuotaExceededError', `An install keeps at most ${L.bytesPerInstall} bytes`, { fields: { limit: 'bytesPerInstall', max: L.bytesPerInstall } });
  }
}
