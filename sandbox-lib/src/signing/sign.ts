/**
 * @module signing/sign
 * Signing deliveries, byte-exact with the Standard Webhooks reference libraries: the header value
 * is `v1,` + base64(HMAC-SHA256(key, `id.timestamp.body`)), the key being the base64-decoded
 * secret without its `whsec_` prefix. The raw bytes that are sent are the bytes that are signed.
 */
import { encodeBase64 } from './base64.ts';
import { hmacSha256, signedContent } from './hmac.ts';
import { readSigningSecret } from './secrets.ts';
import { DELIVERY_HEADERS, type DeliveryClass } from '../delivery/headers.ts';

export interface SignInput {
  /** The delivery id (`webhook-id`). */
  readonly id: string;
  /** When signed: Unix seconds, or a Date (whole seconds are used). */
  readonly timestamp: number | Date;
  /** The exact body that is sent. */
  readonly body: string | Uint8Array;
  /** `whsec_` + base64. */
  readonly secret: string;
}

const toSeconds = (timestamp: number | Date): number =>
  timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : Math.floor(timestamp);

/**
 * The `webhook-signature` value for a delivery. Throws on a malformed secret, one shorter than 24
 * bytes, or a malformed id (a bug of the caller, never input from the network).
 * @example
 * await signDelivery({ id: 'msg_1', timestamp: 1614265330, body: '{"test": 2432232314}', secret: 'whsec_…' })
 * // 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='
 */
export async function signDelivery(input: SignInput): Promise<string> {
  const secret = readSigningSecret(input.secret);
  if (!secret.ok) throw new TypeError(secret.message);
  const key = secret.key;
  if (typeof input.id !== 'string' || input.id.length === 0) throw new TypeError('The delivery id must be a non-empty string');
  const timestamp = toSeconds(input.timestamp);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError('The timestamp must be a non-negative Unix time');
  const mac = await hmacSha256(key, signedContent(input.id, timestamp, input.body));
  return `v1,${encodeBase64(mac)}`;
}

/**
 * Every header of a signed delivery, ready to send.
 * @example
 * const headers = await deliveryHeaders({ id, timestamp: now, body, secret, deliveryClass: 'interactive', installId });
 * await fetch(url, { method: 'POST', headers, body });
 */
export async function deliveryHeaders(input: SignInput & { deliveryClass: DeliveryClass; installId: string }): Promise<Record<string, string>> {
  return {
    [DELIVERY_HEADERS.id]: input.id,
    [DELIVERY_HEADERS.timestamp]: String(toSeconds(input.timestamp)),
    [DELIVERY_HEADERS.signature]: await signDelivery(input),
    [DELIVERY_HEADERS.deliveryClass]: input.deliveryClass,
    [DELIVERY_HEADERS.install]: input.installId,
    'content-type': 'application/json',
  };
}
