/**
 * @module guest/request
 * The Fetch standard's Request, with bytes for a body.
 */
import { AbortSignal } from './events.ts';
import { BodyState, bodyReaders, extractBody, type BodyInit } from './body.ts';
import { Headers, type HeadersInit } from './headers.ts';
import { URL } from './url.ts';

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'];
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export interface RequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit;
  signal?: AbortSignal | null;
  redirect?: 'follow' | 'manual' | 'error';
}

function normalizeMethod(method: string): string {
  if (!TOKEN.test(method)) throw new TypeError(`Invalid method: "${method.slice(0, 32)}"`);
  const upper = method.toUpperCase();
  if (upper === 'CONNECT' || upper === 'TRACE' || upper === 'TRACK') throw new TypeError(`Forbidden method: ${upper}`);
  return METHODS.includes(upper) ? upper : method;
}

// Set only while requestFromHost constructs; assigned by the static block (declared first: TDZ).
let trustedUrl: string | null = null;
let requestBytes: (request: Request) => Uint8Array | null = () => null;

export class Request {
  readonly #url: string;
  readonly #method: string;
  readonly #headers: Headers;
  readonly #body: BodyState;
  readonly #signal: AbortSignal;
  readonly #redirect: 'follow' | 'manual' | 'error';

  constructor(input: Request | string | URL, init: RequestInit = {}) {
    const from = input instanceof Request ? input : null;
    this.#url = from !== null ? from.#url : trustedUrl ?? new URL(String(input)).href;
    trustedUrl = null;
    this.#method = init.method !== undefined ? normalizeMethod(String(init.method)) : from !== null ? from.#method : 'GET';
    this.#headers = new Headers(init.headers ?? (from !== null ? from.#headers : undefined));
    this.#signal = init.signal ?? (from !== null ? from.#signal : new AbortSignal());
    const redirect = init.redirect ?? (from !== null ? from.#redirect : 'follow');
    if (redirect !== 'follow' && redirect !== 'manual' && redirect !== 'error') throw new TypeError(`Invalid redirect mode: ${String(redirect)}`);
    this.#redirect = redirect;
    if (init.body !== undefined && init.body !== null) {
      if (this.#method === 'GET' || this.#method === 'HEAD') throw new TypeError('Request with GET/HEAD method cannot have a body');
      const { bytes, type } = extractBody(init.body);
      this.#body = new BodyState(bytes);
      if (type !== null && !this.#headers.has('content-type')) this.#headers.set('content-type', type);
    } else this.#body = from !== null ? from.#body.clone() : new BodyState(null);
  }

  get url(): string { return this.#url; }
  get method(): string { return this.#method; }
  get headers(): Headers { return this.#headers; }
  get signal(): AbortSignal { return this.#signal; }
  get redirect(): 'follow' | 'manual' | 'error' { return this.#redirect; }
  get bodyUsed(): boolean { return this.#body.used; }
  get body(): null { return null; }
  arrayBuffer(): Promise<ArrayBuffer> { return bodyReaders.arrayBuffer(this.#body); }
  bytes(): Promise<Uint8Array> { return bodyReaders.bytes(this.#body); }
  text(): Promise<string> { return bodyReaders.text(this.#body); }
  json(): Promise<unknown> { return bodyReaders.json(this.#body); }
  clone(): Request { return new Request(this); }
  get [Symbol.toStringTag](): string { return 'Request'; }

  static {
    requestBytes = (request) => request.#body.bytes;
  }
}

/** Builds a Request whose URL the host already parsed (no second parse for every delivery). */
export function requestFromHost(url: string, init: RequestInit): Request {
  trustedUrl = url;
  try {
    return new Request(url, init);
  } finally {
    trustedUrl = null;
  }
}

/** The body bytes without consuming them (fetch hands them to the host). */
export function peekRequestBody(request: Request): Uint8Array | null { return requestBytes(request); }
