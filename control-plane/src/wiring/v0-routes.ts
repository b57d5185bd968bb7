/**
 * @module wiring/v0-routes
 * The one list of the app API's routes (`/v0`): each feature folder's v0-routes.ts registers its
 * own, given its own service, in the order they appear in the OpenAPI document (and are matched).
 */
import type { Db } from '../core/db/db.ts';
import type { V0Api } from '../core/http/v0-api.ts';
import { registerAssetV0Routes } from '../apps/assets/v0-routes.ts';
import { registerCheckBundlesV0Routes } from '../apps/check-bundles/v0-routes.ts';
import { registerCheckTreesV0Routes } from '../apps/check-trees/v0-routes.ts';
import { registerCiIdentityV0Routes } from '../apps/ci-identities/v0-routes.ts';
import { registerCredentialV0Routes } from '../apps/credentials/v0-routes.ts';
import { registerDevAppV0Routes } from '../apps/dev-apps/v0-routes.ts';
import { registerEnvVarV0Routes } from '../apps/env-vars/v0-routes.ts';
import { registerAppLogV0Routes } from '../apps/logs/v0-routes.ts';
import { registerStorageV0Routes } from '../apps/storage/v0-routes.ts';
import { registerAppErrorV0Routes } from '../apps/errors/v0-routes.ts';
import { registerAppUsageV0Routes } from '../apps/usage/v0-routes.ts';
import { registerLogDrainV0Routes } from '../apps/log-drains/v0-routes.ts';
import type { LogDrainsService } from '../apps/log-drains/service.ts';
import { registerPublishV0Routes } from '../apps/publish/v0-routes.ts';
import { registerRolloutV0Routes } from '../apps/rollouts/v0-routes.ts';
import { registerBlockV0Routes } from '../blocks/app-api/v0-routes.ts';
import { registerInvocationV0Routes } from '../blocks/invocations/v0-routes.ts';
import { registerReplayV0Routes } from '../deliveries/replay/v0-routes.ts';
import { registerQueueV0Routes } from '../deliveries/queues/v0-routes.ts';
import { registerInitiativeV0Routes } from '../deliveries/initiative/v0-routes.ts';
import { registerAppMessageV0Routes } from '../messaging/app-messages/v0-routes.ts';
import { registerMemoryV0Routes } from '../messaging/memories/v0-routes.ts';
import { registerNotificationV0Routes } from '../messaging/notifications/v0-routes.ts';
import { registerReferenceV0Routes } from '../messaging/references/v0-routes.ts';
import { registerSearchV0Routes } from '../messaging/search/v0-routes.ts';
import type { AppsArea } from './apps.ts';
import type { BlocksArea } from './blocks.ts';
import type { DeliveriesArea } from './deliveries.ts';
import type { MessagingArea } from './messaging.ts';

export interface V0RouteParts {
  /** The database, for the tooling guards of routes that take it (storage). */
  db: Db;
  apps: Pick<AppsArea, 'accessTokens' | 'ciIdentities' | 'treeChecker' | 'bundleChecker' | 'assetUploads' | 'devApps' | 'versions' | 'versionHistory' | 'rollouts' | 'envVars' | 'logs' | 'errors' | 'storage' | 'usage'>;
  deliveries: Pick<DeliveriesArea, 'replays' | 'queues' | 'initiative'>;
  messaging: MessagingArea;
  blocks: Pick<BlocksArea, 'blocks' | 'invocations'>;
  logDrains: LogDrainsService;
}

/**
 * @example
 * const v0 = createV0Api({ resolver: apps.resolver });
 * registerV0Routes(v0, { apps, deliveries, messaging, blocks });
 */
export function registerV0Routes(api: V0Api, p: V0RouteParts): void {
  registerCredentialV0Routes(api, p.apps.accessTokens);
  registerCiIdentityV0Routes(api, p.apps.ciIdentities);
  registerCheckTreesV0Routes(api, p.apps.treeChecker);
  registerCheckBundlesV0Routes(api, p.apps.bundleChecker);
  registerAssetV0Routes(api, p.apps.assetUploads);
  registerDevAppV0Routes(api, p.apps.devApps);
  registerPublishV0Routes(api, p.apps.versions, p.apps.versionHistory);
  registerRolloutV0Routes(api, p.apps.rollouts);
  registerEnvVarV0Routes(api, p.apps.envVars);
  registerAppLogV0Routes(api, p.apps.logs);
  registerAppErrorV0Routes(api, p.apps.errors);
  registerAppUsageV0Routes(api, p.apps.usage);
  registerLogDrainV0Routes(api, p.logDrains);
  registerReplayV0Routes(api, p.deliveries.replays);
  registerQueueV0Routes(api, p.deliveries.queues);
  registerInitiativeV0Routes(api, p.deliveries.initiative);
  registerBlockV0Routes(api, p.blocks.blocks);
  registerStorageV0Routes(api, p.apps.storage, p.db);
  registerNotificationV0Routes(api, p.messaging.notifications);
  registerMemoryV0Routes(api, p.messaging.memories);
  registerAppMessageV0Routes(api, p.messaging.appMessages);
  registerSearchV0Routes(api, p.messaging.search);
  registerReferenceV0Routes(api, p.messaging.references);
  registerInvocationV0Routes(api, p.blocks.invocations);
}
