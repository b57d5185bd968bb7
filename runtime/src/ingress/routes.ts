/**
 * @module ingress/routes
 * Hosted ingress: `/apps/{slug}/…` (and every path of host `{slug}.{hosted_app_domain}` when that
 * domain is configured) runs the app's latest production version. The guest sees paths relative to
 * its own root, with `x-forwarded-prefix` saying where it is mounted. Paths under `/mcp` are MCP
 * requests (their CPU budget); `/platform` is refused here: deliveries come only through the
 * internal API, signed by this node.
 */
import { HOSTED_DELIVERY_PATH, LIMITS, PlatformError } from '@platform/sandbox-lib';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, Hono } from 'hono';
import { readBody } from '../http/body.ts';
import { toHttpResponse } from '../http/guest-response.ts';
import type { RunService } from '../runs/service.ts';
import type { AppDirectory } from './directory.ts';

const ROUTE_RESPONSE_MAX_BYTES = 10 * 1024 * 1024;
const DROP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'host', 'content-length']);

export interface IngressDeps {
  directory: AppDirectory;
  runs: RunService;
  hostedAppDomain: string | null;
  maxBodyBytes: number;
  appOrigin: (slug: string) => string;
}

function forwardedHeaders(c: Context, prefix: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  c.req.raw.headers.forEach((value, name) => {
    if (DROP.has(name) || name.startsWith('platform-') || name.startsWith('webhook-') || name.startsWith('x-forwarded-')) return;
    out.push([name, value]);
  });
  const url = new URL(c.req.url);
  let client = '';
  try {
    client = getConnInfo(c).remote.address ?? '';
  } catch {
    // not behind @hono/node-server (app.request in tests)
  }
  out.push(['x-forwarded-host', url.host], ['x-forwarded-proto', url.protocol.slice(0, -1)], ['x-forwarded-prefix', prefix]);
  if (client !== '') out.push(['x-forwarded-for', client]);
  return out;
}

async function serve(c: Context, deps: IngressDeps, slug: string, path: string, prefix: string): Promise<Response> {
  if (!LIMITS.identifiers.appSlug.test(slug)) throw new PlatformError('PlatformAppNotFoundError', 'No such app');
  const app = await deps.directory.resolve(slug);
  if (app === null) throw new PlatformError('PlatformAppNotFoundError', 'No such app, or it has no production version');
  const appPath = path === '' ? '/' : path;
  if (appPath === HOSTED_DELIVERY_PATH || appPath.startsWith(`${HOSTED_DELIVERY_PATH}/`)) {
    throw new PlatformError('PlatformApiNotFoundError', 'Deliveries reach hosted apps only through the platform');
  }
  const kind = appPath === '/mcp' || appPath.startsWith('/mcp/') ? 'mcp' : 'route';
  const method = c.req.method;
  const body = method === 'GET' || method === 'HEAD' ? null : await readBody(c, deps.maxBodyBytes);
  const search = new URL(c.req.url).search;
  const requestId = deps.runs.nextRequestId();
  const answer = await deps.runs.run({
    app: { id: app.appId, slug: app.slug, version: app.version },
    sha256: app.sha256,
    kind,
    env: app.env,
    secretEnvKeys: app.secretEnvKeys,
    egressHosts: app.egressHosts,
    baseUrl: app.baseUrl,
    installToken: null,
    request: { method, url: `${deps.appOrigin(slug)}${appPath}${search}`, headers: forwardedHeaders(c, prefix), body },
    deliveryId: null,
    signingSecret: null,
    maxResponseBytes: ROUTE_RESPONSE_MAX_BYTES,
  }, requestId);
  return toHttpResponse(requestId, answer, { internal: false, allowCookies: true });
}

/** Host-name ingress: must be mounted before every other route. */
export function mountHostIngress(app: Hono, deps: IngressDeps): void {
  const domain = deps.hostedAppDomain;
  if (domain === null) return;
  app.use('*', async (c, next) => {
    const host = (c.req.header('host') ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
    if (!host.endsWith(`.${domain}`)) return next();
    const slug = host.slice(0, -domain.length - 1);
    if (slug.includes('.')) return next();
    return serve(c, deps, slug, new URL(c.req.url).pathname, '');
  });
}

export function mountPathIngress(app: Hono, deps: IngressDeps): void {
  const handler = (c: Context): Promise<Response> => {
    const slug = c.req.param('slug') ?? '';
    const pathname = new URL(c.req.url).pathname;
    const prefix = `/apps/${slug}`;
    return serve(c, deps, slug, pathname.slice(prefix.length), prefix);
  };
  app.all('/apps/:slug', handler);
  app.all('/apps/:slug/*', handler);
}
