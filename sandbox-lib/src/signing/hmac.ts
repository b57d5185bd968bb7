/**
 * @module signing/hmac
 * HMAC-SHA256 of the signed content `id.timestamp.body` through WebCrypto, which Node and
 * Web-standard isolates both offer (`node:crypto` is not available in isolates). A server on Node
 * installs `node:crypto`'s synchronous HMAC instead (`useSyncHmac`, done by `@platform/sdk/node`'s
 * `serve`): the same bytes, without WebCrypto's job and promises per delivery.
 */

const encoder = new TextEncoder();

/** The exact bytes that are signed: `${id}.${timestamp}.` followed by the raw body bytes. */
export function signedContent(id: string, timestamp: number, body: string | Uint8Array): Uint8Array {
  const head = encoder.encode(`${id}.${timestamp}.`);
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const out = new Uint8Array(head.length + bytes.length);
  out.set(head, 0);
  out.set(bytes, head.length);
  return out;
}

// An app verifies every delivery with the same one or two secrets: importing the key each time
// was a good part of what a delivery costs it. A few keys are kept (a secret being rotated, a test
// with several apps); past that the oldest goes.
const KEYS_KEPT = 8;
// Spelled from `crypto` itself: isolates' type roots declare WebCrypto's classes as values only.
type Subtle = (typeof globalThis.crypto)['subtle'];
type ImportedKey = ReturnType<Subtle['importKey']>;
const imported = new Map<string, ImportedKey>();

function importedKey(subtle: Subtle, key: Uint8Array): ImportedKey {
  const id = String.fromCharCode(...key);
  const kept = imported.get(id);
  if (kept !== undefined) return kept;
  const cryptoKey = subtle.importKey('raw', key.slice() as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  // A failed import is not kept.
  cryptoKey.catch(() => imported.delete(id));
  if (imported.size >= KEYS_KEPT) imported.delete(imported.keys().next().value!);
  imported.set(id, cryptoKey);
  return cryptoKey;
}

/** HMAC-SHA256 of `data` under `key`, computed at once. */
export type SyncHmac = (key: Uint8Array, data: Uint8Array) => Uint8Array;
let syncHmac: SyncHmac | null = null;

/**
 * Makes `hmacSha256` (every signature checked or made by this SDK) use `hmac`, or WebCrypto again
 * for `null`; answers the one used until now. `hmac` must compute HMAC-SHA256 exactly.
 * @example useSyncHmac((key, data) => createHmac('sha256', key).update(data).digest())
 */
export function useSyncHmac(hmac: SyncHmac | null): SyncHmac | null {
  const previous = syncHmac;
  syncHmac = hmac;
  return previous;
}

export async function hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  if (syncHmac !== null) return syncHmac(key, data);
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('WebCrypto (crypto.subtle) is not available in this environment');
  return new Uint8Array(await subtle.sign('HMAC', await importedKey(subtle, key), data as Uint8Array<ArrayBuffer>));
}

/** Compares two byte strings in time that depends only on their lengths. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
