/**
 * @module wiring/v0-routes
 * The one list of `/v0` routes: each feature registers its own here, in the order they appear in
 * the OpenAPI document.
 */
import type { V0Api } from '../core/http/v0-api.ts';
import type { V0Deps } from './v0-deps.ts';
import { registerCredentialRoutes } from '../apps/credentials/v0-routes.ts';
import { registerDeployTokenRoutes } from '../apps/ci-identities/v0-routes.ts';
import { registerCheckTreesRoutes } from '../apps/check-trees/v0-routes.ts';
import { registerDevAppRoutes } from '../apps/dev-apps/v0-routes.ts';
import { registerVersionRoutes } from '../apps/publish/v0-routes.ts';
import { registerEnvVarRoutes } from '../apps/env-vars/v0-routes.ts';
import { registerBlockRoutes } from '../blocks/app-api/v0-routes.ts';
import { registerNotificationRoutes } from '../messaging/notifications/v0-routes.ts';
import { registerMemoryRoutes } from '../messaging/memories/v0-routes.ts';
import { registerAppMessageRoutes } from '../messaging/app-messages/v0-routes.ts';
import { createAppMessagesService } from '../messaging/app-messages/service.ts';
import { registerSearchRoutes } from '../messaging/search/v0-routes.ts';
import { registerReferenceRoutes } from '../messaging/references/v0-routes.ts';
import { registerInvocationRoutes } from '../blocks/invocations/v0-routes.ts';

export function registerV0Routes(api: V0Api, deps: V0Deps): void {
  registerCredentialRoutes(api, deps);
  registerDeployTokenRoutes(api, deps.ciIdentities);
  registerCheckTreesRoutes(api, deps);
  registerDevAppRoutes(api, deps.apps.devApps);
  registerVersionRoutes(api, deps.apps.versions);
  registerEnvVarRoutes(api, deps.apps.envVars);
  registerBlockRoutes(api, deps.blocks.blocks);
  registerNotificationRoutes(api, deps);
  registerMemoryRoutes(api, deps);
  registerAppMessageRoutes(api, createAppMessagesService({ ...deps, publicUrl: deps.config.publicUrl }));
  registerSearchRoutes(api, deps);
  registerReferenceRoutes(api, deps);
  registerInvocationRoutes(api, deps);
}
