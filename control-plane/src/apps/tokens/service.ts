/**
 * @module apps/tokens/service
 * Minting and verifying the service's tokens: `<prefix><JWT>`, ES256, signed by the key ring.
 * Verification checks, in order: the prefix names a kind, the header names a live key, the
 * signature, the issuer and the kind's audience, expiry (against the injected clock), then the
 * claims' shape. Only a token whose signature verified can be "expired"; everything else is
 * "invalid", so a forged token learns nothing.
 *
 * Minting writes the compact JWS itself with `node:crypto` (apps/tokens/jws.ts): a token is minted for
 * every click and jose's WebCrypto path costs several times as much CPU. The result is an ordinary
 * JWT, verified with jose like any other.
 */
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock/clock.ts';
import { fromPayload, toPayload, type ClaimsOf, type VerifiedToken } from './claims.ts';
import { encodedHeader, signEs256Encoded } from './jws.ts';
import { ALG, type KeyRing, type PublicJwk } from './keyring.ts';
import { kindOfToken, MCP_CALL_TOKEN_TTL_MS, TOKEN_KINDS, type TokenKind } from './kinds.ts';

export interface MintedToken {
  token: string;
  /** Epoch milliseconds (a whole second: JWT times are seconds). */
  expiresAt: number;
}

/** Why a token was refused; `kind` is set when the prefix named one. */
export class TokenRejected extends Error {
  readonly reason: 'invalid' | 'expired';
  readonly kind: TokenKind | null;
  constructor(reason: 'invalid' | 'expired', kind: TokenKind | null, detail: string) {
    super(detail);
    this.name = 'TokenRejected';
    this.reason = reason;
    this.kind = kind;
  }
}

export interface McpCallClaims {
  /** The MCP server's URL, the token's audience. */
  mcpUrl: string;
  installId: string;
  appId: string;
  workspaceId: string;
  /** The member on whose behalf the call runs, when there is one. */
  memberId?: string;
}

export interface TokenService {
  mint<K extends TokenKind>(kind: K, claims: ClaimsOf[K]): Promise<MintedToken>;
  /** The verified kind and claims; throws `TokenRejected`. */
  verify(token: string): Promise<VerifiedToken>;
  /** A per-call token for an MCP server with `auth: platform` (plain JWT, verified with the JWKS). */
  mintMcpCallToken(claims: McpCallClaims): Promise<MintedToken>;
  jwks(): Promise<{ keys: PublicJwk[] }>;
}

/**
 * @example
 * const tokens = createTokensService({ ring, clock, issuer: config.publicUrl });
 * const { token } = await tokens.mint('install', { installId, appId, workspaceId }); // 'platapp_eyJ…'
 * const verified = await tokens.verify(token); // { kind: 'install', claims: {…}, expiresAt }
 */
export function createTokensService(deps: { ring: KeyRing; clock: Clock; issuer: string }): TokenService {
  // The header of the current key, encoded once per key (the ring rotates rarely).
  let header = { kid: '', encoded: '' };
  const headerOf = (kid: string) => {
    if (header.kid !== kid) header = { kid, encoded: encodedHeader({ alg: ALG, kid, typ: 'JWT' }) };
    return header.encoded;
  };
  const sign = async (payload: Record<string, unknown>, audience: string, ttlMs: number): Promise<MintedToken> => {
    const { kid, key } = await deps.ring.signingKey();
    const now = deps.clock.now();
    const iat = Math.floor(now / 1000);
    const exp = Math.floor((now + ttlMs) / 1000);
    const token = signEs256Encoded(headerOf(kid), { ...payload, iss: deps.issuer, aud: audience, iat, exp, jti: randomBytes(12).toString('base64url') }, key);
    return { token, expiresAt: exp * 1000 };
  };

  return {
    async mint(kind, claims) {
      const info = TOKEN_KINDS[kind];
      const minted = await sign(toPayload(kind, claims), info.audience, info.ttlMs);
      return { ...minted, token: info.prefix + minted.token };
    },

    async verify(token) {
      const kind = kindOfToken(token);
      if (kind === null) throw new TokenRejected('invalid', null, 'unknown prefix');
      const jwt = token.slice(TOKEN_KINDS[kind].prefix.length);
      let kid: unknown;
      try {
        const header = decodeProtectedHeader(jwt);
        if (header.alg !== ALG) throw new Error('alg');
        kid = header.kid;
      } catch {
        throw new TokenRejected('invalid', kind, 'malformed');
      }
      const key = typeof kid === 'string' ? await deps.ring.verificationKey(kid) : null;
      if (key === null) throw new TokenRejected('invalid', kind, 'unknown key');
      let payload;
      try {
        ({ payload } = await jwtVerify(jwt, key, {
          algorithms: [ALG],
          issuer: deps.issuer,
          audience: TOKEN_KINDS[kind].audience,
          currentDate: new Date(deps.clock.now()),
          requiredClaims: ['exp', 'iat', 'sub'],
        }));
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw new TokenRejected('expired', kind, 'expired');
        throw new TokenRejected('invalid', kind, err instanceof joseErrors.JOSEError ? err.code : 'unverifiable');
      }
      const claims = fromPayload(kind, payload);
      if (claims === null) throw new TokenRejected('invalid', kind, 'claims');
      return { kind, claims, expiresAt: payload.exp! * 1000 } as VerifiedToken;
    },

    mintMcpCallToken(claims) {
      const payload = { sub: claims.installId, app: claims.appId, ws: claims.workspaceId, ...(claims.memberId === undefined ? {} : { mem: claims.memberId }) };
      return sign(payload, claims.mcpUrl, MCP_CALL_TOKEN_TTL_MS);
    },

    async jwks() {
      return { keys: await deps.ring.publicKeys() };
    },
  };
}
