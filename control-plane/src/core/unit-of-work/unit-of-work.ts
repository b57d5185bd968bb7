/**
 * @module core/unit-of-work/unit-of-work
 * A unit of work: effects a handler asks for while a block action runs, staged under the action's
 * interaction token and applied in the one transaction that applies the action's result, or
 * dropped when the result is refused. Each kind of effect (`storage.commit`, `queue.send`)
 * registers an applier; the unit applies its items in the order they were staged.
 *
 * Rows, not memory: the handler's `/v0` calls may reach another control plane than the one waiting
 * for the delivery's answer. The key is the token's SHA-256, which both sides compute from the
 * token itself (the resolver from the `authorization` header, the action from what it minted).
 *
 * Opened lazily: most actions stage nothing, so a unit's rows are written only when a handler
 * first stages. Whether a unit is still open is a marker in the key-value store, decided by one
 * atomic set-if-absent: the first stage sets it `open`, the end of an action that staged nothing
 * sets it `closed` (one Redis round trip, no statement). Whichever comes first wins: a stage that
 * finds `closed` commits directly (the action is over), an action that finds `open` applies or
 * discards the rows. From there a transaction-scoped advisory lock on the key serializes the
 * stagers' inserts with the apply or discard, which leaves a second marker (`closed:`) while it
 * holds the lock, so a stage after it commits directly too.
 *
 * Without the key-value store (unreachable, or slower than `KV_WAIT_MS`) an action is not failed:
 * its end cannot tell whether anything was staged, so it takes the path of a staged unit, which
 * reads the rows under the lock (none, for most actions) and applies them with the result; and
 * where the closed marker cannot be set, the unit's row stays behind without items, a tombstone
 * that a later stage finds under the lock (and the sweeper drops once no token can stage in it).
 */
import { createHash } from 'node:crypto';
import { LIMITS } from '@platform/sdk';
import type { Clock } from '../clock/clock.ts';
import type { Db } from '../db/db.ts';
import { isForeignKeyViolation } from '../db/db.ts';
import type { Kv } from '../kv/kv.ts';

export const unitKeyOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A marker outlives every token that could stage under it (the resolver refuses expired tokens). */
const MARKER_TTL_MS = LIMITS.tokens.interactionTokenSeconds * 1000;
/**
 * How long the end of an action waits for the key-value store before it takes the staged path
 * (which is right whatever the store would have answered): a click is not held by a store that hangs.
 */
export const KV_WAIT_MS = 500;
const OPEN = 'open';
const CLOSED = 'closed';
const markerOf = (key: string) => `uow:${key}`;
const closedMarkerOf = (key: string) => `uow-closed:${key}`;

export interface UnitItem {
  id: number;
  kind: string;
  payload: unknown;
}

/** Applies one staged item inside the result's transaction; throwing rolls the whole result back. */
export type Applier = (tx: Db, payload: unknown, shared: Map<string, unknown>) => Promise<void>;

/** What the end of an action learned: `nothing-staged` needs no statement; `staged` is applied or discarded by the caller. */
export type ActionEnd = 'nothing-staged' | 'staged';

export interface UnitOfWork {
  /** The staged items of a unit not closed yet (of one kind, if given), oldest first; null when it is closed. */
  items(db: Db, key: string, kind?: string): Promise<UnitItem[] | null>;
  /** Stages an item, opening the unit if needed; false when the unit is closed (its action is over). */
  stage(db: Db, key: string, kind: string, payload: unknown): Promise<boolean>;
  /**
   * The app answered the action of `key`: from now on nothing stages in its unit. `nothing-staged`
   * when no handler staged (no statement was run); `staged` when one did, or when the key-value
   * store could not say: the caller then applies or discards the unit (an empty one costs a read).
   * Never throws.
   */
  endAction(key: string): Promise<ActionEnd>;
  /**
   * Within `tx`: closes the unit (nothing more is staged in it), applies its items in order and
   * removes them. Answers how many items it applied.
   */
  apply(tx: Db, key: string): Promise<number>;
  /** Closes the unit without applying anything. */
  discard(db: Db, key: string): Promise<void>;
  /** Drops the units whose time ran out (their action's control plane died): answers how many. */
  sweep(db: Db, now: Date): Promise<number>;
}

/** `promise`, or `fallback` once it failed or took longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

// One statement per stage: the unit's row (rides with its first item: one commit for both) and the
// item, unless the unit is a tombstone (a row without items: closed while the key-value store was away).
const STAGE = `
with tombstone as (
  select 1 from units_of_work u where u.key = $1 and not exists (select 1 from unit_of_work_items i where i.unit_key = $1)
), unit as (
  insert into units_of_work (key, expires_at) select $1, $2 where not exists (select 1 from tombstone) on conflict (key) do nothing
)
insert into unit_of_work_items (unit_key, kind, payload) select $1, $3, $4::jsonb where not exists (select 1 from tombstone)
returning id`;

/**
 * @example
 * const uow = createUnitOfWork({ kv, clock, appliers: { 'storage.commit': applyStagedCommit } });
 * if ((await uow.endAction(key)) === 'staged') await db.transaction(async (tx) => { await uow.apply(tx, key); await writeResult(tx, …); });
 */
export function createUnitOfWork(deps: { kv: Kv; clock: Clock; appliers: Record<string, Applier> }): UnitOfWork {
  const { kv } = deps;
  const expiry = () => new Date(deps.clock.now() + MARKER_TTL_MS);
  /** Holds the key's advisory lock until `tx` ends: stagers and the closing apply or discard take turns. */
  const lockKey = (tx: Db, key: string) => tx.query('select pg_advisory_xact_lock(hashtext($1))', [key]);
  /** Under the key's lock: from here on, stages commit directly (true), unless the key-value store cannot say so (false). */
  const markClosed = (key: string) => within(kv.setIfAbsent(closedMarkerOf(key), CLOSED, MARKER_TTL_MS).then(() => true), KV_WAIT_MS, false);
  /** Removes the unit's rows; where the closed marker could not be set, its row stays as a tombstone (no items). */
  const removeUnit = async (tx: Db, key: string, marked: boolean) => {
    if (marked) {
      await tx.query('delete from units_of_work where key = $1', [key]);
      return;
    }
    await tx.query('delete from unit_of_work_items where unit_key = $1', [key]);
    await tx.query('insert into units_of_work (key, expires_at) values ($1, $2) on conflict (key) do update set expires_at = excluded.expires_at', [key, expiry()]);
  };
  const readItems = async (db: Db, key: string, kind?: string): Promise<UnitItem[]> => {
    const { rows } = await db.query<{ id: number; kind: string; payload: unknown }>(
      'select id, kind, payload from unit_of_work_items where unit_key = $1 and ($2::text is null or kind = $2) order by id',
      [key, kind ?? null],
    );
    return rows;
  };

  return {
    async items(db, key, kind) {
      const marker = await kv.get(markerOf(key));
      if (marker === CLOSED) return null;
      // Nothing staged yet: no rows to read.
      if (marker === null) return [];
      if ((await kv.get(closedMarkerOf(key))) !== null) return null;
      return readItems(db, key, kind);
    },
    async stage(db, key, kind, payload) {
      if (!(await kv.setIfAbsent(markerOf(key), OPEN, MARKER_TTL_MS)) && (await kv.get(markerOf(key))) === CLOSED) return false;
      try {
        return await db.transaction(async (tx) => {
          await lockKey(tx, key);
          if ((await kv.get(closedMarkerOf(key))) !== null) return false;
          const { rows } = await tx.query(STAGE, [key, expiry(), kind, JSON.stringify(payload)]);
          return rows.length === 1;
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) return false;
        throw err;
      }
    },
    async endAction(key) {
      return (await within(kv.setIfAbsent(markerOf(key), CLOSED, MARKER_TTL_MS), KV_WAIT_MS, false)) ? 'nothing-staged' : 'staged';
    },
    async apply(tx, key) {
      await lockKey(tx, key);
      const marked = await markClosed(key);
      const staged = await readItems(tx, key);
      const shared = new Map<string, unknown>();
      for (const item of staged) {
        const applier = deps.appliers[item.kind];
        if (applier === undefined) throw new Error(`No applier for staged ${item.kind}`);
        await applier(tx, item.payload, shared);
      }
      await removeUnit(tx, key, marked);
      return staged.length;
    },
    async discard(db, key) {
      await db.transaction(async (tx) => {
        await lockKey(tx, key);
        await removeUnit(tx, key, await markClosed(key));
      });
    },
    async sweep(db, now) {
      const { rows } = await db.query<{ key: string }>('delete from units_of_work where expires_at <= $1 returning key', [now]);
      // A swept unit is closed: a late stage under it commits directly.
      for (const { key } of rows) await kv.setIfAbsent(closedMarkerOf(key), CLOSED, MARKER_TTL_MS);
      return rows.length;
    },
  };
}
