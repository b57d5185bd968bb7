/**
 * @module guest/web/request
 * The Fetch standard's Request, with bytes for a body.
 */
import type { BodyKind, HeaderBlock } from '../../shared/bridge.ts';
import { AbortSignal } from './events.ts';
import { BodyState, bodyReaders, extractBody, hostBody, type BodyInit } from './body.ts';
import { Headers, headersFromBlock, type HeadersInit } from './headers.ts';
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

// Assigned by the static block (declared first: TDZ).
let requestBody: (request: Request) => BodyState = () => new BodyState(null);
// Set only while requestFromHost constructs.
let hostParts: { method: string; url: string; headers: HeaderBlock; body: BodyState } | null = null;

export class Request {
  #url: string;
  #method: string;
  // A request from the host keeps its header block until the app first reads `headers`.
  #headers: Headers | null;
  #headerBlock: HeaderBlock = '';
  #body: BodyState;
  #signal: AbortSignal | null;
  #redirect: 'follow' | 'manual' | 'error';

  constructor(input: Request | string | URL, init: RequestInit = {}) {
    const host = hostParts;
    if (host !== null) {
      // The host already parsed the URL and checked the method and headers: nothing is validated
      // or copied twice for every delivery.
      hostParts = null;
      this.#url = host.url;
      this.#method = host.method;
      this.#headers = null;
      this.#headerBlock = host.headers;
      this.#body = host.body;
      this.#signal = null;
      this.#redirect = 'follow';
      return;
    }
    const from = input instanceof Request ? input : null;
    this.#url = from !== null ? from.#url : new URL(String(input)).href;
    this.#method = init.method !== undefined ? normalizeMethod(String(init.method)) : from !== null ? from.#method : 'GET';
    const headers = new Headers(init.headers ?? (from !== null ? from.headers : undefined));
    this.#headers = headers;
    this.#signal = init.signal ?? (from !== null ? from.signal : null);
    const redirect = init.redirect ?? (from !== null ? from.#redirect : 'follow');
    if (redirect !== 'follow' && redirect !== 'manual' && redirect !== 'error') throw new TypeError(`Invalid redirect mode: ${String(redirect)}`);
    this.#redirect = redirect;
    if (init.body !== undefined && init.body !== null) {
      if (this.#method === 'GET' || this.#method === 'HEAD') throw new TypeError('Request with GET/HEAD method cannot have a body');
      const { source, type } = extractBody(init.body);
      this.#body = new BodyState(source);
      if (type !== null && !headers.has('content-type')) headers.set('content-type', type);
    } else this.#body = from !== null ? from.#body.clone() : new BodyState(null);
  }

  get url(): string { return this.#url; }
  get method(): string { return this.#method; }
  get headers(): Headers {
    if (this.#headers === null) this.#headers = headersFromBlock(this.#headerBlock);
    return this.#headers;
  }
  get signal(): AbortSignal {
    if (this.#signal === null) this.#signal = new AbortSignal();
    return this.#signal;
  }
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
    requestBody = (request) => request.#body;
  }
}

/** The request the host hands the app: URL, method and headers already checked by the host. */
export function requestFromHost(method: string, url: string, headers: HeaderBlock, body: string | null, bodyKind: BodyKind): Request {
  hostParts = { method, url, headers, body: new BodyState(hostBody(body, bodyKind)) };
  try {
    return new Request(url);
  } finally {
    hostParts = null;
  }
}

/** The body as the host takes it, without consuming it (fetch hands it to the host). */
export function requestBodyForHost(request: Request): { text: string; kind: BodyKind } | null { return requestBody(request).forHost(); }
