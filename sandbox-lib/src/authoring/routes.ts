/**
 * @module authoring/routes
 * An app's own HTTP routes (anything that is not a delivery or an MCP request): a table of
 * `'METHOD /path/:param'` keys, checked when the app is defined, or one fetch-style function.
 * Routes contribute no scopes. Matching goes in declaration order; `HEAD` falls back to `GET`; a
 * path known under other methods answers `405` with `allow`.
 */
import type { PlatformClient } from '../client/index.ts';
import { AppDefinitionError } from './errors.ts';
import type { AppEnv, ExecutionContextLike } from './context.ts';
import type { Logger } from './logger.ts';

export interface RouteContext {
  /** Named path parameters, percent-decoded. A trailing `*` segment is in `params['*']`. */
  readonly params: Readonly<Record<string, string>>;
  readonly env: AppEnv;
  readonly log: Logger;
  /** A `/v0` client without a token (hosted apps: the runtime adds the install token). */
  readonly api: PlatformClient;
  waitUntil(promise: Promise<unknown>): void;
}

export type RouteHandler = (request: Request, ctx: RouteContext) => Response | Promise<Response>;
export type FetchFallback = (request: Request, env: AppEnv, ctx: ExecutionContextLike) => Response | Promise<Response>;

/**
 * `{ 'GET /hello': handler, 'POST /items/:id': handler, '* /files/*': handler }`, or one function.
 * @example const routes: Routes = { 'GET /health': () => new Response('ok') };
 */
export type Routes = Readonly<Record<string, RouteHandler>> | FetchFallback;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', '*'] as const;
const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/;

type Segment = { literal: string } | { param: string } | { rest: true };

interface CompiledRoute {
  readonly method: string;
  readonly segments: readonly Segment[];
  readonly handler: RouteHandler;
}

export type RouteMatch =
  | { kind: 'found'; handler: RouteHandler; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'none' };

export interface Router {
  match(method: string, pathname: string): RouteMatch;
}

const splitPath = (path: string): string[] => path.split('/').slice(1).filter((segment, i, all) => segment !== '' || i < all.length - 1);

/**
 * Checks and compiles a route table.
 * @example compileRoutes({ 'GET /items/:id': handler }).match('GET', '/items/7') // { kind: 'found', params: { id: '7' }, ... }
 */
export function compileRoutes(routes: Readonly<Record<string, RouteHandler>>): Router {
  const compiled: CompiledRoute[] = Object.entries(routes).map(([key, handler]) => {
    const parts = /^([A-Z]+|\*) (\/\S*)$/.exec(key);
    if (!parts || !(METHODS as readonly string[]).includes(parts[1]!)) {
      throw new AppDefinitionError(['routes', key], `route keys are "METHOD /path" with METHOD one of ${METHODS.join(', ')}`);
    }
    if (typeof handler !== 'function') throw new AppDefinitionError(['routes', key], 'a route handler is a function (request, ctx) => Response');
    const raw = splitPath(parts[2]!);
    const segments = raw.map((segment, i): Segment => {
      if (segment === '*' && i === raw.length - 1) return { rest: true };
      const param = PARAM.exec(segment);
      if (param) return { param: param[1]! };
      if (segment.startsWith(':') || segment.includes('*')) throw new AppDefinitionError(['routes', key], `"${segment}" is neither a literal, :name nor a final *`);
      return { literal: segment };
    });
    return { method: parts[1]!, segments, handler };
  });

  return {
    match(method, pathname) {
      const path = splitPath(pathname);
      const allow = new Set<string>();
      for (const wanted of method === 'HEAD' ? ['HEAD', 'GET'] : [method]) {
        for (const route of compiled) {
          const params = matchSegments(route.segments, path);
          if (!params) continue;
          if (route.method === '*' || route.method === wanted) return { kind: 'found', handler: route.handler, params };
          allow.add(route.method);
        }
      }
      return allow.size > 0 ? { kind: 'method-not-allowed', allow: [...allow] } : { kind: 'none' };
    },
  };
}

function matchSegments(segments: readonly Segment[], path: readonly string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    if ('rest' in segment) {
      params['*'] = decode(path.slice(i).join('/')) ?? '';
      return params;
    }
    const actual = path[i];
    if (actual === undefined) return null;
    if ('literal' in segment) {
      if (actual !== segment.literal) return null;
      continue;
    }
    const value = decode(actual);
    if (value === null || value === '') return null;
    params[segment.param] = value;
  }
  return segments.length === path.length ? params : null;
}

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
