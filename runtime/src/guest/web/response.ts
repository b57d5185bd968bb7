/**
 * @module guest/web/response
 * The Fetch standard's Response, with bytes for a body.
 */
import { BodyState, bodyReaders, extractBody, hostBody, type BodyInit } from './body.ts';
import type { BodyKind, HeaderBlock } from '../../shared/bridge.ts';
import { Headers, headersFromBlock, makeImmutable, toBlock, type HeadersInit } from './headers.ts';
import { URL } from './url.ts';

export interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

const NULL_BODY = [101, 103, 204, 205, 304];
const REDIRECTS = [301, 302, 303, 307, 308];

// Assigned by the static block of Response (declared first: temporal dead zone).
let internals: (response: Response) => { body: BodyState; headers: Headers; status: number; statusText: string };
let fromNetwork: (status: number, statusText: string, headers: Headers, body: BodyState, url: string, redirected: boolean) => Response;

export class Response {
  readonly #status: number;
  readonly #statusText: string;
  readonly #headers: Headers;
  readonly #body: BodyState;
  #url = '';
  #redirected = false;
  #type = 'default';

  constructor(body: BodyInit = null, init: ResponseInit = {}) {
    const status = init.status === undefined ? 200 : Number(init.status);
    if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`Response status must be between 200 and 599, got ${String(init.status)}`);
    this.#status = status;
    this.#statusText = init.statusText === undefined ? '' : String(init.statusText);
    if (/[\r\n]/.test(this.#statusText)) throw new TypeError('Invalid statusText');
    this.#headers = new Headers(init.headers);
    const { source, type } = extractBody(body);
    if (source !== null && NULL_BODY.includes(status)) throw new TypeError(`Response with status ${status} cannot have a body`);
    this.#body = new BodyState(source);
    if (type !== null && !this.#headers.has('content-type')) this.#headers.set('content-type', type);
  }

  static json(data: unknown, init: ResponseInit = {}): Response {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError('Response.json: the value cannot be serialized to JSON');
    const headers = new Headers(init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new Response(text, { ...init, headers });
  }
  static redirect(url: string | URL, status = 302): Response {
    if (!REDIRECTS.includes(status)) throw new RangeError(`Invalid redirect status: ${status}`);
    const response = new Response(null, { status, headers: { location: new URL(String(url)).href } });
    makeImmutable(response.#headers);
    return response;
  }
  static error(): Response {
    const response = new Response(null, { status: 200 });
    response.#type = 'error';
    return response;
  }

  get status(): number { return this.#type === 'error' ? 0 : this.#status; }
  get statusText(): string { return this.#statusText; }
  get ok(): boolean { return this.#status >= 200 && this.#status < 300 && this.#type !== 'error'; }
  get headers(): Headers { return this.#headers; }
  get url(): string { return this.#url; }
  get redirected(): boolean { return this.#redirected; }
  get type(): string { return this.#type; }
  get bodyUsed(): boolean { return this.#body.used; }
  get body(): null { return null; }
  arrayBuffer(): Promise<ArrayBuffer> { return bodyReaders.arrayBuffer(this.#body); }
  bytes(): Promise<Uint8Array> { return bodyReaders.bytes(this.#body); }
  text(): Promise<string> { return bodyReaders.text(this.#body); }
  json(): Promise<unknown> { return bodyReaders.json(this.#body); }
  clone(): Response {
    const copy = new Response(null, { status: this.#status, statusText: this.#statusText, headers: this.#headers });
    copy.#body.source = this.#body.clone().source;
    copy.#url = this.#url;
    copy.#redirected = this.#redirected;
    copy.#type = this.#type;
    return copy;
  }
  get [Symbol.toStringTag](): string { return 'Response'; }

  static {
    internals = (r) => ({ body: r.#body, headers: r.#headers, status: r.#type === 'error' ? 0 : r.#status, statusText: r.#statusText });
    fromNetwork = (status, statusText, headers, body, url, redirected) => {
      // The host only answers with final statuses (200–599); the body is set after construction
      // because null-body statuses (204, 304) reject one in the constructor.
      const r = new Response(null, { status, statusText, headers });
      r.#body.source = NULL_BODY.includes(status) ? null : body.source;
      r.#url = url;
      r.#redirected = redirected;
      r.#type = 'basic';
      makeImmutable(r.#headers);
      return r;
    };
  }
}

/** A Response of an outbound fetch, built from what the host returned. */
export function networkResponse(status: number, statusText: string, headers: HeaderBlock, body: string, bodyKind: BodyKind, url: string, redirected: boolean): Response {
  return fromNetwork(status, statusText, headersFromBlock(headers), new BodyState(hostBody(body, bodyKind)), url, redirected);
}

/** True if `value` is a Response made by this runtime (private state present; proxies fail). */
export function isResponse(value: unknown): value is Response {
  try {
    internals(value as Response);
    return true;
  } catch {
    return false;
  }
}

/**
 * The parts of a Response the host needs, read from private state (no getter of a subclass or
 * proxy runs), without consuming the body.
 */
export function responseParts(response: Response): { status: number; statusText: string; headers: HeaderBlock; body: string | null; bodyKind: BodyKind } {
  const i = internals(response);
  if (i.body.used) throw new TypeError('The response body has already been consumed');
  const body = i.body.forHost();
  return { status: i.status, statusText: i.statusText, headers: toBlock(i.headers), body: body?.text ?? null, bodyKind: body?.kind ?? 'text' };
}
