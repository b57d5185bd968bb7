/**
 * @module node/sign
 * Delivery signing for servers on Node: the same bytes as `signDelivery` and `deliveryHeaders` of
 * the main entry (Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, the key the
 * base64 after `whsec_`), computed synchronously with `node:crypto`. The main entry signs through
 * WebCrypto because isolates have nothing else; on a server, WebCrypto's key import and promise per
 * signature cost several times the HMAC itself, once per delivery sent. Secret parsing and header
 * names are the main entry's, so the two cannot drift apart.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { DELIVERY_HEADERS, type DeliveryClass } from '../delivery/headers.ts';
import { readSigningSecret } from '../signing/secrets.ts';
import { useSyncHmac } from '../signing/hmac.ts';

export interface SyncSignInput {
  /** The delivery id (`webhook-id`). */
  readonly id: string;
  /** When signed: Unix seconds (whole seconds are used). */
  readonly timestamp: number;
  /** The exact body that is sent. */
  readonly body: string;
  /** `whsec_` + base64. */
  readonly secret: string;
}

// Prepared keys by secret: an HMAC over a prepared key costs a third of one over raw bytes. The
// oldest entry goes first once the map is full (secrets of apps seen lately stay).
const keys = new Map<string, KeyObject>();
const KEYS_MAX = 10_000;

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    const read = readSigningSecret(secret);
    if (!read.ok) throw new TypeError(read.message);
    key = createSecretKey(read.key);
    if (keys.size >= KEYS_MAX) keys.delete(keys.keys().next().value as string);
    keys.set(secret, key);
  }
  return key;
}

/**
 * The `webhook-signature` value of one secret, equal to `await signDelivery(input)`. Throws on a
 * malformed secret (or one shorter than 24 bytes), id or timestamp (a bug of the caller, never input from the network).
 * @example
 * signDeliverySync({ id: 'msg_1', timestamp: 1614265330, body: '{"test": 2432232314}', secret: 'whsec_…' }) // 'v1,…'
 */
export function signDeliverySync(input: SyncSignInput): string {
  const key = keyOf(input.secret);
  if (typeof input.id !== 'string' || input.id.length === 0) throw new TypeError('The delivery id must be a non-empty string');
  const timestamp = Math.floor(input.timestamp);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError('The timestamp must be a non-negative Unix time');
  return `v1,${createHmac('sha256', key).update(`${input.id}.${timestamp}.`, 'utf8').update(input.body, 'utf8').digest('base64')}`;
}

export interface SyncHeadersInput extends Omit<SyncSignInput, 'secret'> {
  /**
   * Every live signing secret, newest first: during a rotation a delivery carries one signature per
   * secret, space-separated, so apps verify with either the old or the new one.
   */
  readonly secrets: readonly string[];
  readonly deliveryClass: DeliveryClass;
  readonly installId: string;
}

/**
 * Every header of a signed delivery, equal to `await deliveryHeaders(…)` for one secret.
 * @example
 * const headers = deliveryHeadersSync({ id, timestamp, body, secrets: [current, previous], deliveryClass: 'lifecycle', installId });
 */
export function deliveryHeadersSync(input: SyncHeadersInput): Record<string, string> {
  if (input.secrets.length === 0) throw new TypeError('A delivery needs at least one signing secret');
  return {
    [DELIVERY_HEADERS.id]: input.id,
    [DELIVERY_HEADERS.timestamp]: String(Math.floor(input.timestamp)),
    [DELIVERY_HEADERS.signature]: input.secrets.map((secret) => signDeliverySync({ id: input.id, timestamp: input.timestamp, body: input.body, secret })).join(' '),
    [DELIVERY_HEADERS.deliveryClass]: input.deliveryClass,
    [DELIVERY_HEADERS.install]: input.installId,
    'content-type': 'application/json',
  };
}

// Prepared keys by their bytes, for verifying: an app sees one or two secrets (a rotation).
const rawKeys = new Map<string, KeyObject>();
const RAW_KEYS_MAX = 64;

/**
 * HMAC-SHA256 with `node:crypto`, the same bytes as the main entry's WebCrypto one.
 * @example nodeHmacSha256(key, signedContent(id, timestamp, body))
 */
export function nodeHmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array {
  const id = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
  let prepared = rawKeys.get(id);
  if (prepared === undefined) {
    prepared = createSecretKey(Buffer.from(key));
    if (rawKeys.size >= RAW_KEYS_MAX) rawKeys.delete(rawKeys.keys().next().value as string);
    rawKeys.set(id, prepared);
  }
  return createHmac('sha256', prepared).update(data).digest();
}

/**
 * Verifies (and signs) deliveries in this process with `node:crypto` instead of WebCrypto, which
 * cost a self-hosted app about a tenth of its CPU per click (its job and promises, not the HMAC).
 * `serve` calls it; a server of an app's own may too.
 * @example useNodeHmac();
 */
export function useNodeHmac(): void {
  useSyncHmac(nodeHmacSha256);
}
