/**
 * @module core/ids/random-pool
 * Random bytes for ids and token ids, drawn from a pool filled 4 KB at a time: a click makes
 * several ids (its invocation, its delivery, its request, its token's `jti`), and each
 * `randomBytes(16)` was a call into the CSPRNG of its own. The bytes are the same CSPRNG's (Node's
 * `randomUUID` pools the same way); a pool is never refilled in place, so a slice already handed
 * out never changes, and no slice is handed out twice.
 */
import { randomBytes } from 'node:crypto';

const POOL_BYTES = 4096;
/** Larger requests go to the CSPRNG directly: they are rare and would drain the pool. */
const MAX_POOLED = 64;

let pool = Buffer.alloc(0);
let at = 0;

/**
 * `n` random bytes, as a view of the pool: read them at once (encode them), do not keep the view.
 * @example base32(pooledRandomBytes(16)) // 26 random characters
 */
export function pooledRandomBytes(n: number): Buffer {
  if (n > MAX_POOLED) return randomBytes(n);
  if (at + n > pool.length) {
    pool = randomBytes(POOL_BYTES);
    at = 0;
  }
  const out = pool.subarray(at, at + n);
  at += n;
  return out;
}
