/**
 * @module deliveries/outbound/signed-headers
 * The spec's delivery headers. During a signing-secret rotation a delivery carries one signature
 * per live secret, space-separated, so apps verify with either the old or the new secret.
 *
 * Signatures are the Standard Webhooks ones of `signDelivery` (sandbox-lib), byte for byte
 * (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`), computed with `node:crypto`: sandbox-lib
 * signs through WebCrypto because isolates have nothing else, and WebCrypto's key import and
 * promise per signature cost several times the HMAC itself, once per delivery sent.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { DELIVERY_HEADERS, parseSigningSecret, type DeliveryClass } from '@platform/sandbox-lib';

export interface SignedHeadersInput {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
  /** Every live signing secret (`whsec_…`), newest first. */
  secrets: readonly string[];
  deliveryClass: DeliveryClass;
  installId: string;
}

/** Keys of the secrets seen lately (an HMAC over a prepared key costs a third of one over raw bytes). */
const keys = new Map<string, KeyObject>();
const KEYS_MAX = 10_000;

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    const bytes = parseSigningSecret(secret);
    if (!bytes) throw new TypeError('The signing secret must be whsec_ followed by base64');
    key = createSecretKey(bytes);
    if (keys.size >= KEYS_MAX) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/**
 * The `webhook-signature` value of one secret, equal to `await signDelivery({ id, timestamp, body, secret })`.
 * Throws on a malformed secret, id or timestamp (a bug of the caller, never input from the network).
 * @example
 * signature({ id: 'msg_1', timestamp: 1614265330, body: '{"test": 2432232314}', secret: 'whsec_…' }) // 'v1,…'
 */
export function signature(input: { id: string; timestamp: number; body: string; secret: string }): string {
  const key = keyOf(input.secret);
  if (typeof input.id !== 'string' || input.id.length === 0) throw new TypeError('The delivery id must be a non-empty string');
  const timestamp = Math.floor(input.timestamp);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError('The timestamp must be a non-negative Unix time');
  return `v1,${createHmac('sha256', key).update(`${input.id}.${timestamp}.`, 'utf8').update(input.body, 'utf8').digest('base64')}`;
}

/**
 * @example
 * const headers = await signedHeaders({ id, timestamp, body, secrets: [current, previous], deliveryClass: 'lifecycle', installId });
 */
export async function signedHeaders(input: SignedHeadersInput): Promise<Record<string, string>> {
  if (input.secrets.length === 0) throw new Error('A delivery needs at least one signing secret');
  const signatures = input.secrets.map((secret) => signature({ id: input.id, timestamp: input.timestamp, body: input.body, secret }));
  return {
    [DELIVERY_HEADERS.id]: input.id,
    [DELIVERY_HEADERS.timestamp]: String(Math.floor(input.timestamp)),
    [DELIVERY_HEADERS.signature]: signatures.join(' '),
    [DELIVERY_HEADERS.deliveryClass]: input.deliveryClass,
    [DELIVERY_HEADERS.install]: input.installId,
    'content-type': 'application/json',
  };
}
