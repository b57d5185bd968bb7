/**
 * @module manifest/rules/mcp
 * `mcp-host-unverified`: an MCP server's host is covered by one of the owner's verified domains,
 * unless the app is private or the server lives on the app's own subdomain of the hosted-app
 * domain (`<slug>.<hostedAppDomain>` or below). Runs only when the service gives the verified
 * domains (`context.verifiedDomains`, possibly empty).
 */
import { hostCovers } from '../../hosts/index.ts';
import { manifestInvalid, type ManifestRule } from '../model/rule.ts';

export const mcpRule: ManifestRule = (manifest, context) => {
  if (!manifest.mcp || context.verifiedDomains === undefined || context.appPrivate) return null;
  const host = new URL(manifest.mcp.url).hostname;
  if (context.hostedAppDomain && hostCovers(`${manifest.slug}.${context.hostedAppDomain.toLowerCase()}`, host)) return null;
  if (context.verifiedDomains.some((domain) => hostCovers(domain.toLowerCase(), host))) return null;
  return manifestInvalid('mcp-host-unverified', `The MCP host ${host} is not covered by a verified domain`, ['mcp', 'url']);
};
