/**
 * @module workspace/api-keys/store
 * SQL of member API keys. Keys are looked up by their sha256; revoked keys stay listed.
 */
import type { Db } from '../../core/db/db.ts';
import type { Role } from '../../core/auth/actor.ts';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  member_id: string;
  name: string;
  hint: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface KeyOwnerRow {
  key_id: string;
  last_used_at: Date | null;
  member_id: string;
  workspace_id: string;
  name: string;
  role: Role;
}

const COLUMNS = 'id, workspace_id, member_id, name, hint, created_at, last_used_at, revoked_at';

export async function insertApiKey(db: Db, row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'> & { key_hash: string }): Promise<void> {
  await db.query(
    'insert into api_keys (id, workspace_id, member_id, name, key_hash, hint, created_at) values ($1, $2, $3, $4, $5, $6, $7)',
    [row.id, row.workspace_id, row.member_id, row.name, row.key_hash, row.hint, row.created_at]);
}

export async function findActiveKeyOwner(db: Db, keyHash: string): Promise<KeyOwnerRow | undefined> {
  const { rows } = await db.query<KeyOwnerRow>(
    `select k.id as key_id, k.last_used_at, m.id as member_id, m.workspace_id, m.name, m.role
     from api_keys k join members m on m.id = k.member_id
     where k.key_hash = $1 and k.revoked_at is null`, [keyHash]);
  return rows[0];
}

export async function touchApiKey(db: Db, keyId: string, at: Date): Promise<void> {
  await db.query('update api_keys set last_used_at = $2 where id = $1', [keyId, at]);
}

export async function listApiKeys(db: Db, memberId: string): Promise<ApiKeyRow[]> {
  const { rows } = await db.query<ApiKeyRow>(`select ${COLUMNS} from api_keys where member_id = $1 order by created_at, id`, [memberId]);
  return rows;
}

/** Revokes one of the member's keys; false when the member has no such key (or it was revoked). */
export async function revokeApiKey(db: Db, memberId: string, keyId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('update api_keys set revoked_at = $3 where member_id = $1 and id = $2 and revoked_at is null', [memberId, keyId, at]);
  return rowCount > 0;
}
