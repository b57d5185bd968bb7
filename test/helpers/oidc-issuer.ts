/**
 * `startOidcIssuer()`: a real OpenID Connect issuer on loopback, as CI systems run one (GitHub
 * Actions, GitLab): it serves its discovery document and JWKS over node:http and signs identity
 * tokens (RS256, jose) the way a CI would hand them to a job.
 *
 *   const issuer = await startOidcIssuer();
 *   const token = await issuer.sign({ sub: 'repo:acme/app:ref:refs/heads/main', aud: 'platform' });
 *   await issuer.stop();
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OidcIssuer {
  /** The issuer URL (`iss`), e.g. `http://127.0.0.1:41234`. */
  issuer: string;
  /** Requests the server answered, by path (discovery and JWKS fetches are cached by the verifier). */
  hits: Map<string, number>;
  /**
   * Signs an identity token. `iat` defaults to `now` (seconds, default the real clock),
   * `exp` to `iat + expiresIn` (default 300 s); `iss` to this issuer.
   */
  sign(claims: { sub: string; aud: string | string[]; iss?: string; iat?: number; exp?: number; expiresIn?: number; now?: number } & Record<string, unknown>, options?: { key?: 'current' | 'foreign' }): Promise<string>;
  stop(): Promise<void>;
}

export async function startOidcIssuer(): Promise<OidcIssuer> {
  const kid = 'ci-key-1';
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  // A key this issuer never publishes, under the same kid: a token signed with it has a wrong signature.
  const foreign = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const hits = new Map<string, number>();
  let issuer = '';

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && path === '/.well-known/openid-configuration') {
      return json(200, { issuer, jwks_uri: `${issuer}/.well-known/jwks`, id_token_signing_alg_values_supported: ['RS256'], subject_types_supported: ['public'] });
    }
    if (req.method === 'GET' && path === '/.well-known/jwks') return json(200, { keys: [jwk] });
    return json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    hits,
    async sign(claims, options = {}) {
      const { iss, iat, exp, expiresIn, now, ...rest } = claims;
      const issuedAt = iat ?? Math.floor((now ?? Date.now()) / 1000);
      const key: CryptoKey = options.key === 'foreign' ? foreign.privateKey : privateKey;
      return new SignJWT(rest)
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuer(iss ?? issuer)
        .setIssuedAt(issuedAt)
        .setExpirationTime(exp ?? issuedAt + (expiresIn ?? 300))
        .sign(key);
    },
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
