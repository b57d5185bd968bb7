/**
 * @module console/kit/api
 * How the console talks to the platform: the same `/client/v1` and `/v0` requests any client
 * sends, with the member's key as the bearer, answered in process by the app's own request
 * function (no socket, no private door into the stores: every rule of the public API applies).
 */

/** The app's request function (`app.request` of the Hono app the console is mounted on). */
export type RequestFn = (path: string, init: RequestInit) => Promise<Response>;

export interface Answer<T = any> {
  status: number;
  body: T;
}

export interface Api {
  get<T = any>(path: string): Promise<Answer<T>>;
  post<T = any>(path: string, body?: unknown): Promise<Answer<T>>;
  put<T = any>(path: string, body?: unknown): Promise<Answer<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<Answer<T>>;
  del<T = any>(path: string): Promise<Answer<T>>;
  /** The tooling API (`/v0`), same key. */
  v0: Pick<Api, 'get' | 'post' | 'put' | 'del'> & {
    /** A GET whose answer is passed on as it comes (a stream, a download), with extra request headers. */
    raw(path: string, headers?: Record<string, string>): Promise<Response>;
  };
}

async function call(request: RequestFn, key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = { _tag: 'ConsoleUnreadableAnswer', message: text.slice(0, 200) };
  }
  return { status: res.status, body: parsed };
}

/**
 * @example
 * const api = apiFor(request, sessionKey);
 * const { body } = await api.get('/circles');
 */
export function apiFor(request: RequestFn, key: string): Api {
  const at = (base: string) => ({
    get: (p: string) => call(request, key, 'GET', `${base}${p}`),
    post: (p: string, b?: unknown) => call(request, key, 'POST', `${base}${p}`, b ?? {}),
    put: (p: string, b?: unknown) => call(request, key, 'PUT', `${base}${p}`, b ?? {}),
    patch: (p: string, b?: unknown) => call(request, key, 'PATCH', `${base}${p}`, b ?? {}),
    del: (p: string) => call(request, key, 'DELETE', `${base}${p}`),
  });
  const raw = (p: string, headers: Record<string, string> = {}) => request(`/v0${p}`, { method: 'GET', headers: { ...headers, authorization: `Bearer ${key}` } });
  return { ...at('/client/v1'), v0: { ...at('/v0'), raw } };
}

/** The message of a tagged error answer, or a fallback. */
export const messageOf = (a: Answer): string =>
  (typeof a.body?.message === 'string' ? a.body.message : `The request failed (${a.status})`);
