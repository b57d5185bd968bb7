/**
 * @module deliveries/targets/runtime-fetch
 * The `fetch` the runtime client is given (its `fetch` option): one request through undici's
 * `request` on a keep-alive agent of its own, the answer read whole and handed back as a `Response`.
 * The global `fetch` streams the request body through WHATWG streams and builds its request and
 * response objects field by field, which costs more CPU than the rest of a hosted click's delivery
 * in this process; the runtime's internal API needs none of it (small JSON bodies both ways, no
 * redirects, no cookies, no caching). Redirects are not followed: the internal API never answers one.
 */
import { Agent, request, type Dispatcher } from 'undici';

/** Statuses whose `Response` must have no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * @example
 * const client = createRuntimeClient({ url, secret, fetch: createRuntimeFetch() });
 */
export function createRuntimeFetch(dispatcher: Dispatcher = new Agent({ keepAliveTimeout: 30_000 })): typeof fetch {
  const runtimeFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (input instanceof Request) throw new TypeError('runtime fetch takes a URL, not a Request');
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      throw new TypeError('runtime fetch sends a string or bytes');
    }
    const res = await request(input, {
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: init.headers as Record<string, string> | undefined,
      body: body ?? null,
      signal: init.signal ?? null,
      dispatcher,
    });
    const bytes = new Uint8Array(await res.body.arrayBuffer());
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    return new Response(NULL_BODY.has(res.statusCode) || init.method === 'HEAD' ? null : bytes, { status: res.statusCode, headers });
  };
  return runtimeFetch as typeof fetch;
}
