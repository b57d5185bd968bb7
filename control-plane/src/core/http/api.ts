/**
 * @module core/http/api
 * One small builder for a versioned JSON API (`/client/v1` now, `/v0` later). A route is declared
 * once: method, path, credential, zod schemas for body, query and answer, and a handler. The builder
 * registers it on a Hono router (parsing and checking everything before the handler runs) and in
 * the API's OpenAPI document, served at `<base>/openapi.json`.
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { PlatformError } from '@platform/sdk';
import type { Logger } from '../log/logger.ts';
import type { AppEnv } from './env.ts';
import { buildOpenApiDocument, type JsonSchema, type OpenApiOperation } from './openapi.ts';
import { parseWith, readJson } from './read-json.ts';
import { assertCleanUrl } from './request-strings.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Resolves the caller of a request, or throws a 401 `PlatformError`. */
export type Authenticator<T> = (c: Context<AppEnv>) => Promise<T>;

export interface AuthScheme<T> {
  authenticate: Authenticator<T>;
  /** OpenAPI security scheme object. */
  scheme: JsonSchema;
  /** Documented as optional (the route may also be called without it). */
  optional?: boolean;
  /**
   * Checked on routes that write (every method but GET, unless the route `reads`): throws when the
   * caller may only read (a replay's read-only token). `writeRefusal` documents the answer.
   */
  guardWrite?(caller: T): void;
  writeRefusal?: { status: number; description: string };
}

type Schema = z.ZodType | undefined;
type Out<S extends Schema, Else> = S extends z.ZodType ? z.output<S> : Else;
type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? { [k in K]: string } & PathParams<Rest> : unknown;

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

export interface RouteDef<P extends string, K, B extends Schema, Q extends Schema, R extends Schema> {
  operationId: string;
  method: Method;
  /** Under the API's base, OpenAPI style: `/circles/{circleId}`. */
  path: P;
  summary: string;
  description?: string;
  tag: string;
  /** Which credential the route needs, or `none`. */
  auth: K;
  body?: B;
  /**
   * A body that is not JSON, which the handler reads itself (a hosted upload): its media types and
   * JSON Schemas, for the OpenAPI document only.
   */
  consumes?: Record<string, JsonSchema>;
  /** Cap on the request body in bytes (default 16 KB). */
  maxBytes?: number;
  /**
   * Cap on JSON nesting (default 64). Raise it only for a route whose schema does not recurse into
   * the deep part (it is then walked by iterative code), such as the tree checker.
   */
  maxDepth?: number;
  /** What a body nested deeper than `maxDepth` answers (default: the `400`); documented by the route's `errors`. */
  tooDeep?: () => PlatformError;
  query?: Q;
  status: 200 | 201 | 204;
  response?: R;
  /**
   * The media type of a success that is not JSON (`text/event-stream`, `application/octet-stream`):
   * the handler answers with the `Response` itself, documented as that type.
   */
  produces?: string;
  /** A POST that changes nothing (a query, a check): read-only credentials may call it. */
  reads?: boolean;
  /** Error statuses beyond the ones every route documents (400, 401, 404, 413, 414, 431, 500, 503). */
  errors?: Array<{ status: number; description: string }>;
}

export interface HandlerInput<P extends string, A, B extends Schema, Q extends Schema> {
  c: Context<AppEnv>;
  log: Logger;
  params: PathParams<P>;
  auth: A;
  body: Out<B, undefined>;
  query: Out<Q, undefined>;
}

export interface Api<A extends Record<string, AuthScheme<unknown>>> {
  readonly basePath: string;
  readonly router: Hono<AppEnv>;
  route<P extends string, K extends keyof A | 'none', B extends Schema = undefined, Q extends Schema = undefined, R extends Schema = undefined>(
    def: RouteDef<P, K, B, Q, R>,
    handler: (input: HandlerInput<P, K extends keyof A ? Awaited<ReturnType<A[K]['authenticate']>> : null, B, Q>) =>
      Promise<R extends z.ZodType ? z.input<R> : void | Response>,
  ): void;
  document(): JsonSchema;
}

export interface ApiOptions<A> {
  basePath: string;
  title: string;
  version: string;
  description: string;
  auth: A;
}

const toHonoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/**
 * @example
 * const api = createApi({ basePath: '/client/v1', title: 'Client API', version: '1', description: '…', auth: { member } });
 * api.route({ operationId: 'getMe', method: 'get', path: '/me', summary: 'Who am I', tag: 'members', auth: 'member', status: 200, response: MeResponse },
 *   async ({ auth }) => ({ member: auth.member }));
 * app.route(api.basePath, api.router);
 */
export function createApi<A extends Record<string, AuthScheme<unknown>>>(options: ApiOptions<A>): Api<A> {
  const router = new Hono<AppEnv>();
  const operations: OpenApiOperation[] = [];
  let cached: JsonSchema | undefined;

  const api: Api<A> = {
    basePath: options.basePath,
    router,
    route(def, handler) {
      const scheme = def.auth === 'none' ? undefined : options.auth[def.auth as keyof A];
      if (def.auth !== 'none' && scheme === undefined) throw new Error(`Unknown auth ${String(def.auth)} on ${def.operationId}`);
      const writes = def.method !== 'get' && def.reads !== true;
      router.on(def.method.toUpperCase(), toHonoPath(def.path), async (c) => {
        // NUL and ill-formed Unicode never reach a schema, a handler or the database (a 400 naming where).
        assertCleanUrl(c.req.url, c.req.param() as Record<string, string>, c.req.queries());
        const auth = scheme === undefined ? null : await scheme.authenticate(c);
        if (writes && scheme?.guardWrite !== undefined) scheme.guardWrite(auth);
        const query = def.query === undefined ? undefined : parseWith(def.query, c.req.query());
        const body = def.body === undefined ? undefined : await readJson(c, def.body, {
          maxBytes: def.maxBytes ?? DEFAULT_MAX_BODY_BYTES,
          ...(def.maxDepth === undefined ? {} : { maxDepth: def.maxDepth }),
          ...(def.tooDeep === undefined ? {} : { tooDeep: def.tooDeep }),
        });
        const result = await handler({ c, log: c.get('log'), params: c.req.param() as never, auth: auth as never, body: body as never, query: query as never });
        if (def.produces !== undefined && result instanceof Response) return result;
        if (def.status === 204 || def.response === undefined) return c.body(null, def.status === 204 ? 204 : def.status);
        // Answers pass through their schema too: unknown fields are stripped (nothing internal
        // leaks) and a handler that breaks its documented shape fails loudly instead of silently.
        const checked = def.response.safeParse(result);
        if (!checked.success) {
          throw new PlatformError('PlatformApiInternalServerError', 'Internal server error', {
            cause: new Error(`${def.operationId} answered outside its schema: ${z.prettifyError(checked.error)}`),
          });
        }
        return c.json(checked.data as object, def.status as ContentfulStatusCode);
      });
      const errors = [
        // Every route: a URL that is not percent-encoded UTF-8, or NUL / ill-formed Unicode in a parameter.
        { status: 400, description: 'PlatformApiInvalidRequestError: the request does not match the schema, or a parameter or string holds NUL or ill-formed Unicode' },
        ...(scheme !== undefined ? [{ status: 401, description: 'PlatformAppTokenMissingError or PlatformAppTokenInvalidError' }] : []),
        ...(def.path.includes('{') ? [{ status: 404, description: 'Not found (or not visible to the caller)' }] : []),
        ...(def.body !== undefined ? [{ status: 413, description: 'PlatformApiPayloadTooLargeError' }] : []),
        // Refused before routing (core/http/transport-limits.ts), so any operation can answer them.
        { status: 414, description: 'PlatformApiUriTooLongError: the URL is over 8 KB' },
        { status: 431, description: 'PlatformApiHeadersTooLargeError: the request line and headers are over 16 KB' },
        ...(def.errors ?? []),
        ...(writes && scheme?.writeRefusal !== undefined ? [scheme.writeRefusal] : []),
        { status: 500, description: 'PlatformApiInternalServerError' },
        { status: 503, description: 'PlatformApiServiceUnavailableError: the database cannot be reached for now; retry after the Retry-After seconds' },
      ].sort((a, b) => a.status - b.status);
      const security = scheme === undefined ? [] : [{ [String(def.auth)]: [] }, ...(scheme.optional ? [{}] : [])];
      operations.push({
        method: def.method,
        path: def.path,
        operationId: def.operationId,
        summary: def.summary,
        ...(def.description === undefined ? {} : { description: def.description }),
        tag: def.tag,
        security,
        ...(def.body === undefined ? {} : { requestBody: def.body }),
        ...(def.consumes === undefined ? {} : { requestContent: def.consumes }),
        ...(def.query === undefined ? {} : { query: def.query }),
        success: { status: def.status, description: def.summary, ...(def.response === undefined ? {} : { schema: def.response }), ...(def.produces === undefined ? {} : { contentType: def.produces }) },
        errors: dedupeByStatus(errors),
      });
      cached = undefined;
    },
    document() {
      cached ??= buildOpenApiDocument({
        title: options.title,
        version: options.version,
        description: options.description,
        basePath: options.basePath,
        securitySchemes: Object.fromEntries(Object.entries(options.auth).map(([name, s]) => [name, s.scheme])),
        operations,
      });
      return cached;
    },
  };
  router.get('/openapi.json', (c) => c.json(api.document()));
  return api;
}

function dedupeByStatus(errors: Array<{ status: number; description: string }>) {
  const by = new Map<number, string[]>();
  for (const e of errors) by.set(e.status, [...(by.get(e.status) ?? []), e.description]);
  return [...by].map(([status, d]) => ({ status, description: d.join('; ') }));
}
