/**
 * @module apps/tokens/claims
 * What each token kind says, and how it maps to JWT claims. Registered claims carry what they are
 * made for (`sub` the subject, `aud` the kind); our own claims are short (`app`, `ws`, `blk`, …)
 * because install tokens travel in every delivery.
 */
import type { JWTPayload } from 'jose';
import type { TokenKind } from './kinds.ts';

export interface InstallClaims {
  installId: string;
  appId: string;
  workspaceId: string;
  /** A replay's token (claim `ro`): reads work, every `/v0` write is refused (`PlatformReplayReadOnlyError`). */
  readOnly?: boolean;
}

/** Exactly one of `blockId` and `invocationId` is set: the token is bound to that one thing. */
export interface InteractionClaims extends InstallClaims {
  blockId: string | null;
  invocationId: string | null;
}

export interface DeployClaims {
  appId: string;
  previewOnly: boolean;
  /** The CI identity the token was exchanged for (for logs). */
  identityId: string | null;
}

export interface AgentClaims {
  memberId: string;
  workspaceId: string;
}

export interface ClaimsOf {
  install: InstallClaims;
  interaction: InteractionClaims;
  deploy: DeployClaims;
  agent: AgentClaims;
}

export type VerifiedToken = { [K in TokenKind]: { kind: K; claims: ClaimsOf[K]; expiresAt: number } }[TokenKind];

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;
const strOrNull = (v: unknown) => (str(v) ? v : null);
// Only a read-only token carries the claim, so every other token stays as it was.
const readOnlyClaim = (c: InstallClaims) => (c.readOnly === true ? { ro: true } : {});
const readOnlyOf = (p: JWTPayload) => (p.ro === true ? { readOnly: true } : {});

export function toPayload<K extends TokenKind>(kind: K, claims: ClaimsOf[K]): JWTPayload {
  switch (kind) {
    case 'install': {
      const c = claims as InstallClaims;
      return { sub: c.installId, app: c.appId, ws: c.workspaceId, ...readOnlyClaim(c) };
    }
    case 'interaction': {
      const c = claims as InteractionClaims;
      if ((c.blockId === null) === (c.invocationId === null)) throw new Error('An interaction token is bound to exactly one block or one invocation');
      return { sub: c.installId, app: c.appId, ws: c.workspaceId, ...(c.blockId === null ? { inv: c.invocationId } : { blk: c.blockId }), ...readOnlyClaim(c) };
    }
    case 'deploy': {
      const c = claims as DeployClaims;
      return { sub: c.appId, prv: c.previewOnly, ...(c.identityId === null ? {} : { cii: c.identityId }) };
    }
    default: {
      const c = claims as AgentClaims;
      return { sub: c.memberId, ws: c.workspaceId };
    }
  }
}

/** The claims of a verified payload, or null when they do not have the kind's shape. */
export function fromPayload(kind: TokenKind, p: JWTPayload): ClaimsOf[TokenKind] | null {
  switch (kind) {
    case 'install':
      return str(p.sub) && str(p.app) && str(p.ws) ? { installId: p.sub, appId: p.app, workspaceId: p.ws, ...readOnlyOf(p) } : null;
    case 'interaction': {
      if (!(str(p.sub) && str(p.app) && str(p.ws))) return null;
      const blockId = strOrNull(p.blk);
      const invocationId = strOrNull(p.inv);
      if ((blockId === null) === (invocationId === null)) return null;
      return { installId: p.sub, appId: p.app, workspaceId: p.ws, blockId, invocationId, ...readOnlyOf(p) };
    }
    case 'deploy':
      return str(p.sub) && typeof p.prv === 'boolean' ? { appId: p.sub, previewOnly: p.prv, identityId: strOrNull(p.cii) } : null;
    case 'agent':
      return str(p.sub) && str(p.ws) ? { memberId: p.sub, workspaceId: p.ws } : null;
  }
}
