/**
 * @module apps/domains/client-routes
 * `/apps/{appId}/domains` of the client API: claim a domain, read the TXT record to publish,
 * verify it, drop it.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { AddDomainBody, DomainList, DomainResponse } from './schemas.ts';
import type { DomainsService } from './service.ts';

export function registerDomainClientRoutes(api: ClientApi, domains: DomainsService): void {
  api.route({
    operationId: 'addAppDomain', method: 'post', path: '/apps/{appId}/domains', tag: 'apps', auth: 'member',
    summary: 'Claim a domain; answers the TXT record to publish at _platform-verify.<domain>',
    body: AddDomainBody, status: 201, response: DomainResponse,
  }, async ({ auth, params, body }) => ({ domain: await domains.add(auth, params.appId, body.domain) }));

  api.route({
    operationId: 'listAppDomains', method: 'get', path: '/apps/{appId}/domains', tag: 'apps', auth: 'member',
    summary: 'Domains the app claimed, verified or not', status: 200, response: DomainList,
  }, async ({ auth, params }) => ({ items: await domains.list(auth, params.appId) }));

  api.route({
    operationId: 'verifyAppDomain', method: 'post', path: '/apps/{appId}/domains/{domain}/verify', tag: 'apps', auth: 'member',
    summary: 'Look the TXT record up and mark the domain verified', status: 200, response: DomainResponse,
    errors: [
      { status: 409, description: 'PlatformApiConflictError: the TXT record is not published (yet)' },
      { status: 503, description: 'PlatformApiServiceUnavailableError: the DNS lookup failed' },
    ],
  }, async ({ auth, params }) => ({ domain: await domains.verify(auth, params.appId, params.domain) }));

  api.route({
    operationId: 'removeAppDomain', method: 'delete', path: '/apps/{appId}/domains/{domain}', tag: 'apps', auth: 'member',
    summary: 'Drop a claimed domain', status: 204,
  }, async ({ auth, params }) => domains.remove(auth, params.appId, params.domain));
}
