/**
 * @module apps/ci-identities/oidc
 * Verifies a CI's OIDC identity token against its issuer: the issuer's discovery document
 * (`{issuer}/.well-known/openid-configuration`, whose `issuer` must equal the token's) names the
 * JWKS; keys come from jose's remote key set (cached, refetched when a token names an unknown
 * key). Discovery is cached per issuer for `discoveryTtlMs` of the injected clock.
 *
 * Only issuers an app owner configured are ever fetched (the caller looks the issuer up first),
 * over `https://` (plain `http://` only when config allows it, in tests), with a timeout and a
 * size cap on the document.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../../core/clock/clock.ts';
import { readWithin } from '../../core/http/read-json.ts';

// Asymmetric algorithms only: a symmetric one would let anyone holding the "key" (the JWKS is public) sign.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const MAX_DISCOVERY_BYTES = 64 * 1024;
// CI runners' clocks drift a little; the tokens live minutes.
const CLOCK_TOLERANCE_S = 30;

export class OidcRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OidcRejected';
  }
}

export interface OidcVerifier {
  /** The verified payload of `token` from `issuer`, with an audience among `audiences`; throws `OidcRejected`. */
  verify(token: string, issuer: string, audiences: string[]): Promise<JWTPayload>;
}

export interface OidcVerifierDeps {
  clock: Clock;
  allowHttp: boolean;
  discoveryTtlMs?: number;
  timeoutMs?: number;
}

/** `https:` (or `http:` when allowed) without credentials, query or fragment. */
export function isAcceptableIssuerUrl(value: string, allowHttp: boolean): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const scheme = url.protocol === 'https:' || (allowHttp && url.protocol === 'http:');
  return scheme && url.username === '' && url.password === '' && url.search === '' && url.hash === '';
}

/**
 * @example
 * const oidc = createOidcVerifier({ clock, allowHttp: false });
 * const claims = await oidc.verify(token, 'https://token.actions.githubusercontent.com', ['https://github.com/acme']);
 */
export function createOidcVerifier(deps: OidcVerifierDeps): OidcVerifier {
  const ttl = deps.discoveryTtlMs ?? 3_600_000;
  const timeoutMs = deps.timeoutMs ?? 5_000;
  const issuers = new Map<string, { keys: ReturnType<typeof createRemoteJWKSet>; fetchedAt: number }>();

  const discover = async (issuer: string) => {
    const cached = issuers.get(issuer);
    if (cached !== undefined && deps.clock.now() - cached.fetchedAt < ttl) return cached.keys;
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    let doc: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error', headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`status ${res.status}`);
      doc = JSON.parse(Buffer.from(await readWithin(res.body, MAX_DISCOVERY_BYTES)).toString('utf8')) as typeof doc;
    } catch (err) {
      throw new OidcRejected(`The issuer's discovery document could not be read (${(err as Error).message})`);
    }
    if (doc.issuer !== issuer) throw new OidcRejected('The discovery document names another issuer');
    if (typeof doc.jwks_uri !== 'string' || !isAcceptableIssuerUrl(doc.jwks_uri, deps.allowHttp)) {
      throw new OidcRejected('The discovery document has no usable jwks_uri');
    }
    const keys = createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: timeoutMs });
    issuers.set(issuer, { keys, fetchedAt: deps.clock.now() });
    return keys;
  };

  return {
    async verify(token, issuer, audiences) {
      if (!isAcceptableIssuerUrl(issuer, deps.allowHttp)) throw new OidcRejected('The issuer is not an https URL');
      const keys = await discover(issuer);
      try {
        const { payload } = await jwtVerify(token, keys, {
          issuer,
          audience: audiences,
          algorithms: ALGORITHMS,
          currentDate: new Date(deps.clock.now()),
          clockTolerance: CLOCK_TOLERANCE_S,
          requiredClaims: ['exp', 'sub', 'aud', 'iss'],
        });
        return payload;
      } catch (err) {
        throw new OidcRejected(`The identity token did not verify (${(err as { code?: string }).code ?? 'error'})`);
      }
    },
  };
}
