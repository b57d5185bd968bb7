/**
 * @module apps/tokens/kinds
 * The tokens the service issues, one row each: the prefix put before the JWT, the lifetime and the
 * audience claim. The audience differs per kind, so a token of one kind never verifies as another
 * even when someone swaps its prefix.
 *
 * `alg` is how a kind is signed: ES256 (the key ring's private key; anyone with the JWKS could
 * verify) or HS256 (the key's HMAC secret, apps/tokens/keyring.ts) for a kind only this service
 * verifies. The spec fixes the prefix and the lifetime, not the signature. Interaction tokens are
 * minted on every click, and an HMAC costs a few µs where the ECDSA signature cost ≈ 100 µs
 * (docs/decisions/clicks.md); `accepts` keeps ES256 interaction tokens minted before the change
 * verifying for their 15 minutes.
 */
import { LIMITS } from '@platform/sdk';

export const TOKEN_KINDS = {
  /** Spec: `platapp_`, one hour. */
  install: { prefix: 'platapp_', ttlMs: LIMITS.tokens.installTokenSeconds * 1000, audience: 'platform:install', alg: 'ES256', accepts: ['ES256'] },
  /** Spec: `platint_`, 15 minutes, one block or one invocation. */
  interaction: { prefix: 'platint_', ttlMs: LIMITS.tokens.interactionTokenSeconds * 1000, audience: 'platform:interaction', alg: 'HS256', accepts: ['HS256', 'ES256'] },
  /** Spec: `platdep_`, 15 minutes, one app. */
  deploy: { prefix: 'platdep_', ttlMs: LIMITS.tokens.deployTokenSeconds * 1000, audience: 'platform:deploy', alg: 'ES256', accepts: ['ES256'] },
  /** Ours: `platagt_`, one agent turn; 15 minutes like the other short-lived tooling token. */
  agent: { prefix: 'platagt_', ttlMs: 15 * 60_000, audience: 'platform:agent', alg: 'ES256', accepts: ['ES256'] },
} as const;

export type TokenKind = keyof typeof TOKEN_KINDS;

/** How a token is signed: the key ring's ECDSA key, or its HMAC secret. */
export type SigningAlg = 'ES256' | 'HS256';

/** Ours: per-call tokens for MCP servers with `auth: platform` (audience = the MCP URL). */
export const MCP_CALL_TOKEN_TTL_MS = 5 * 60_000;

/** The longest lifetime of any token: a retired key verifies this long after it stops signing. */
export const MAX_TOKEN_TTL_MS = Math.max(MCP_CALL_TOKEN_TTL_MS, ...Object.values(TOKEN_KINDS).map((k) => k.ttlMs));

/** The kind whose prefix `token` carries, or null. */
export function kindOfToken(token: string): TokenKind | null {
  for (const [kind, info] of Object.entries(TOKEN_KINDS)) if (token.startsWith(info.prefix)) return kind as TokenKind;
  return null;
}
