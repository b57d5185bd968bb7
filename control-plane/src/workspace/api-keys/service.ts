/**
 * @module workspace/api-keys/service
 * Issuing, listing, revoking and checking member API keys.
 */
import { PlatformError } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import { generateApiKey, hashApiKey, looksLikeApiKey } from '../../core/crypto/api-keys.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { iso, isoOrNull } from '../../core/http/common.ts';
import type { ApiKeyCache } from './cache.ts';
import type { ApiKeyInfo } from './schemas.ts';
import { findActiveKeyOwner, insertApiKey, listApiKeys, revokeApiKey, touchApiKey, type ApiKeyRow } from './store.ts';

// last_used_at is a hint for people, not an audit log: written at most once a minute per key.
const TOUCH_EVERY_MS = 60_000;

const view = (row: ApiKeyRow): ApiKeyInfo => ({
  id: row.id,
  name: row.name,
  hint: row.hint,
  createdAt: iso(row.created_at),
  lastUsedAt: isoOrNull(row.last_used_at),
  revokedAt: isoOrNull(row.revoked_at),
});

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

/**
 * `cache`: who is behind active keys, kept in memory and dropped on revocation in every replica
 * (workspace/api-keys/cache.ts); without it every request reads the key.
 */
export function createApiKeysService(deps: { db: Db; clock: Clock; cache?: ApiKeyCache }) {
  const ownerOf = (hash: string) => {
    const load = () => findActiveKeyOwner(deps.db, hash);
    return deps.cache === undefined ? load() : deps.cache.get(hash, load);
  };
  return {
    /** Creates a key for a member; `db` may be a transaction the caller is in. */
    async issue(member: { id: string; workspaceId: string }, name: string, db: Db = deps.db): Promise<{ key: ApiKeyInfo; apiKey: string }> {
      const fresh = generateApiKey();
      const row = { id: newId('apiKey'), workspace_id: member.workspaceId, member_id: member.id, name, hint: fresh.hint, created_at: new Date(deps.clock.now()) };
      await insertApiKey(db, { ...row, key_hash: fresh.hash });
      return { key: view({ ...row, last_used_at: null, revoked_at: null }), apiKey: fresh.key };
    },

    async list(actor: Actor): Promise<ApiKeyInfo[]> {
      return (await listApiKeys(deps.db, actor.memberId)).map(view);
    },

    async revoke(actor: Actor, keyId: string): Promise<void> {
      if (!(await revokeApiKey(deps.db, actor.memberId, keyId, new Date(deps.clock.now())))) {
        throw new PlatformError('PlatformApiNotFoundError', 'You have no active API key with that id', { path: ['keyId'] });
      }
      // Answered only once every replica was told: the key stops working everywhere.
      await deps.cache?.revoked(keyId);
    },

    /** The member behind a key, or null when the key is unknown or revoked. */
    async authenticate(key: string): Promise<Actor | null> {
      if (!looksLikeApiKey(key)) return null;
      const owner = await ownerOf(hashApiKey(key));
      if (owner === undefined) return null;
      const now = deps.clock.now();
      if (owner.last_used_at === null || now - owner.last_used_at.getTime() >= TOUCH_EVERY_MS) {
        await touchApiKey(deps.db, owner.key_id, new Date(now));
        // The kept row too, so this replica touches it once a minute, not on every request.
        owner.last_used_at = new Date(now);
      }
      return { memberId: owner.member_id, workspaceId: owner.workspace_id, name: owner.name, role: owner.role, keyId: owner.key_id };
    },
  };
}
