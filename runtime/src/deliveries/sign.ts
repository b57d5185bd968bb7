/**
 * @module deliveries/sign
 * The delivery headers, signed with node:crypto. Same bytes as sandbox-lib's `deliveryHeaders`
 * (Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, key = the base64 after
 * `whsec_`), which test/runtime/sign.test.ts checks; that one goes through WebCrypto, whose
 * asynchronous thread-pool round trip cost more CPU per delivery than the rest of the HTTP handling
 * in profiles of this node. Secret parsing and header names are sandbox-lib's.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { DELIVERY_HEADERS, parseSigningSecret, type DeliveryClass } from '@platform/sandbox-lib';

export interface SignedDeliveryInput {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
  secret: string;
  deliveryClass: DeliveryClass;
  installId: string;
}

// Parsed keys by secret: building a key object is most of an HMAC's cost for small bodies.
const keys = new Map<string, KeyObject>();
const MAX_KEYS = 1_000;

function keyFor(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    const bytes = parseSigningSecret(secret);
    if (bytes === null) throw new TypeError('The signing secret must be whsec_ followed by base64');
    key = createSecretKey(bytes);
    if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value as string);
    keys.set(secret, key);
  }
  return key;
}

/**
 * @example
 * signedDeliveryHeaders({ id: 'dlv_1', timestamp: 1614265330, body: '{}', secret: 'whsec_…', deliveryClass: 'interactive', installId: 'ins_1' })
 */
export function signedDeliveryHeaders(input: SignedDeliveryInput): Record<string, string> {
  const key = keyFor(input.secret);
  if (input.id.length === 0) throw new TypeError('The delivery id must be a non-empty string');
  const mac = createHmac('sha256', key).update(`${input.id}.${input.timestamp}.`).update(input.body).digest('base64');
  return {
    [DELIVERY_HEADERS.id]: input.id,
    [DELIVERY_HEADERS.timestamp]: String(input.timestamp),
    [DELIVERY_HEADERS.signature]: `v1,${mac}`,
    [DELIVERY_HEADERS.deliveryClass]: input.deliveryClass,
    [DELIVERY_HEADERS.install]: input.installId,
    'content-type': 'application/json',
  };
}
