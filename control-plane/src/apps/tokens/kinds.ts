/**
 * @module apps/tokens/kinds
 * The tokens the service issues, one row each: the prefix put before the JWT, the lifetime and the
 * audience claim. The audience differs per kind, so a token of one kind never verifies as another
 * even when someone swaps its prefix.
 */
import { LIMITS } from '@platform/sdk';

export const TOKEN_KINDS = {
  /** Spec: `platapp_`, one hour. */
  install: { prefix: 'platapp_', ttlMs: LIMITS.tokens.installTokenSeconds * 1000, audience: 'platform:install' },
  /** Spec: `platint_`, 15 minutes, one block or one invocation. */
  interaction: { prefix: 'platint_', ttlMs: LIMITS.tokens.interactionTokenSeconds * 1000, audience: 'platform:interaction' },
  /** Spec: `platdep_`, 15 minutes, one app. */
  deploy: { prefix: 'platdep_', ttlMs: LIMITS.tokens.deployTokenSeconds * 1000, audience: 'platform:deploy' },
  /** Ours: `platagt_`, one agent turn; 15 minutes like the other short-lived tooling token. */
  agent: { prefix: 'platagt_', ttlMs: 15 * 60_000, audience: 'platform:agent' },
} as const;

export type TokenKind = keyof typeof TOKEN_KINDS;

/** Ours: per-call tokens for MCP servers with `auth: platform` (audience = the MCP URL). */
export const MCP_CALL_TOKEN_TTL_MS = 5 * 60_000;

/** The longest lifetime of any token: a retired key verifies this long after it stops signing. */
export const MAX_TOKEN_TTL_MS = Math.max(MCP_CALL_TOKEN_TTL_MS, ...Object.values(TOKEN_KINDS).map((k) => k.ttlMs));

/** The kind whose prefix `token` carries, or null. */
export function kindOfToken(token: string): TokenKind | null {
  for (const [kind, info] of Object.entries(TOKEN_KINDS)) if (token.startsWith(info.prefix)) return kind as TokenKind;
  return null;
}
