/**
 * @module apps/tokens/keyring
 * The ES256 keys that sign tokens, and their rotation.
 *
 * Life of a key: it is created `PREPUBLISH_MS` before it starts signing, so it is already in the
 * JWKS when the JWKS caches of MCP servers (max-age 300 s) next refresh; from `activates_at` it
 * signs; when the next key activates it only verifies, until `verify_until` = the next key's
 * activation + the longest token lifetime, when every token it signed has expired. Rotation is
 * due `rotationMs` after a key activated and happens lazily, on the first use after that moment
 * (no timer: time comes from the injected clock).
 *
 * Replicas share the keys through the database; a new key is written under an advisory lock after
 * re-reading the rows, so replicas rotating at once agree on one key. Each replica caches the rows
 * and reloads them when rotation looks due, when another replica announces a new key (topic
 * `signing-keys` of `core/invalidation`: every replica's JWKS lists it at once, whatever its clock
 * says), or when a token names a key it has not seen (at most once per `RELOAD_COOLDOWN_MS`, so
 * forged key ids cannot drive database load).
 *
 * Each key also yields an HMAC secret (`hmacKey`), derived from its private scalar with HKDF, for
 * the tokens only this service verifies (interaction tokens, apps/tokens/kinds.ts): every replica
 * can open the sealed private key, so the secret is shared, rotates with the key and is never
 * stored or published; the JWKS lists only the public half, from which it cannot be computed.
 */
import { createPrivateKey, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Clock } from '../../core/clock/clock.ts';
import type { Secrets } from '../../core/crypto/secrets.ts';
import type { Db } from '../../core/db/db.ts';
import type { Invalidation } from '../../core/invalidation/invalidation.ts';
import type { Logger } from '../../core/log/logger.ts';
import { MAX_TOKEN_TTL_MS } from './kinds.ts';
import { deleteDeadSigningKeys, endVerification, insertSigningKey, liveSigningKeys, lockSigningKeys, type SigningKeyRow } from './store.ts';

/** Equal to the JWKS `max-age`: a cache fetched just before creation still sees the key before it signs. */
export const PREPUBLISH_MS = 300_000;
const RELOAD_COOLDOWN_MS = 10_000;
/** The invalidation topic a replica announces a key it created on (the key is its kid). */
export const SIGNING_KEYS_TOPIC = 'signing-keys';

export const ALG = 'ES256';

export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  alg: 'ES256';
  use: 'sig';
  kid: string;
  x: string;
  y: string;
}

interface LoadedKey {
  kid: string;
  publicJwk: PublicJwk;
  activatesAt: number;
  verifyUntil: number | null;
  sealedPrivate: string;
  publicKey?: Promise<CryptoKey>;
  privateKey?: KeyObject;
  hmacKey?: KeyObject;
}

export interface KeyRing {
  /**
   * The key that signs now (rotating first when due), as a `node:crypto` key: tokens are signed
   * with `node:crypto` (apps/tokens/service.ts), verified with jose.
   */
  signingKey(): Promise<{ kid: string; key: KeyObject; hmac: KeyObject }>;
  /** The public key for `kid` if it still verifies, else null. */
  verificationKey(kid: string): Promise<CryptoKey | null>;
  /** The HMAC secret of `kid` (HS256, tokens only this service verifies) if the key still verifies, else null. */
  hmacKey(kid: string): Promise<KeyObject | null>;
  /** Every key that signs, will sign or still verifies. */
  publicKeys(): Promise<PublicJwk[]>;
}

export interface KeyRingDeps {
  db: Db;
  clock: Clock;
  secrets: Secrets;
  logger?: Logger;
  /** How long a key signs before the next one takes over. */
  rotationMs: number;
  /** Tells the other replicas of a key created here, and this ring of theirs. */
  invalidation?: Invalidation;
}

const sealContext = (kid: string) => `signing-key:${kid}`;
/** HKDF's info for a key's HMAC secret: a new purpose of the same key takes another label. */
const HMAC_INFO = 'platform token hs256';

/** The private JWK of `key`, opened once; its `node:crypto` key and HMAC secret come from it. */
function openKey(secrets: Secrets, key: LoadedKey): { privateKey: KeyObject; hmacKey: KeyObject } {
  if (key.privateKey === undefined || key.hmacKey === undefined) {
    const jwk = JSON.parse(secrets.open(key.sealedPrivate, sealContext(key.kid))) as JWK & { kty: string; d: string };
    key.privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
    key.hmacKey = createSecretKey(Buffer.from(hkdfSync('sha256', Buffer.from(jwk.d, 'base64url'), key.kid, HMAC_INFO, 32)));
  }
  return { privateKey: key.privateKey, hmacKey: key.hmacKey };
}

/**
 * @example
 * const ring = createKeyRing({ db, clock, secrets, rotationMs: 30 * 24 * 3600_000 });
 * const { kid, key } = await ring.signingKey();
 */
export function createKeyRing(deps: KeyRingDeps): KeyRing {
  let keys: LoadedKey[] = [];
  let loaded = false;
  let lastReload = -Infinity;
  let inFlight: Promise<void> | undefined;
  // Another replica created a key: read the rows again before the next use.
  let stale = false;
  let listening: Promise<unknown> | undefined;
  const listen = () => (listening ??= deps.invalidation?.onInvalidate(SIGNING_KEYS_TOPIC, () => {
    stale = true;
  }).catch((err: unknown) => deps.logger?.warn({ err }, 'signing keys: no subscription to other replicas\' keys; they are seen when rotation is due')));

  const now = () => deps.clock.now();
  const live = (k: LoadedKey, t: number) => k.verifyUntil === null || k.verifyUntil > t;
  // Keys sorted by activation: the signing key is the last one already active.
  const current = (t: number) => keys.filter((k) => k.activatesAt <= t && live(k, t)).at(-1);
  const pending = (t: number) => keys.find((k) => k.activatesAt > t);
  const rotationDue = (t: number) => {
    if (!loaded) return true;
    const cur = current(t);
    if (cur === undefined) return pending(t) === undefined;
    return pending(t) === undefined && t >= cur.activatesAt + deps.rotationMs - PREPUBLISH_MS;
  };

  const toLoaded = (row: SigningKeyRow): LoadedKey => {
    const old = keys.find((k) => k.kid === row.kid);
    return {
      kid: row.kid,
      publicJwk: row.public_jwk as unknown as PublicJwk,
      activatesAt: row.activates_at.getTime(),
      verifyUntil: row.verify_until?.getTime() ?? null,
      sealedPrivate: row.private_jwk_enc,
      // Imported keys survive reloads.
      ...(old?.publicKey === undefined ? {} : { publicKey: old.publicKey }),
      ...(old?.privateKey === undefined ? {} : { privateKey: old.privateKey }),
      ...(old?.hmacKey === undefined ? {} : { hmacKey: old.hmacKey }),
    };
  };

  const newKeyRow = async (t: number, activatesAt: number): Promise<SigningKeyRow> => {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
    const pub = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(pub);
    const publicJwk: PublicJwk = { kty: 'EC', crv: 'P-256', alg: ALG, use: 'sig', kid, x: pub.x!, y: pub.y! };
    const priv = { ...(await exportJWK(privateKey)), alg: ALG, kid };
    return {
      kid,
      public_jwk: publicJwk as unknown as Record<string, unknown>,
      private_jwk_enc: deps.secrets.seal(JSON.stringify(priv), sealContext(kid)),
      created_at: new Date(t),
      activates_at: new Date(activatesAt),
      verify_until: null,
    };
  };

  /** Reads the rows, rotating under the lock first when rotation is due. */
  const sync = async (rotate: boolean): Promise<void> => {
    const t = now();
    let created: string | undefined;
    const rows = await deps.db.transaction(async (tx) => {
      if (rotate) {
        await lockSigningKeys(tx);
        await deleteDeadSigningKeys(tx, new Date(t));
        const existing = await liveSigningKeys(tx, new Date(t));
        keys = existing.map(toLoaded);
        loaded = true;
        if (rotationDue(t)) {
          const first = existing.length === 0;
          // The very first key signs at once (nothing could have cached a JWKS yet).
          const activatesAt = first ? t : t + PREPUBLISH_MS;
          const row = await newKeyRow(t, activatesAt);
          await endVerification(tx, existing.filter((k) => k.verify_until === null).map((k) => k.kid), new Date(activatesAt + MAX_TOKEN_TTL_MS));
          await insertSigningKey(tx, row);
          created = row.kid;
          deps.logger?.info({ kid: row.kid, activatesAt: row.activates_at.toISOString() }, 'token signing key created');
        }
      }
      return liveSigningKeys(tx, new Date(t));
    });
    keys = rows.map(toLoaded);
    loaded = true;
    lastReload = t;
    if (created !== undefined) await deps.invalidation?.invalidate(SIGNING_KEYS_TOPIC, created);
  };

  const once = (rotate: boolean): Promise<void> => {
    inFlight ??= sync(rotate).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  const fresh = async (): Promise<void> => {
    await listen();
    if (inFlight !== undefined) await inFlight;
    if (stale) {
      stale = false;
      await once(false);
    }
    if (rotationDue(now())) await once(true);
  };

  /** The key `kid` if it still verifies, reloading the rows first when it is unknown (at most once per cooldown). */
  const liveKey = async (kid: string): Promise<LoadedKey | undefined> => {
    let key = keys.find((k) => k.kid === kid);
    if (key === undefined && now() - lastReload >= RELOAD_COOLDOWN_MS) {
      await once(false);
      key = keys.find((k) => k.kid === kid);
    }
    return key === undefined || !live(key, now()) ? undefined : key;
  };

  return {
    async signingKey() {
      await fresh();
      const key = current(now());
      if (key === undefined) throw new Error('No active signing key after rotation');
      const opened = openKey(deps.secrets, key);
      return { kid: key.kid, key: opened.privateKey, hmac: opened.hmacKey };
    },
    async verificationKey(kid) {
      const key = await liveKey(kid);
      if (key === undefined) return null;
      key.publicKey ??= importJWK(key.publicJwk as unknown as JWK, ALG) as Promise<CryptoKey>;
      return key.publicKey;
    },
    async hmacKey(kid) {
      const key = await liveKey(kid);
      return key === undefined ? null : openKey(deps.secrets, key).hmacKey;
    },
    async publicKeys() {
      await fresh();
      const t = now();
      return keys.filter((k) => live(k, t)).map((k) => ({ ...k.publicJwk }));
    },
  };
}
