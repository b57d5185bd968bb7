/**
 * @module guest/web/headers
 * The Fetch standard's Headers: case-insensitive names, validated names and values, sorted
 * iteration with `set-cookie` kept apart.
 */
import { GUEST_LIMITS, fromHeaderBlock, toHeaderBlock, type HeaderBlock } from '../../shared/bridge.ts';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\0\r\n]/;

export type HeadersInit = Headers | Array<[string, string]> | Record<string, string> | Iterable<Iterable<string>>;

function normalizeName(name: unknown): string {
  const n = String(name);
  if (!TOKEN.test(n)) throw new TypeError(`Invalid header name: "${n.slice(0, 64)}"`);
  return n.toLowerCase();
}

function normalizeValue(value: unknown): string {
  const v = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (BAD_VALUE.test(v)) throw new TypeError('Invalid header value');
  return v;
}

// Assigned by the static block of Headers; declared first to stay out of the temporal dead zone.
let freezeHeaders: (headers: Headers) => void = () => {};
let headerList: (headers: Headers) => Array<[string, string]> = () => [];
let trustedAppend: (headers: Headers, name: string, value: string) => void = () => {};

export class Headers {
  readonly #map = new Map<string, string[]>();
  #immutable = false;

  constructor(init?: HeadersInit) {
    if (init === undefined || init === null) return;
    if (init instanceof Headers) {
      for (const [k, v] of init.#map) this.#map.set(k, [...v]);
      return;
    }
    if (typeof init !== 'object') throw new TypeError('Headers: init must be an object or an iterable');
    const iterator = (init as { [Symbol.iterator]?: unknown })[Symbol.iterator];
    if (typeof iterator === 'function') {
      for (const pair of init as Iterable<Iterable<string>>) {
        const kv = [...pair];
        if (kv.length !== 2) throw new TypeError('Headers: each pair must have a name and a value');
        this.append(kv[0]!, kv[1]!);
      }
    } else {
      for (const key of Object.keys(init)) this.append(key, (init as Record<string, string>)[key]!);
    }
  }

  append(name: string, value: string): void {
    this.#check();
    const n = normalizeName(name);
    const v = normalizeValue(value);
    const list = this.#map.get(n);
    if (list === undefined) {
      if (this.#map.size >= GUEST_LIMITS.headers) throw new TypeError('Too many headers');
      this.#map.set(n, [v]);
    } else list.push(v);
  }
  delete(name: string): void { this.#check(); this.#map.delete(normalizeName(name)); }
  get(name: string): string | null {
    const list = this.#map.get(normalizeName(name));
    return list === undefined ? null : list.join(', ');
  }
  getSetCookie(): string[] { return [...(this.#map.get('set-cookie') ?? [])]; }
  has(name: string): boolean { return this.#map.has(normalizeName(name)); }
  set(name: string, value: string): void {
    this.#check();
    const n = normalizeName(name);
    if (!this.#map.has(n) && this.#map.size >= GUEST_LIMITS.headers) throw new TypeError('Too many headers');
    this.#map.set(n, [normalizeValue(value)]);
  }
  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }
  *entries(): IterableIterator<[string, string]> {
    const names = [...this.#map.keys()].sort();
    for (const name of names) {
      const list = this.#map.get(name);
      if (list === undefined) continue;
      if (name === 'set-cookie') for (const v of list) yield [name, v];
      else yield [name, list.join(', ')];
    }
  }
  *keys(): IterableIterator<string> { for (const [k] of this.entries()) yield k; }
  *values(): IterableIterator<string> { for (const [, v] of this.entries()) yield v; }
  [Symbol.iterator](): IterableIterator<[string, string]> { return this.entries(); }
  get [Symbol.toStringTag](): string { return 'Headers'; }

  #check(): void { if (this.#immutable) throw new TypeError('Headers are immutable'); }

  // Internal accessors, kept off the public surface.
  static {
    freezeHeaders = (headers) => { headers.#immutable = true; };
    trustedAppend = (headers, name, value) => {
      const list = headers.#map.get(name);
      if (list === undefined) headers.#map.set(name, [value]);
      else list.push(value);
    };
    headerList = (headers) => {
      const out: Array<[string, string]> = [];
      for (const [name, list] of headers.#map) for (const v of list) out.push([name, v]);
      return out;
    };
  }
}

export function makeImmutable(headers: Headers): void { freezeHeaders(headers); }
/** Every name/value pair, names lower-case, repeated names kept as separate pairs. */
export function toHeaderList(headers: Headers): Array<[string, string]> { return headerList(headers); }

/** Headers from a block the host built and checked (lower-case token names, clean values). */
export function headersFromBlock(block: HeaderBlock): Headers {
  const headers = new Headers();
  for (const [name, value] of fromHeaderBlock(block)) trustedAppend(headers, name, value);
  return headers;
}

/** Every pair as a header block for the host (which checks it again). */
export function toBlock(headers: Headers): HeaderBlock { return toHeaderBlock(headerList(headers)); }
