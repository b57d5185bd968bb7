/**
 * @module client/request
 * One `/v0` call described by its row in `API_ROUTES`: path parameters filled in, query and body
 * checked with the route's strict request schemas before anything is sent, the answer read with
 * the route's lenient response schema (unknown fields ignored), and every failure thrown as a
 * `PlatformClientError`.
 */
import type { z } from 'zod';
import { API_ROUTES, ErrorBodySchema, type RouteName } from '../api/index.ts';
import { PlatformClientError } from './errors.ts';

type RouteOf<N extends RouteName> = (typeof API_ROUTES)[N];

/** The body a route takes (before defaults), `never` when it takes none. */
export type RouteBody<N extends RouteName> = RouteOf<N> extends { body: infer B extends z.ZodType } ? z.input<B> : never;
export type RouteQuery<N extends RouteName> = RouteOf<N> extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;
export type RouteResponse<N extends RouteName> = z.output<RouteOf<N>['response']>;

export interface CallInput<N extends RouteName> {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: RouteQuery<N>;
  readonly body?: RouteBody<N>;
}

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

type Path = Array<string | number>;
const pathOf = (issue: z.core.$ZodIssue | undefined): Path => (issue?.path ?? []).filter((key): key is string | number => typeof key !== 'symbol');

function refuse(where: 'body' | 'query', error: z.ZodError): never {
  const issues = error.issues.map((issue) => ({ path: pathOf(issue), message: issue.message }));
  const first = issues[0];
  throw new PlatformClientError('PlatformApiInvalidRequestError', 400, `The request ${where} does not match the schema at ${first?.path.join('.') || '(root)'}: ${first?.message}`, {
    body: { _tag: 'PlatformApiInvalidRequestError', message: 'The request does not match the schema', path: first?.path ?? [], issues },
    path: first?.path ?? [],
    local: true,
  });
}

function fillPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`The path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
}

/**
 * Calls the route `name`.
 * @example const record = await callRoute(transport, 'blockGet', { params: { block_id: 'blk_1' } });
 */
export async function callRoute<N extends RouteName>(transport: Transport, name: N, input: CallInput<N> = {}, options: CallOptions = {}): Promise<RouteResponse<N>> {
  const route = API_ROUTES[name] as RouteOf<RouteName> & { body?: z.ZodType; query?: z.ZodType };
  let url = transport.baseUrl.replace(/\/+$/, '') + fillPath(route.path, input.params);
  if (route.query && input.query !== undefined) {
    const query = route.query.safeParse(input.query);
    if (!query.success) refuse('query', query.error);
    const search = new URLSearchParams(Object.entries(query.data as Record<string, unknown>).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
    if ([...search].length > 0) url += `?${search}`;
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.token ?? transport.token;
  if (options.authorization) headers.authorization = options.authorization;
  else if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (route.body) {
    const checked = route.body.safeParse(input.body ?? {});
    if (!checked.success) refuse('body', checked.error);
    // What the caller wrote is sent (not the parsed copy), so the service applies its own defaults.
    body = JSON.stringify(input.body ?? {});
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
    const error = ErrorBodySchema.safeParse(json);
    if (error.success) throw new PlatformClientError(error.data._tag, response.status, error.data.message, { body: json, path: error.data.path });
    throw new PlatformClientError('PlatformClientHttpError', response.status, `${route.method} ${route.path} answered ${response.status}`, { body: json ?? text.slice(0, 1000) });
  }
  const parsed = route.response.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlatformClientError('PlatformClientResponseInvalidError', response.status, `The answer of ${route.method} ${route.path} does not match its schema at ${pathOf(issue).join('.') || '(root)'}: ${issue?.message}`, { body: json, path: pathOf(issue) });
  }
  return parsed.data as RouteResponse<N>;
}
