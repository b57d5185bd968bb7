/**
 * @module egress/service
 * Performs a guest's outbound fetch in the supervisor: per-request count (≤ 50, redirect hops
 * included), routing (policy.ts), the guarded dispatcher (connector.ts), redirects followed here
 * with every hop checked again (≤ 5), request headers the guest may not send removed on every hop
 * (headers.ts), the install token added only on the platform route and only when the guest sent no
 * authorization of its own, bodies capped and decompressed with the cap,
 * timeouts bounded by the request's deadline, and metrics per app and host.
 */
import type { SpanContext } from '@opentelemetry/api';
import { LIMITS } from '@platform/sdk';
import { Agent, request } from 'undici';
import type { GuestFetchInit, GuestFetchResult } from '../shared/bridge.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { BodyTooLargeError, readDecoded } from './body.ts';
import { BlockedAddressError, createGuardedAgent, type Lookup } from './connector.ts';
import { STRIPPED_RESPONSE_HEADERS, guestRequestHeaders } from './headers.ts';
import { EgressDenied, OTHER_HOST, routeFor, type Route } from './policy.ts';

export interface EgressContext {
  appId: string;
  egressHosts: readonly string[];
  /** Origin of `baseUrl`, whose `/v0` the app may call with its install token. */
  platformOrigin: string | null;
  installToken: string | null;
  deadlineAt: number;
  /** Outbound requests sent so far by this request. */
  sent: number;
  /** The run's span when traces are exported (telemetry/tracing.ts sets it; egress spans are its children). */
  trace?: SpanContext | null;
}

export interface EgressDeps {
  metrics: Metrics;
  timeoutMs: number;
  maxResponseBytes: number;
  testLoopbackHosts: readonly string[];
  now: () => number;
  lookup?: Lookup;
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createEgress(deps: EgressDeps) {
  const guarded = createGuardedAgent({ connectTimeoutMs: deps.timeoutMs, testLoopbackHosts: deps.testLoopbackHosts, lookup: deps.lookup });
  const platform = new Agent({ connections: 64, keepAliveTimeout: 10_000 });
  const loopback = new Set(deps.testLoopbackHosts);

  const deny = (ctx: EgressContext, err: EgressDenied): never => {
    deps.metrics.egressBlocked.inc({ app: ctx.appId, host: err.hostLabel, reason: err.reason });
    throw err;
  };

  const outgoingHeaders = (list: Array<[string, string]>, route: Route, ctx: EgressContext, crossOrigin: boolean): Record<string, string | string[]> => {
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of guestRequestHeaders(list)) {
      if (crossOrigin && (name === 'authorization' || name === 'cookie')) continue;
      const prev = out[name];
      out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    if (route.kind === 'platform' && ctx.installToken !== null && out.authorization === undefined) out.authorization = `Bearer ${ctx.installToken}`;
    out['accept-encoding'] = 'gzip, deflate, br';
    if (out['user-agent'] === undefined) out['user-agent'] = 'platform-runtime';
    return out;
  };

  async function fetch(ctx: EgressContext, init: GuestFetchInit, signal: AbortSignal): Promise<GuestFetchResult> {
    let url = URL.parse(init.url);
    if (url === null) return deny(ctx, new EgressDenied('invalid-url', OTHER_HOST, 'The URL is not valid'));
    let method = init.method.toUpperCase();
    let body = init.body;
    let headers = init.headers;
    let crossOrigin = false;
    for (let hop = 0; ; hop++) {
      ctx.sent++;
      if (ctx.sent > LIMITS.hosted.outboundRequestsPerRequest) {
        deny(ctx, new EgressDenied('too-many-requests', OTHER_HOST, `At most ${LIMITS.hosted.outboundRequestsPerRequest} outbound requests per request`));
      }
      let route: Route;
      try {
        route = routeFor(url, ctx.egressHosts, ctx.platformOrigin, loopback);
      } catch (err) {
        return deny(ctx, err as EgressDenied);
      }
      const labels = { app: ctx.appId, host: route.hostLabel };
      deps.metrics.egressRequests.inc(labels);
      if (body !== null) deps.metrics.egressBytes.inc({ ...labels, direction: 'out' }, body.byteLength);
      const remaining = Math.max(1, Math.min(deps.timeoutMs, ctx.deadlineAt - deps.now()));
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(url, {
          method: method as 'GET',
          headers: outgoingHeaders(headers, route, ctx, crossOrigin),
          body: body === null ? null : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
          dispatcher: route.kind === 'platform' ? platform : guarded,
          signal: AbortSignal.any([signal, AbortSignal.timeout(remaining)]),
          headersTimeout: remaining,
          bodyTimeout: remaining,
        });
      } catch (err) {
        const blocked = findBlocked(err);
        if (blocked !== null) return deny(ctx, new EgressDenied('address', route.hostLabel, blocked.message));
        throw new Error(signal.aborted ? 'The request was aborted' : `fetch failed: ${describe(err)}`);
      }
      const location = headerValue(res.headers.location);
      if (REDIRECTS.has(res.statusCode) && location !== null && init.redirect !== 'manual') {
        // Drain (a little) rather than destroy: destroying an undici body emits an error no one hears.
        await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
        if (init.redirect === 'error') throw new Error('fetch failed: redirect not allowed (redirect: "error")');
        if (hop >= MAX_REDIRECTS) deny(ctx, new EgressDenied('too-many-redirects', route.hostLabel, `More than ${MAX_REDIRECTS} redirects`));
        const next = URL.parse(location, url.href);
        if (next === null) throw new Error('fetch failed: invalid redirect location');
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          if (method !== 'HEAD') method = 'GET';
          body = null;
          headers = headers.filter(([n]) => !/^content-/i.test(n));
        }
        crossOrigin = crossOrigin || next.origin !== url.origin;
        url = next;
        continue;
      }
      let read: { bytes: Uint8Array; decoded: boolean };
      try {
        read = await readDecoded(res.body, headerValue(res.headers['content-encoding']), deps.maxResponseBytes);
      } catch (err) {
        if (err instanceof BodyTooLargeError) return deny(ctx, new EgressDenied('response-too-large', route.hostLabel, err.message));
        throw new Error(`fetch failed while reading the body: ${describe(err)}`);
      }
      deps.metrics.egressBytes.inc({ ...labels, direction: 'in' }, read.bytes.byteLength);
      const list: Array<[string, string]> = [];
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined || STRIPPED_RESPONSE_HEADERS.has(name) || (read.decoded && (name === 'content-encoding' || name === 'content-length'))) continue;
        for (const v of Array.isArray(value) ? value : [value]) list.push([name, v]);
      }
      return { status: res.statusCode, statusText: '', headers: list, body: read.bytes, url: url.href, redirected: hop > 0 };
    }
  }

  return {
    fetch,
    async close(): Promise<void> {
      await Promise.all([guarded.close(), platform.close()]);
    },
  };
}

export type Egress = ReturnType<typeof createEgress>;

function headerValue(v: string | string[] | undefined): string | null {
  return v === undefined ? null : Array.isArray(v) ? v[0] ?? null : v;
}

function findBlocked(err: unknown): BlockedAddressError | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = (e as Error & { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedAddressError) return e;
    if (e instanceof AggregateError) for (const inner of e.errors) if (inner instanceof BlockedAddressError) return inner;
  }
  return null;
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' ? code : err instanceof Error ? err.message.slice(0, 200) : 'network error';
}
