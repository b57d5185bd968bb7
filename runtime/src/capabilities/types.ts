/**
 * @module capabilities/types
 * The host half of a capability: named methods the guest half calls through the bridge. `sync`
 * methods block the guest and return a value copied into the isolate (throwing becomes an error
 * in the guest); `post` methods are fire-and-forget. Every argument comes from guest code: check
 * its type and size before use. Host CPU spent in a method is charged to the request.
 */
import type { GuestFetchInit } from '../shared/bridge.ts';
import type { RawError } from '../stacks/map.ts';

export type LogLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

/** What a capability may do to the request the isolate is running (null: no request, e.g. startup). */
export interface RequestScope {
  readonly requestId: string;
  /** True while the bundle's top level runs: no I/O then. */
  readonly startup: boolean;
  /** A console line; `error` when an Error was among what the guest logged. */
  log(level: LogLevel, text: string, error?: RawError): void;
  startFetch(opId: number, init: GuestFetchInit): void;
  abortFetch(opId: number): void;
  setTimer(opId: number, delayMs: number): void;
  clearTimer(opId: number): void;
}

export type SyncMethod = (scope: RequestScope | null, args: unknown[]) => unknown;
export type PostMethod = (scope: RequestScope, args: unknown[]) => void;

export interface HostCapability {
  /** Same name as the guest half (runtime/src/guest/capabilities/<name>.ts). */
  readonly name: string;
  readonly sync?: Readonly<Record<string, SyncMethod>>;
  readonly post?: Readonly<Record<string, PostMethod>>;
}

/** Throws a TypeError (seen by the guest) unless `value` passes `test`. */
export function expect<T>(value: unknown, test: (v: unknown) => v is T, what: string): T {
  if (!test(value)) throw new TypeError(`Invalid ${what}`);
  return value;
}

export const isString = (v: unknown): v is string => typeof v === 'string';
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
export const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;
