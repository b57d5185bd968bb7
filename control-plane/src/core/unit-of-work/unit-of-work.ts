/**
 * @module core/unit-of-work/unit-of-work
 * A unit of work: effects a handler asks for while a block action runs, staged under the action's
 * interaction token and applied in the one transaction that applies the action's result, or
 * dropped when the result is refused. Each kind of effect (`storage.commit` now; queue messages
 * next) registers an applier; the unit applies its items in the order they were staged.
 *
 * Rows, not memory: the handler's `/v0` calls may reach another control plane than the one waiting
 * for the delivery's answer. The key is the token's SHA-256, which both sides compute from the
 * token itself (the resolver from the `authorization` header, the action from what it minted).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { isForeignKeyViolation } from '../db/db.ts';

export const unitKeyOf = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface UnitItem {
  id: number;
  kind: string;
  payload: unknown;
}

/** Applies one staged item inside the result's transaction; throwing rolls the whole result back. */
export type Applier = (tx: Db, payload: unknown, shared: Map<string, unknown>) => Promise<void>;

export interface UnitOfWork {
  /** Opens the unit of `key` until `expiresAt`; nothing staged reaches the database outside it. */
  open(db: Db, key: string, expiresAt: Date): Promise<void>;
  /** The staged items of an open unit (of one kind, if given), oldest first; null when no unit is open. */
  items(db: Db, key: string, kind?: string): Promise<UnitItem[] | null>;
  /** Stages an item; false when the unit is not open (closed meanwhile, or never opened). */
  stage(db: Db, key: string, kind: string, payload: unknown): Promise<boolean>;
  /**
   * Within `tx`: locks the unit (so nothing more is staged in it), applies its items in order and
   * closes it. Answers how many items it applied.
   */
  apply(tx: Db, key: string): Promise<number>;
  /** Closes the unit without applying anything. */
  discard(db: Db, key: string): Promise<void>;
  /** Drops the units whose time ran out (their action's control plane died): answers how many. */
  sweep(db: Db, now: Date): Promise<number>;
}

/**
 * @example
 * const uow = createUnitOfWork({ appliers: { 'storage.commit': applyStagedCommit } });
 * await uow.open(db, unitKeyOf(token), expiresAt);
 * await db.transaction(async (tx) => { await uow.apply(tx, key); await writeResult(tx, …); });
 */
export function createUnitOfWork(deps: { appliers: Record<string, Applier> }): UnitOfWork {
  const items = async (db: Db, key: string, kind?: string): Promise<UnitItem[] | null> => {
    const { rows } = await db.query<{ id: number | null; kind: string | null; payload: unknown }>(
      `select i.id, i.kind, i.payload from units_of_work u left join unit_of_work_items i on i.unit_key = u.key and ($2::text is null or i.kind = $2)
       where u.key = $1 order by i.id`,
      [key, kind ?? null],
    );
    if (rows.length === 0) return null;
    return rows.filter((r) => r.id !== null).map((r) => ({ id: r.id!, kind: r.kind!, payload: r.payload }));
  };
  return {
    async open(db, key, expiresAt) {
      // Not worth an fsync of its own: a unit lost in a crash only fails an action that failed anyway.
      await db.transaction(async (tx) => {
        await tx.query('set local synchronous_commit = off');
        await tx.query('insert into units_of_work (key, expires_at) values ($1, $2) on conflict (key) do nothing', [key, expiresAt]);
      });
    },
    items,
    async stage(db, key, kind, payload) {
      try {
        await db.query('insert into unit_of_work_items (unit_key, kind, payload) values ($1, $2, $3::jsonb)', [key, kind, JSON.stringify(payload)]);
        return true;
      } catch (err) {
        if (isForeignKeyViolation(err)) return false;
        throw err;
      }
    },
    async apply(tx, key) {
      // FOR UPDATE conflicts with the key-share lock a staging insert takes: once held, nothing joins the unit.
      const locked = await tx.query('select key from units_of_work where key = $1 for update', [key]);
      if (locked.rowCount === 0) return 0;
      const staged = (await items(tx, key)) ?? [];
      const shared = new Map<string, unknown>();
      for (const item of staged) {
        const applier = deps.appliers[item.kind];
        if (applier === undefined) throw new Error(`No applier for staged ${item.kind}`);
        await applier(tx, item.payload, shared);
      }
      await tx.query('delete from units_of_work where key = $1', [key]);
      return staged.length;
    },
    async discard(db, key) {
      await db.query('delete from units_of_work where key = $1', [key]);
    },
    async sweep(db, now) {
      return (await db.query('delete from units_of_work where expires_at <= $1', [now])).rowCount;
    },
  };
}
