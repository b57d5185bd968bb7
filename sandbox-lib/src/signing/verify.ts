/**
 * @module signing/verify
 * Verifying a delivery as the receiving app does. Total: every input, however malformed, answers
 * `{ ok: false, reason }` and never throws. Order matters: headers are read and the timestamp
 * checked against the clock before the body is touched (and the body is never parsed here).
 */
import { LIMITS } from '../limits/index.ts';
import { DELIVERY_HEADERS } from '../delivery/headers.ts';
import { decodeBase64 } from './base64.ts';
import { hmacSha256, signedContent, timingSafeEqual } from './hmac.ts';
import { readSigningSecret } from './secrets.ts';

export type VerifyFailure =
  | 'missing-header' | 'duplicate-header' | 'oversized-header' | 'malformed-header'
  | 'invalid-timestamp' | 'timestamp-too-old' | 'timestamp-too-new' | 'invalid-secret' | 'secret-too-short' | 'signature-mismatch';

export type VerifyResult = { ok: true; id: string; timestamp: number } | { ok: false; reason: VerifyFailure };

/** Web `Headers`, or a Node-style record (names in any case; repeated headers as arrays). */
export type HeadersLike = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyInput {
  readonly headers: HeadersLike;
  /** The raw body as received. */
  readonly body: string | Uint8Array | ArrayBuffer;
  /** `whsec_` + base64; several during a rotation (any one may match). */
  readonly secret: string | readonly string[];
  /** The clock: a Date or milliseconds since the epoch. Default: now. */
  readonly now?: Date | number;
}

const D = LIMITS.deliveries;
const ID = new RegExp(`^[\\x21-\\x2b\\x2d-\\x7e]{1,${D.webhookIdMaxChars}}$`);
const TIMESTAMP = /^[0-9]{1,12}$/;
const TOKEN = /^([^,\s]+),(\S+)$/;

const failure = (reason: VerifyFailure): VerifyResult => ({ ok: false, reason });

type HeaderRead = { value: string } | { reason: VerifyFailure };

/** One header's single value, or why there is none. */
function readHeader(headers: HeadersLike, name: string): HeaderRead {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const value = (headers as { get(name: string): string | null }).get(name);
    return typeof value === 'string' ? { value } : { reason: 'missing-header' };
  }
  let found: unknown;
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    if (found !== undefined) return { reason: 'duplicate-header' };
    if (Array.isArray(value)) {
      if (value.length !== 1) return { reason: value.length === 0 ? 'missing-header' : 'duplicate-header' };
      found = value[0];
    } else {
      found = value;
    }
    if (typeof found !== 'string') return { reason: 'malformed-header' };
  }
  return typeof found === 'string' ? { value: found } : { reason: 'missing-header' };
}

/**
 * The keys of the secrets given. Malformed ones are passed over, as before (a list may hold a stray
 * separator); none usable is `invalid-secret`. A secret shorter than 24 bytes is the app's
 * misconfiguration, refused as `secret-too-short` even beside a good one, so that it is seen and
 * replaced rather than tried on every delivery.
 */
function readKeys(secret: string | readonly string[]): Uint8Array[] | { reason: VerifyFailure } {
  const keys: Uint8Array[] = [];
  for (const one of typeof secret === 'string' ? [secret] : secret) {
    const read = readSigningSecret(one);
    if (read.ok) keys.push(read.key);
    else if (read.reason === 'secret-too-short') return { reason: read.reason };
  }
  return keys.length === 0 ? { reason: 'invalid-secret' } : keys;
}

/**
 * Verifies the Standard Webhooks signature of a delivery. A secret shorter than 24 bytes (the
 * Standard Webhooks guidance) answers `secret-too-short`, whatever the delivery.
 * @example
 * const check = await verifyDelivery({ headers: request.headers, body: rawBody, secret: env.PLATFORM_SIGNING_SECRET });
 * if (!check.ok) return new Response(null, { status: 401 });
 */
export async function verifyDelivery(input: VerifyInput): Promise<VerifyResult> {
  try {
    return await verify(input);
  } catch {
    return failure('malformed-header');
  }
}

async function verify({ headers, body, secret, now }: VerifyInput): Promise<VerifyResult> {
  if (typeof headers !== 'object' || headers === null) return failure('missing-header');
  const reads = [DELIVERY_HEADERS.id, DELIVERY_HEADERS.timestamp, DELIVERY_HEADERS.signature].map((name) => readHeader(headers, name));
  for (const read of reads) if ('reason' in read && read.reason === 'missing-header') return failure(read.reason);
  for (const read of reads) if ('reason' in read) return failure(read.reason);
  const [id, stamp, signature] = reads.map((read) => (read as { value: string }).value) as [string, string, string];
  // Web Headers join repeated headers with ", "; none of the three legitimately contains it.
  if (id.includes(', ') || stamp.includes(', ') || signature.includes(', ')) return failure('duplicate-header');
  if (id.length > D.webhookIdMaxChars || stamp.length > 32 || signature.length > D.signatureHeaderMaxChars) return failure('oversized-header');
  if (!ID.test(id)) return failure('malformed-header');
  if (!TIMESTAMP.test(stamp)) return failure('invalid-timestamp');

  const timestamp = Number(stamp);
  const nowMs = now === undefined ? Date.now() : now instanceof Date ? now.getTime() : now;
  const nowSeconds = Math.floor(nowMs / 1000);
  if (nowSeconds - timestamp > D.signatureToleranceSeconds) return failure('timestamp-too-old');
  if (timestamp - nowSeconds > D.signatureToleranceSeconds) return failure('timestamp-too-new');

  const tokens = signature.split(' ');
  if (tokens.length > D.signaturesPerHeader) return failure('oversized-header');
  const candidates: Uint8Array[] = [];
  for (const token of tokens) {
    const parts = TOKEN.exec(token);
    if (!parts) return failure('malformed-header');
    if (parts[1] !== 'v1') continue; // Other schemes (v1a, future ones) are not ours to check.
    const bytes = decodeBase64(parts[2]!);
    if (bytes) candidates.push(bytes);
  }

  const read = readKeys(secret);
  if (!Array.isArray(read)) return failure(read.reason);
  const keys = read;
  if (candidates.length === 0) return failure('signature-mismatch');
  const bodyBytes = typeof body === 'string' ? body : body instanceof Uint8Array ? body : new Uint8Array(body);
  const content = signedContent(id, timestamp, bodyBytes);
  let matched = false;
  for (const key of keys) {
    const expected = await hmacSha256(key, content);
    // Compare against every candidate without stopping early, so timing says nothing about which matched.
    for (const candidate of candidates) matched = timingSafeEqual(candidate, expected) || matched;
  }
  return matched ? { ok: true, id, timestamp } : failure('signature-mismatch');
}
