/**
 * @module core/ids/ids
 * Opaque identifiers: a short prefix naming the kind, then 128 random bits in lowercase base32.
 * Clients must treat them as opaque strings; the prefix is there for people reading logs.
 * `ID_PREFIX` is the one table of every kind's prefix in the control plane (a test keeps them
 * distinct); features name their ids with `newId(kind)` or `idMaker(kind)`, never a literal.
 */
import { pooledRandomBytes } from './random-pool.ts';

export const ID_PREFIX = {
  // workspace
  workspace: 'ws',
  member: 'mem',
  apiKey: 'key',
  circle: 'cir',
  conversation: 'cnv',
  /** Member posts, app posts and block messages alike: they share one table. */
  message: 'msg',
  directChat: 'dm',
  call: 'call',
  mail: 'mail',
  decision: 'dec',
  event: 'evt',
  request: 'req',
  // apps
  app: 'app',
  client: 'cli',
  install: 'ins',
  ciIdentity: 'cii',
  rollout: 'rol',
  logDrain: 'drn',
  /** Content-addressed: the base32 of the bytes' SHA-256 instead of random bits (`ASSET_ID_PATTERN` of @platform/sdk). */
  asset: 'ast',
  // deliveries
  delivery: 'dlv',
  // messaging
  reference: 'ref',
  stream: 'stm',
  notification: 'ntf',
  /** `memo`, since `mem` names members. */
  memory: 'memo',
  // blocks
  block: 'blk',
  invocation: 'inv',
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
  return `${ID_PREFIX[kind]}_${base32(pooledRandomBytes(16))}`;
}

/**
 * An id factory for one kind, for a feature that exports its own (`newEventId`).
 * @example const newBlockId = idMaker('block'); newBlockId() // 'blk_…'
 */
export const idMaker = (kind: IdKind) => (): string => newId(kind);
