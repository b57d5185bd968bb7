/**
 * @module wiring/client-routes
 * The one list of the workspace client API's routes (`/client/v1`): each feature folder's
 * client-routes.ts registers its own, given its own service, in the order they appear in the
 * OpenAPI document (and are matched).
 */
import type { ClientApi } from '../core/http/client-api.ts';
import { registerAppClientRoutes } from '../apps/apps/client-routes.ts';
import { registerCiIdentityClientRoutes } from '../apps/ci-identities/client-routes.ts';
import { registerDomainClientRoutes } from '../apps/domains/client-routes.ts';
import { registerInstallClientRoutes } from '../apps/installs/client-routes.ts';
import { registerStorageClientRoutes } from '../apps/storage/client-routes.ts';
import { registerOperatorMetricsClientRoutes } from '../apps/operator-metrics/client-routes.ts';
import { registerUsageClientRoutes } from '../apps/usage/client-routes.ts';
import { registerTokenClientRoutes } from '../apps/tokens/client-routes.ts';
import { registerInteractionClientRoutes } from '../blocks/interactions/client-routes.ts';
import { registerInvocationClientRoutes } from '../blocks/invocations/client-routes.ts';
import { registerPlaygroundClientRoutes } from '../blocks/playground/client-routes.ts';
import { registerDeliveryPageClientRoutes } from '../deliveries/page/client-routes.ts';
import { registerAppMessageClientRoutes } from '../messaging/app-messages/client-routes.ts';
import { registerMemoryClientRoutes } from '../messaging/memories/client-routes.ts';
import { registerNotificationClientRoutes } from '../messaging/notifications/client-routes.ts';
import { registerReferenceClientRoutes } from '../messaging/references/client-routes.ts';
import { registerSearchClientRoutes } from '../messaging/search/client-routes.ts';
import { registerApiKeyClientRoutes } from '../workspace/api-keys/client-routes.ts';
import { registerCallClientRoutes } from '../workspace/calls/client-routes.ts';
import { registerCircleClientRoutes } from '../workspace/circles/client-routes.ts';
import { registerConversationClientRoutes } from '../workspace/conversations/client-routes.ts';
import { registerDecisionClientRoutes } from '../workspace/decisions/client-routes.ts';
import { registerMailClientRoutes } from '../workspace/mail/client-routes.ts';
import { registerMemberClientRoutes } from '../workspace/members/client-routes.ts';
import { registerMessageClientRoutes } from '../workspace/messages/client-routes.ts';
import { registerWorkspaceClientRoutes } from '../workspace/workspaces/client-routes.ts';
import type { AppsArea } from './apps.ts';
import type { BlocksArea } from './blocks.ts';
import type { DeliveriesArea } from './deliveries.ts';
import type { MessagingArea } from './messaging.ts';
import type { WorkspaceArea } from './workspace.ts';

export interface ClientRouteParts {
  workspace: WorkspaceArea;
  apps: Pick<AppsArea, 'apps' | 'domains' | 'installs' | 'tokens' | 'ciIdentities' | 'operatorMetrics' | 'storageAdmin' | 'usage'>;
  deliveries: Pick<DeliveriesArea, 'deliveries' | 'mail'>;
  messaging: MessagingArea;
  blocks: Pick<BlocksArea, 'interactions' | 'members' | 'playground' | 'invocations'>;
}

/**
 * @example
 * const api = createClientApi({ member: memberAuthScheme(workspace.apiKeys), operator: operatorAuthScheme(config) });
 * registerClientRoutes(api, { workspace, apps, deliveries, messaging, blocks });
 */
export function registerClientRoutes(api: ClientApi, p: ClientRouteParts): void {
  registerWorkspaceClientRoutes(api, p.workspace.workspaces);
  registerMemberClientRoutes(api, p.workspace.members);
  registerApiKeyClientRoutes(api, p.workspace.apiKeys);
  registerCircleClientRoutes(api, p.workspace.circles);
  registerConversationClientRoutes(api, p.workspace.conversations);
  registerMessageClientRoutes(api, p.workspace.messages);
  registerTokenClientRoutes(api, p.apps.tokens);
  registerCiIdentityClientRoutes(api, p.apps.ciIdentities);
  registerAppClientRoutes(api, p.apps.apps);
  registerDomainClientRoutes(api, p.apps.domains);
  registerInstallClientRoutes(api, p.apps.installs);
  registerStorageClientRoutes(api, p.apps.storageAdmin);
  registerOperatorMetricsClientRoutes(api, p.apps.operatorMetrics);
  registerUsageClientRoutes(api, p.apps.usage);
  registerDecisionClientRoutes(api, p.workspace.decisions);
  registerCallClientRoutes(api, p.workspace.calls);
  registerDeliveryPageClientRoutes(api, p.deliveries.deliveries);
  registerMailClientRoutes(api, p.deliveries.mail);
  registerInteractionClientRoutes(api, p.blocks.interactions, p.blocks.members);
  registerPlaygroundClientRoutes(api, p.blocks.playground);
  registerNotificationClientRoutes(api, p.messaging.notifications);
  registerMemoryClientRoutes(api, p.messaging.memories);
  registerSearchClientRoutes(api, p.messaging.memberSearch);
  registerReferenceClientRoutes(api, { links: p.messaging.links, search: p.messaging.referenceSearch });
  registerAppMessageClientRoutes(api, p.messaging.streams);
  registerInvocationClientRoutes(api, p.blocks.invocations);
}
