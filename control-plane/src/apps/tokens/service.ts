/**
 * @module apps/tokens/service
 * Minting and verifying the service's tokens: `<prefix><JWT>`, signed by the key ring: ES256, or
 * HS256 with the key's HMAC secret for the kinds only this service verifies (interaction tokens,
 * apps/tokens/kinds.ts). Verification checks, in order: the prefix names a kind, the header names
 * an algorithm the kind accepts and a live key, the
 * signature, the issuer and the kind's audience, expiry (against the injected clock), then the
 * claims' shape. Only a token whose signature verified can be "expired"; everything else is
 * "invalid", so a forged token learns nothing.
 *
 * Minting writes the compact JWS itself with `node:crypto` (apps/tokens/jws.ts): a token is minted for
 * every click and jose's WebCrypto path costs several times as much CPU. The result is an ordinary
 * JWT, verified with jose like any other.
 */
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type CryptoKey } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { Clock } from '../../core/clock/clock.ts';
import { pooledRandomBytes } from '../../core/ids/random-pool.ts';
import { fromPayload, toPayload, type ClaimsOf, type VerifiedToken } from './claims.ts';
import { encodedHeader, signEs256Encoded, signHs256Encoded } from './jws.ts';
import { ALG, type KeyRing, type PublicJwk } from './keyring.ts';
import { kindOfToken, MCP_CALL_TOKEN_TTL_MS, TOKEN_KINDS, type SigningAlg, type TokenKind } from './kinds.ts';

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
  // The headers of the current key, encoded once per key and algorithm (the ring rotates rarely).
  const headers = { kid: '', ES256: '', HS256: '' };
  const headerOf = (kid: string, alg: SigningAlg) => {
    if (headers.kid !== kid) Object.assign(headers, { kid, ES256: encodedHeader({ alg: ALG, kid, typ: 'JWT' }), HS256: encodedHeader({ alg: 'HS256', kid, typ: 'JWT' }) });
    return headers[alg];
  };
  const sign = async (payload: Record<string, unknown>, audience: string, ttlMs: number, alg: SigningAlg): Promise<MintedToken> => {
    const { kid, key, hmac } = await deps.ring.signingKey();
    const now = deps.clock.now();
    const iat = Math.floor(now / 1000);
    const exp = Math.floor((now + ttlMs) / 1000);
    const claims = { ...payload, iss: deps.issuer, aud: audience, iat, exp, jti: pooledRandomBytes(12).toString('base64url') };
    const token = alg === 'HS256' ? signHs256Encoded(headerOf(kid, alg), claims, hmac) : signEs256Encoded(headerOf(kid, alg), claims, key);
    return { token, expiresAt: exp * 1000 };
  };
  const keyFor = (alg: SigningAlg, kid: string): Promise<CryptoKey | KeyObject | null> => (alg === 'HS256' ? deps.ring.hmacKey(kid) : deps.ring.verificationKey(kid));

  return {
    async mint(kind, claims) {
      const info = TOKEN_KINDS[kind];
      const minted = await sign(toPayload(kind, claims), info.audience, info.ttlMs, info.alg);
      return { ...minted, token: info.prefix + minted.token };
    },

    async verify(token) {
      const kind = kindOfToken(token);
      if (kind === null) throw new TokenRejected('invalid', null, 'unknown prefix');
      const jwt = token.slice(TOKEN_KINDS[kind].prefix.length);
      let kid: unknown;
      let alg: SigningAlg;
      try {
        const header = decodeProtectedHeader(jwt);
        // Only the algorithms the kind is signed with: an ES256 kind never takes an HMAC, so a
        // public key can never be tried as a secret.
        if (!(TOKEN_KINDS[kind].accepts as readonly unknown[]).includes(header.alg)) throw new Error('alg');
        alg = header.alg as SigningAlg;
        kid = header.kid;
      } catch {
        throw new TokenRejected('invalid', kind, 'malformed');
      }
      const key = typeof kid === 'string' ? await keyFor(alg, kid) : null;
      if (key === null) throw new TokenRejected('invalid', kind, 'unknown key');
      let payload;
      try {
        ({ payload } = await jwtVerify(jwt, key, {
          algorithms: [alg],
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
      return sign(payload, claims.mcpUrl, MCP_CALL_TOKEN_TTL_MS, ALG);
    },

    async jwks() {
      return { keys: await deps.ring.publicKeys() };
    },
  };
}
