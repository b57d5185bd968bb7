/**
 * @module apps/tokens/store
 * SQL of the signing keys. Rows are written under an advisory lock (keyring.ts) so replicas that
 * rotate at once agree on one new key.
 */
import type { Db } from '../../core/db/db.ts';

export interface SigningKeyRow {
  kid: string;
  public_jwk: Record<string, unknown>;
  private_jwk_enc: string;
  created_at: Date;
  activates_at: Date;
  verify_until: Date | null;
}

export async function lockSigningKeys(tx: Db): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext('platform:signing-keys:' || current_schema()))`);
}

/** Keys still verifying at `now`, oldest activation first. */
export async function liveSigningKeys(db: Db, now: Date): Promise<SigningKeyRow[]> {
  const { rows } = await db.query<SigningKeyRow>(
    `select kid, public_jwk, private_jwk_enc, created_at, activates_at, verify_until
     from signing_keys where verify_until is null or verify_until > $1 order by activates_at, kid`, [now]);
  return rows;
}

export async function insertSigningKey(tx: Db, row: SigningKeyRow): Promise<void> {
  await tx.query(
    `insert into signing_keys (kid, public_jwk, private_jwk_enc, created_at, activates_at, verify_until)
     values ($1, $2, $3, $4, $5, $6)`,
    [row.kid, JSON.stringify(row.public_jwk), row.private_jwk_enc, row.created_at, row.activates_at, row.verify_until]);
}

/** Every key that verifies forever (no newer key yet) is given its end. */
export async function endVerification(tx: Db, kids: string[], until: Date): Promise<void> {
  if (kids.length === 0) return;
  await tx.query('update signing_keys set verify_until = $2 where kid = any($1) and verify_until is null', [kids, until]);
}

/** Drops keys nobody can use any more (every token they signed has expired). */
export async function deleteDeadSigningKeys(tx: Db, now: Date): Promise<void> {
  await tx.query('delete from signing_keys where verify_until is not null and verify_until <= $1', [now]);
}
