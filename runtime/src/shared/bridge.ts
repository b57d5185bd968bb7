/**
 * @module shared/bridge
 * Constants that cross the host/guest boundary. Compiled by both the host (Node) and the guest
 * runtime (its own tsconfig, no Node types), so a name or a cap changes in one place.
 *
 * The guest reaches the host through two functions handed to the guest runtime's `setup`:
 * `hostSync(capability, method, ...args)` (returns a copied value) and `hostPost(capability,
 * method, ...args)` (returns nothing). Both run synchronously on the worker's thread, in order,
 * while the guest waits. The host reaches the guest through `dispatch`, `deliver` and
 * `readManifest` of the object `setup` returns.
 *
 * Values cross as primitives wherever possible: copying a string into or out of an isolate costs a
 * fraction of what a structured clone of objects or byte arrays does (measured: a request passed
 * as strings ~6 µs, as a cloned object with a byte array ~28 µs). Headers cross as one header block
 * and bodies as strings with a `BodyKind`.
 */

/** Pseudo capability for the request lifecycle messages of the guest runtime itself. */
export const CORE = 'core';

export const CORE_METHODS = { respond: 'respond', fail: 'fail', done: 'done' } as const;

export const GUEST_LIMITS = {
  /** Characters of one console line; longer lines are cut. */
  logLineChars: 4_000,
  /** Characters of an error message and of an error stack reported by the guest runtime. */
  errorMessageChars: 2_000,
  errorStackChars: 8_000,
  /** Bytes crypto.getRandomValues fills at once (Web Crypto's QuotaExceededError threshold). */
  randomBytes: 65_536,
  /** Timers pending at once in one request. */
  timers: 1_000,
  /** Headers in a request or response. */
  headers: 200,
  /** Characters of a manifest rendered to JSON. */
  manifestChars: 4 * 1024 * 1024,
} as const;

/** Kinds of request the guest sees in `ctx.kind`. */
export type RequestKind = 'interactive' | 'command' | 'lifecycle' | 'mcp' | 'route';

/**
 * How a body crosses the boundary as a string: `text` is the body decoded as UTF-8 (it was valid
 * UTF-8), `latin1` holds one byte per character (any bytes). `null` bodies cross as `null`.
 */
export type BodyKind = 'text' | 'latin1';

/**
 * Headers as one string: `name\nvalue\nname\nvalue…`, names lower-case. Header names are tokens
 * and values never contain `\n` (both sides validate), so the block splits without ambiguity.
 */
export type HeaderBlock = string;

export function toHeaderBlock(pairs: Iterable<readonly [string, string]>): HeaderBlock {
  let block = '';
  for (const [name, value] of pairs) block += block === '' ? `${name}\n${value}` : `\n${name}\n${value}`;
  return block;
}

export function fromHeaderBlock(block: HeaderBlock): Array<[string, string]> {
  if (block === '') return [];
  const parts = block.split('\n');
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < parts.length; i += 2) pairs.push([parts[i]!, parts[i + 1]!]);
  return pairs;
}

/** A response as it crosses out of the isolate. The host validates every field again. */
export interface GuestResponseInit {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
}

/** An outbound request as the guest hands it to the host. */
export interface GuestFetchInit {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
  redirect: 'follow' | 'manual' | 'error';
}

/** The host's answer to an outbound request. */
export interface GuestFetchResult {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
  url: string;
  redirected: boolean;
}

/** What `ctx` carries besides `waitUntil`. The API URL is an env var (the SDK reads it there). */
export interface GuestContextInfo {
  kind: RequestKind;
  requestId: string;
  /** Set for deliveries: the runtime received them signed from the control plane and vouches for them. */
  deliveryId: string | null;
}

/** URL components in this order, as the host's `url.parse` returns them. */
export const URL_PARTS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'] as const;
