/**
 * @module core/ids/ids
 * Opaque identifiers: a short prefix naming the kind, then 128 random bits in lowercase base32.
 * Clients must treat them as opaque strings; the prefix is there for people reading logs.
 */
import { randomBytes } from 'node:crypto';

export const ID_PREFIX = {
  workspace: 'ws',
  member: 'mem',
  apiKey: 'key',
  circle: 'cir',
  conversation: 'cnv',
  message: 'msg',
  directChat: 'dm',
  request: 'req',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** Lowercase RFC 4648 base32 without padding. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/**
 * @example
 * newId('circle'); // 'cir_k5v2…' (26 random characters)
 */
export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${base32(randomBytes(16))}`;
}

/**
 * An id factory for one prefix of a feature's own kinds, in the same form as `newId`.
 * @example const newBlockId = idMaker('blk'); newBlockId() // 'blk_…'
 */
export const idMaker = (prefix: string) => (): string => `${prefix}_${base32(randomBytes(16))}`;
