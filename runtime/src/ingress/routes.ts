/**
 * @module ingress/routes
 * Hosted ingress, served straight on node:http: `/apps/{slug}/…` (and every path of host
 * `{slug}.{hosted_app_domain}` when that domain is configured) runs the app's latest production
 * version. The guest sees paths relative to its own root, with `x-forwarded-prefix` saying where it
 * is mounted. Paths under `/mcp` are MCP requests (their CPU budget); `/platform` is refused here:
 * deliveries come only through the internal API, signed by the control plane.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HOSTED_DELIVERY_PATH, LIMITS, PlatformError } from '@platform/sdk';
import type { Logger } from 'pino';
import { writeAnswer } from '../http/answer.ts';
import { readIncoming } from '../http/body.ts';
import { writeError } from '../http/errors.ts';
import { routeLabel } from '../logs/request-label.ts';
import type { RunService } from '../runs/service.ts';
import type { AppDirectory } from './directory.ts';

const ROUTE_RESPONSE_MAX_BYTES = 10 * 1024 * 1024;
const DROP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'host', 'content-length', 'forwarded', 'via']);
const PATH_PREFIX = '/apps/';

export interface IngressDeps {
  directory: AppDirectory;
  /** The node's run service, or a worker's on handed connections (sandbox/local-runs.ts). */
  runs: Pick<RunService, 'run' | 'nextRequestId'>;
  hostedAppDomain: string | null;
  maxBodyBytes: number;
  appOrigin: (slug: string) => string;
  logger: Logger;
}

/** The client's headers as the guest sees them (a header block), plus where the request came from. */
function forwardedHeaders(req: IncomingMessage, prefix: string): string {
  let block = '';
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (DROP.has(name) || name.startsWith('platform-') || name.startsWith('webhook-') || name.startsWith('x-forwarded-')) continue;
    block += `${name}\n${raw[i + 1]!}\n`;
  }
  const client = req.socket.remoteAddress;
  block += `x-forwarded-host\n${req.headers.host ?? ''}\nx-forwarded-proto\n${'encrypted' in req.socket ? 'https' : 'http'}\nx-forwarded-prefix\n${prefix}`;
  return client === undefined ? block : `${block}\nx-forwarded-for\n${client}`;
}

/** Path and query as the guest's URL parser will read them (dot segments, percent-encoded dots resolved). */
function normalized(pathAndQuery: string): { path: string; search: string } {
  const q = pathAndQuery.indexOf('?');
  const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  // Nothing to resolve in a path without dots, percent signs or backslashes: no parse needed.
  if (path !== '' && !/[.%\\]/.test(path)) return { path, search: q === -1 ? '' : pathAndQuery.slice(q) };
  const url = new URL(path === '' ? `/${pathAndQuery}` : pathAndQuery, 'http://app.invalid');
  return { path: url.pathname, search: url.search };
}

export function createIngress(deps: IngressDeps) {
  const serve = async (req: IncomingMessage, res: ServerResponse, slug: string, pathAndQuery: string, prefix: string): Promise<void> => {
    let requestId: string | null = null;
    try {
      if (!LIMITS.identifiers.appSlug.test(slug)) throw new PlatformError('PlatformAppNotFoundError', 'No such app');
      const app = deps.directory.cached?.(slug) ?? await deps.directory.resolve(slug);
      if (app === null) throw new PlatformError('PlatformAppNotFoundError', 'No such app, or it has no production version');
      // Checked on the path the guest will see, so the /platform refusal cannot be walked around.
      const { path, search } = normalized(pathAndQuery);
      const appPath = path === '' ? '/' : path;
      if (appPath === HOSTED_DELIVERY_PATH || appPath.startsWith(`${HOSTED_DELIVERY_PATH}/`)) {
        throw new PlatformError('PlatformApiNotFoundError', 'Deliveries reach hosted apps only through the platform');
      }
      const method = req.method ?? 'GET';
      const body = method === 'GET' || method === 'HEAD' ? null : await readIncoming(req, deps.maxBodyBytes);
      requestId = deps.runs.nextRequestId();
      const result = await deps.runs.run({
        source: app,
        client: req,
        app: { id: app.appId, slug: app.slug, version: app.version },
        sha256: app.sha256,
        sourceMapSha256: app.sourceMapSha256 ?? null,
        kind: appPath === '/mcp' || appPath.startsWith('/mcp/') ? 'mcp' : 'route',
        env: app.env,
        secretEnvKeys: app.secretEnvKeys,
        egressHosts: app.egressHosts,
        baseUrl: app.baseUrl,
        installToken: null,
        request: { method, url: `${deps.appOrigin(slug)}${appPath}${search}`, headers: forwardedHeaders(req, prefix), body },
        deliveryId: null,
        installId: null,
        // Named as the client asked for it (`/apps/{slug}/…` when it came in that way), like the SDK's error lines.
        label: routeLabel(method, `${prefix}${appPath}`),
        maxResponseBytes: ROUTE_RESPONSE_MAX_BYTES,
      }, requestId);
      writeAnswer(res, requestId, result, { internal: false, allowCookies: true });
    } catch (err) {
      writeError(res, err, deps.logger, pathAndQuery, requestId === null ? {} : { 'x-request-id': requestId });
    }
  };

  return {
    /** The app a host name serves (`{slug}.{hosted_app_domain}`), or null. */
    slugOfHost(host: string | undefined): string | null {
      const domain = deps.hostedAppDomain;
      if (domain === null || host === undefined) return null;
      const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
      if (!name.endsWith(`.${domain}`)) return null;
      const slug = name.slice(0, -domain.length - 1);
      return slug.includes('.') ? null : slug;
    },
    isPath(url: string): boolean {
      return url.startsWith(PATH_PREFIX);
    },
    serveHost(req: IncomingMessage, res: ServerResponse, slug: string): Promise<void> {
      return serve(req, res, slug, req.url ?? '/', '');
    },
    /** `/apps/{slug}` and `/apps/{slug}/…`. */
    servePath(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const url = req.url ?? '/';
      const rest = url.slice(PATH_PREFIX.length);
      const end = rest.search(/[/?]/);
      const slug = end === -1 ? rest : rest.slice(0, end);
      return serve(req, res, slug, end === -1 ? '' : rest.slice(end), `/apps/${slug}`);
    },
  };
}

export type Ingress = ReturnType<typeof createIngress>;
