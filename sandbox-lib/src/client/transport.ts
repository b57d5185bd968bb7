/**
 * @module client/transport
 * One `/v0` call on the wire, the part both clients share: path parameters filled in, the query and
 * the JSON body sent as given, the credential added, and every failure thrown as a
 * `PlatformClientError` (an error answer read as the spec's error body, else
 * `PlatformClientHttpError`; no answer at all, `PlatformClientNetworkError`). No zod: the error
 * body is read by a lean check that mirrors `ErrorBodySchema`.
 */
import { array, num, object, optional, read, str, union, withDefault } from '../delivery/lean/check.ts';
import type { RoutePath } from '../api/route-paths.ts';
import { PlatformClientError } from './errors.ts';

export interface CallOptions {
  /** A credential for this call instead of the client's (an interaction token, say). */
  readonly token?: string;
  /** A full `authorization` value (client credentials use HTTP Basic). */
  readonly authorization?: string;
  readonly signal?: AbortSignal;
}

export interface Transport {
  readonly baseUrl: string;
  readonly token?: string;
  readonly fetch: typeof fetch;
}

export interface Sent {
  readonly params?: Readonly<Record<string, string>>;
  /** Query fields; `undefined` values are left out. */
  readonly query?: Readonly<Record<string, unknown>>;
  /** The JSON body; `undefined`: no body. */
  readonly body?: unknown;
}

type Path = Array<string | number>;

const errorPath = array(union(str(), num));
/** `ErrorBodySchema` (api/errors.ts) as a lean check; the property tests compare the two. */
export const errorBodyCheck = object({
  _tag: str(1),
  message: str(),
  path: withDefault(errorPath, () => []),
  issues: optional(array(object({ path: errorPath, message: str() }))),
});

function fillPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`The path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
}

/** A `2xx` answer: its status and its body as JSON (`undefined` when empty or not JSON). */
export interface Answer {
  readonly status: number;
  readonly json: unknown;
}

/**
 * Sends one call; answers the `2xx`, throws for anything else.
 * @example const { json } = await send(transport, { method: 'GET', path: '/v0/blocks/{block_id}' }, { params: { block_id: 'blk_1' } });
 */
export async function send(transport: Transport, route: RoutePath, sent: Sent, options: CallOptions = {}): Promise<Answer> {
  let url = transport.baseUrl.replace(/\/+$/, '') + fillPath(route.path, sent.params);
  if (sent.query !== undefined) {
    const search = new URLSearchParams(Object.entries(sent.query).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
    if ([...search].length > 0) url += `?${search}`;
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.token ?? transport.token;
  if (options.authorization) headers.authorization = options.authorization;
  else if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (sent.body !== undefined) {
    body = JSON.stringify(sent.body);
    headers['content-type'] = 'application/json';
  }

  let response: Response;
  try {
    response = await transport.fetch(url, { method: route.method, headers, body, signal: options.signal });
  } catch (error) {
    throw new PlatformClientError('PlatformClientNetworkError', 0, `${route.method} ${route.path} failed: ${(error as Error)?.message ?? 'network error'}`, { cause: error });
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = read(errorBodyCheck, json);
    if (error.ok) {
      const { _tag, message, path } = error.value as { _tag: string; message: string; path: Path };
      throw new PlatformClientError(_tag, response.status, message, { body: json, path });
    }
    throw new PlatformClientError('PlatformClientHttpError', response.status, `${route.method} ${route.path} answered ${response.status}`, { body: json ?? text.slice(0, 1000) });
  }
  return { status: response.status, json };
}
