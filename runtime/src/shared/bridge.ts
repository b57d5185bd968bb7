/**
 * @module shared/bridge
 * Constants that cross the host/guest boundary. Compiled by both the host (Node) and the guest
 * runtime (its own tsconfig, no Node types), so a name or a cap changes in one place.
 *
 * The guest reaches the host through two functions handed to the guest runtime's `setup`:
 * `hostSync(capability, method, ...args)` (blocks the guest, returns a copied value) and
 * `hostPost(capability, method, ...args)` (fire-and-forget). The host reaches the guest through
 * `dispatch`, `deliver` and `readManifest` of the object `setup` returns.
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

/** A request as it crosses into the isolate (all copied values). */
export interface GuestRequestInit {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
}

/** A response as it crosses out of the isolate. The host validates every field again. */
export interface GuestResponseInit {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
}

/** An outbound request as the guest hands it to the host. */
export interface GuestFetchInit extends GuestRequestInit {
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

/** What `ctx` carries besides `waitUntil`. The signing secret and API URL are env vars (the SDK reads them there). */
export interface GuestContextInfo {
  kind: RequestKind;
  requestId: string;
  deliveryId: string | null;
}

/** URL components in this order, as the host's `url.parse` returns them. */
export const URL_PARTS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'] as const;
