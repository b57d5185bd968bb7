/**
 * @module apps/storage/stage
 * Storage commits made with a block action's interaction token (docs/decisions/storage.md): staged
 * in the action's unit of work (core/unit-of-work) and applied in the transaction that applies the
 * action's result. While staged they are read as if committed (`overlay`), under a provisional
 * versionstamp; applied, each gets a final one, and a later staged commit's check of a provisional
 * versionstamp is read as a check of its final one.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Applier, UnitItem } from '../../core/unit-of-work/unit-of-work.ts';
import { applyCommit, foldMutations, type CommitRequest } from './commit.ts';
import type { EntryRow, ListRange, StorageSpace } from './store.ts';
import { parseVersionstamp } from './versionstamp.ts';

export const STAGED_COMMIT = 'storage.commit';

export interface StagedCommit {
  space: StorageSpace;
  commit: CommitRequest;
  /** What the handler was answered, and what staged reads show. */
  provisional: string;
}

/** `rows` (live entries by key) with the staged commits folded in, in order; deleted keys are gone. */
export function overlay(rows: Map<string, EntryRow>, staged: readonly StagedCommit[], now: Date): Map<string, EntryRow> {
  const out = new Map(rows);
  for (const s of staged) {
    for (const [key, final] of foldMutations(s.commit.mutations, out, now)) {
      if (final === null) out.delete(key);
      else out.set(key, { key, value: final.value, versionstamp: parseVersionstamp(s.provisional), bytes: 0, expires_at: final.expiresAt });
    }
  }
  return out;
}

/** The keys the staged commits write (set, delete or sum). */
export const stagedKeys = (staged: readonly StagedCommit[]): string[] => [...new Set(staged.flatMap((s) => s.commit.mutations.map((m) => m.key)))];

/** Keys in the store's order: by their UTF-8 bytes (the column's `C` collation). */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * A list page as the action sees it: the live page (fetched `stagedKeys` longer, so staged deletes
 * cannot shorten it) and the live entries of the staged keys, with the staged commits folded in,
 * then the range applied again and cut to `range.limit + 1` (the caller's "more" probe).
 */
export function overlayPage(page: readonly EntryRow[], stagedLive: readonly EntryRow[], staged: readonly StagedCommit[], range: ListRange, now: Date): EntryRow[] {
  const seen = overlay(new Map([...stagedLive, ...page].map((r) => [r.key, r])), staged, now);
  const inRange = (key: string) => range.atLeast.every((v) => byBytes(key, v) >= 0) && range.below.every((v) => byBytes(key, v) < 0)
    && (range.after === null || (range.reverse ? byBytes(key, range.after) < 0 : byBytes(key, range.after) > 0));
  // Past the live page's last key, only the live page's own rows may be missing (it was cut there).
  const last = page.length > range.limit + stagedKeys(staged).length ? page.at(-1)!.key : null;
  const beforeCut = (key: string) => last === null || (range.reverse ? byBytes(key, last) >= 0 : byBytes(key, last) <= 0);
  const rows = [...seen.values()].filter((r) => inRange(r.key) && beforeCut(r.key));
  rows.sort((a, b) => (range.reverse ? byBytes(b.key, a.key) : byBytes(a.key, b.key)));
  return rows.slice(0, range.limit + 1);
}

export const stagedCommits = (items: readonly UnitItem[]): StagedCommit[] => items.map((i) => i.payload as StagedCommit);

/** The unit-of-work applier of staged commits; `shared` maps provisional versionstamps to final ones. */
export function stagedCommitApplier(deps: { clock: Clock; onApplied?: (space: StorageSpace, bytesDelta: number) => void }): Applier {
  return async (tx: Db, payload, shared) => {
    const staged = payload as StagedCommit;
    const checks = (staged.commit.checks ?? []).map((c) => {
      const final = c.versionstamp === null ? undefined : shared.get(`storage:${c.versionstamp}`);
      return typeof final === 'string' ? { ...c, versionstamp: final } : c;
    });
    const result = await applyCommit(tx, staged.space, { ...staged.commit, checks }, new Date(deps.clock.now()));
    shared.set(`storage:${staged.provisional}`, result.versionstamp);
    deps.onApplied?.(staged.space, result.bytesDelta);
  };
}
