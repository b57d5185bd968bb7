/**
 * @module wiring/client-routes
 * The workspace client API under `/client/v1`: every feature's routes registered into one API
 * builder, which also serves `/client/v1/openapi.json`.
 */
import type { Config } from '../core/config/config.ts';
import { createClientApi as createApi, type ClientApi } from '../core/http/client-api.ts';
import { memberAuthScheme } from '../workspace/api-keys/auth.ts';
import { registerApiKeyRoutes } from '../workspace/api-keys/client-routes.ts';
import { registerMemberRoutes } from '../workspace/members/client-routes.ts';
import { registerWorkspaceRoutes } from '../workspace/workspaces/client-routes.ts';
import { operatorAuthScheme } from '../core/auth/operator.ts';
import { registerCircleRoutes } from '../workspace/circles/client-routes.ts';
import { registerConversationRoutes } from '../workspace/conversations/client-routes.ts';
import { registerMessageRoutes } from '../workspace/messages/client-routes.ts';
import type { ClientServices } from './workspace.ts';
import { registerCiIdentityClientRoutes } from '../apps/ci-identities/client-routes.ts';
import type { CiIdentitiesService } from '../apps/ci-identities/service.ts';
import { registerAgentTokenClientRoutes } from '../apps/tokens/client-routes.ts';
import type { TokenService } from '../apps/tokens/service.ts';
import type { AppFeatures } from './apps.ts';
import { registerAppRoutes } from '../apps/apps/client-routes.ts';
import { registerDomainRoutes } from '../apps/domains/client-routes.ts';
import { registerInstallRoutes } from '../apps/installs/client-routes.ts';
import { registerCallRoutes } from '../workspace/calls/client-routes.ts';
import { registerDecisionRoutes } from '../workspace/decisions/client-routes.ts';
import { registerDeliveryRoutes } from '../deliveries/page/client-routes.ts';
import { registerMailRoutes } from '../workspace/mail/client-routes.ts';
import type { Lifecycle } from './deliveries.ts';
import type { BlocksFeature } from './blocks.ts';
import { registerInteractionRoutes } from '../blocks/interactions/client-routes.ts';
import { registerMemberBlockRoutes } from '../blocks/interactions/member-routes.ts';

/**
 * @example
 * const api = createClientApi({ config, services, credentials: { tokens, ciIdentities }, apps, lifecycle });
 * app.route(api.basePath, api.router);
 */
export function createClientApi(deps: {
  config: Pick<Config, 'workspaceCreation' | 'operatorToken'>;
  services: ClientServices;
  credentials: { tokens: TokenService; ciIdentities: CiIdentitiesService };
  apps: AppFeatures;
  lifecycle: Pick<Lifecycle, 'deliveries' | 'mail'>;
  blocks: Pick<BlocksFeature, 'interactions' | 'members'>;
}): ClientApi {
  const api = createApi({ member: memberAuthScheme(deps.services.apiKeys), operator: operatorAuthScheme(deps.config) });
  registerWorkspaceRoutes(api, deps.services.workspaces);
  registerMemberRoutes(api, deps.services.members);
  registerApiKeyRoutes(api, deps.services.apiKeys);
  registerCircleRoutes(api, deps.services.circles);
  registerConversationRoutes(api, deps.services.conversations);
  registerMessageRoutes(api, deps.services.messages);
  registerAgentTokenClientRoutes(api, deps.credentials.tokens);
  registerCiIdentityClientRoutes(api, deps.credentials.ciIdentities);
  registerAppRoutes(api, deps.apps.apps);
  registerDomainRoutes(api, deps.apps.domains);
  registerInstallRoutes(api, deps.apps.installs);
  registerDecisionRoutes(api, deps.services.decisions);
  registerCallRoutes(api, deps.services.calls);
  registerDeliveryRoutes(api, deps.lifecycle.deliveries);
  registerMailRoutes(api, deps.lifecycle.mail);
  registerInteractionRoutes(api, deps.blocks.interactions);
  registerMemberBlockRoutes(api, deps.blocks.members);
  return api;
}
