/**
 * @module client/request
 * One checked `/v0` call described by its row in `API_ROUTES`: query and body checked with the
 * route's strict request schemas before anything is sent (what the caller wrote is sent, not the
 * parsed copy), the answer read with the route's lenient response schema, and every failure thrown
 * as a `PlatformClientError`. The wire part is `transport.ts`, shared with the lean client.
 */
import type { z } from 'zod';
import { API_ROUTES, type RouteName } from '../api/index.ts';
import { PlatformClientError } from './errors.ts';
import { send, type CallOptions, type Transport } from './transport.ts';

export type { CallOptions, Transport };

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

/**
 * Calls the route `name`.
 * @example const record = await callRoute(transport, 'blockGet', { params: { block_id: 'blk_1' } });
 */
export async function callRoute<N extends RouteName>(transport: Transport, name: N, input: CallInput<N> = {}, options: CallOptions = {}): Promise<RouteResponse<N>> {
  const route = API_ROUTES[name] as RouteOf<RouteName> & { body?: z.ZodType; query?: z.ZodType };
  let query: Record<string, unknown> | undefined;
  if (route.query && input.query !== undefined) {
    const parsed = route.query.safeParse(input.query);
    if (!parsed.success) refuse('query', parsed.error);
    query = parsed.data as Record<string, unknown>;
  }
  let body: unknown;
  if (route.body) {
    const checked = route.body.safeParse(input.body ?? {});
    if (!checked.success) refuse('body', checked.error);
    body = input.body ?? {};
  }
  const { status, json } = await send(transport, route, { params: input.params, query, body }, options);
  const parsed = route.response.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlatformClientError('PlatformClientResponseInvalidError', status, `The answer of ${route.method} ${route.path} does not match its schema at ${pathOf(issue).join('.') || '(root)'}: ${issue?.message}`, { body: json, path: pathOf(issue) });
  }
  return parsed.data as RouteResponse<N>;
}
