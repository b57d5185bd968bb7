/**
 * @module guest/web/url
 * URL is parsed by the host's WHATWG parser (exact behaviour, one small synchronous call);
 * URLSearchParams is plain JavaScript (application/x-www-form-urlencoded).
 */
import { URL_PARTS } from '../../shared/bridge.ts';
import { callHost } from './bridge.ts';
import { utf8Decode, utf8Encode } from './encoding.ts';

type Parts = Record<(typeof URL_PARTS)[number], string>;

function toParts(raw: unknown): Parts | null {
  if (!Array.isArray(raw)) return null;
  const parts = {} as Parts;
  URL_PARTS.forEach((name, i) => { parts[name] = String(raw[i]); });
  return parts;
}

function percentDecode(s: string): string {
  if (!s.includes('%')) return s;
  const bytes: number[] = [];
  const raw = utf8Encode(s);
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i]!;
    if (b === 0x25 && i + 2 < raw.length) {
      const hex = String.fromCharCode(raw[i + 1]!, raw[i + 2]!);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
        continue;
      }
    }
    bytes.push(b);
  }
  return utf8Decode(Uint8Array.from(bytes));
}

function formEncode(s: string): string {
  let out = '';
  for (const b of utf8Encode(s)) {
    if ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2a || b === 0x2d || b === 0x2e || b === 0x5f) out += String.fromCharCode(b);
    else if (b === 0x20) out += '+';
    else out += '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();
  }
  return out;
}

// Assigned by the static block of URLSearchParams (declared first: temporal dead zone).
let linkParams: (params: URLSearchParams, query: string, onChange: (query: string) => void) => void = () => {};

export class URLSearchParams {
  #list: Array<[string, string]> = [];
  #onChange: ((query: string) => void) | null = null;

  constructor(init: unknown = '') {
    if (init instanceof URLSearchParams) this.#list = init.#list.map(([k, v]) => [k, v]);
    else if (typeof init === 'object' && init !== null) {
      if (typeof (init as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function') {
        for (const pair of init as Iterable<Iterable<unknown>>) {
          const kv = [...pair];
          if (kv.length !== 2) throw new TypeError('URLSearchParams: each pair must have a name and a value');
          this.#list.push([String(kv[0]), String(kv[1])]);
        }
      } else for (const key of Object.keys(init)) this.#list.push([key, String((init as Record<string, unknown>)[key])]);
    } else this.#parse(String(init));
  }

  #parse(query: string): void {
    this.#list = [];
    const q = query.startsWith('?') ? query.slice(1) : query;
    for (const part of q.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? '' : part.slice(eq + 1);
      this.#list.push([percentDecode(name.replace(/\+/g, ' ')), percentDecode(value.replace(/\+/g, ' '))]);
    }
  }
  #update(): void { if (this.#onChange !== null) this.#onChange(this.toString()); }

  get size(): number { return this.#list.length; }
  append(name: string, value: string): void { this.#list.push([String(name), String(value)]); this.#update(); }
  delete(name: string, value?: string): void {
    const n = String(name);
    this.#list = this.#list.filter(([k, v]) => !(k === n && (value === undefined || v === String(value))));
    this.#update();
  }
  get(name: string): string | null { const n = String(name); return this.#list.find(([k]) => k === n)?.[1] ?? null; }
  getAll(name: string): string[] { const n = String(name); return this.#list.filter(([k]) => k === n).map(([, v]) => v); }
  has(name: string, value?: string): boolean {
    const n = String(name);
    return this.#list.some(([k, v]) => k === n && (value === undefined || v === String(value)));
  }
  set(name: string, value: string): void {
    const n = String(name);
    const i = this.#list.findIndex(([k]) => k === n);
    if (i < 0) this.#list.push([n, String(value)]);
    else {
      this.#list[i] = [n, String(value)];
      this.#list = this.#list.filter(([k], j) => k !== n || j === i);
    }
    this.#update();
  }
  sort(): void {
    this.#list = this.#list.map((e, i) => [e, i] as const).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1])).map(([e]) => e);
    this.#update();
  }
  forEach(callback: (value: string, name: string, params: URLSearchParams) => void, thisArg?: unknown): void {
    for (const [k, v] of [...this.#list]) callback.call(thisArg, v, k, this);
  }
  *entries(): IterableIterator<[string, string]> { for (const [k, v] of this.#list) yield [k, v]; }
  *keys(): IterableIterator<string> { for (const [k] of this.#list) yield k; }
  *values(): IterableIterator<string> { for (const [, v] of this.#list) yield v; }
  [Symbol.iterator](): IterableIterator<[string, string]> { return this.entries(); }
  toString(): string { return this.#list.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&'); }
  get [Symbol.toStringTag](): string { return 'URLSearchParams'; }

  static {
    linkParams = (params, query, onChange) => {
      params.#parse(query);
      params.#onChange = onChange;
    };
  }
}

function parse(url: unknown, base?: unknown): Parts | null {
  return toParts(callHost('url', 'parse', String(url), base === undefined ? undefined : String(base)));
}

export class URL {
  #parts: Parts;
  #params: URLSearchParams | null = null;

  constructor(url: unknown, base?: unknown) {
    const parts = parse(url, base);
    if (parts === null) throw new TypeError(`Invalid URL: ${String(url).slice(0, 200)}`);
    this.#parts = parts;
  }
  static canParse(url: unknown, base?: unknown): boolean { return parse(url, base) !== null; }
  static parse(url: unknown, base?: unknown): URL | null { return URL.canParse(url, base) ? new URL(url, base) : null; }

  #set(part: string, value: unknown): void {
    const parts = toParts(callHost('url', 'set', this.#parts.href, part, String(value)));
    if (parts === null) return;
    this.#parts = parts;
    if (this.#params !== null && part !== 'hash') linkParams(this.#params, parts.search, (q) => this.#set('search', q));
  }

  get href(): string { return this.#parts.href; }
  set href(v: string) {
    const parts = parse(v);
    if (parts === null) throw new TypeError(`Invalid URL: ${String(v).slice(0, 200)}`);
    this.#parts = parts;
    if (this.#params !== null) linkParams(this.#params, parts.search, (q) => this.#set('search', q));
  }
  get origin(): string { return this.#parts.origin; }
  get protocol(): string { return this.#parts.protocol; }
  set protocol(v: string) { this.#set('protocol', v); }
  get username(): string { return this.#parts.username; }
  set username(v: string) { this.#set('username', v); }
  get password(): string { return this.#parts.password; }
  set password(v: string) { this.#set('password', v); }
  get host(): string { return this.#parts.host; }
  set host(v: string) { this.#set('host', v); }
  get hostname(): string { return this.#parts.hostname; }
  set hostname(v: string) { this.#set('hostname', v); }
  get port(): string { return this.#parts.port; }
  set port(v: string) { this.#set('port', v); }
  get pathname(): string { return this.#parts.pathname; }
  set pathname(v: string) { this.#set('pathname', v); }
  get search(): string { return this.#parts.search; }
  set search(v: string) { this.#set('search', v); }
  get hash(): string { return this.#parts.hash; }
  set hash(v: string) { this.#set('hash', v); }
  get searchParams(): URLSearchParams {
    if (this.#params === null) {
      this.#params = new URLSearchParams();
      linkParams(this.#params, this.#parts.search, (q) => this.#set('search', q));
    }
    return this.#params;
  }
  toString(): string { return this.#parts.href; }
  toJSON(): string { return this.#parts.href; }
  get [Symbol.toStringTag](): string { return 'URL'; }
}
