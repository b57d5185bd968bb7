/**
 * @module apps/credentials/verified-tokens
 * Install and interaction tokens already verified by this process, kept until they expire, so an
 * app's many `/v0` calls with one token (a handler's storage calls, each of a hosted app's egress
 * calls) pay the ES256 signature check once instead of on every call (docs/decisions/storage.md,
 * "Throughput").
 *
 * What is kept is only what the signature proves, which cannot change for a given token: its kind,
 * claims and expiry. Everything that can change is still checked on every call by the resolver:
 * the install row (uninstalled, suspended, scopes approved since) and the expiry against the
 * clock. Key rotation cannot strand an entry: a key verifies until every token it signed has
 * expired (apps/tokens/keyring.ts), and an entry lives no longer than its token. Only tokens whose
 * signature verified are kept, so forged tokens cannot fill the map; it is bounded anyway, oldest
 * entries leaving first.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { VerifiedToken } from '../tokens/claims.ts';
import type { TokenService } from '../tokens/service.ts';

const MAX_ENTRIES = 10_000;
const CACHED_KINDS = new Set<VerifiedToken['kind']>(['install', 'interaction']);

export interface VerifiedTokens {
  /** `tokens.verify(token)`, answered from memory while an earlier answer for the same token holds. */
  verify(token: string): Promise<VerifiedToken>;
}

/**
 * @example
 * const verified = createVerifiedTokens({ tokens, clock });
 * await verified.verify('platapp_eyJ…'); // verified once, then from memory until it expires
 */
export function createVerifiedTokens(deps: { tokens: TokenService; clock: Clock; maxEntries?: number }): VerifiedTokens {
  const max = deps.maxEntries ?? MAX_ENTRIES;
  const entries = new Map<string, VerifiedToken>();

  return {
    async verify(token) {
      const kept = entries.get(token);
      // Expired (as jose decides: `exp` is no longer in the future): verified again, which answers "expired".
      if (kept !== undefined && deps.clock.now() < kept.expiresAt) return kept;
      entries.delete(token);
      const verified = await deps.tokens.verify(token);
      if (CACHED_KINDS.has(verified.kind)) {
        if (entries.size >= max) entries.delete(entries.keys().next().value!);
        entries.set(token, verified);
      }
      return verified;
    },
  };
}
