/**
 * @module wiring/workspace
 * The services behind the client API, wired once. Other parts (the demo seed, later the /v0 API)
 * use the same services, so the rules live in one place.
 */
import { createApiKeysService, type ApiKeysService } from '../workspace/api-keys/service.ts';
import type { Clock } from '../core/clock/clock.ts';
import type { Db } from '../core/db/db.ts';
import { createCirclesService, type CirclesService } from '../workspace/circles/service.ts';
import { createConversationsService, type ConversationsService } from '../workspace/conversations/service.ts';
import { createMembersService, type MembersService } from '../workspace/members/service.ts';
import { createMessagesService, type MessagesService } from '../workspace/messages/service.ts';
import { createWorkspacesService, type WorkspacesService } from '../workspace/workspaces/service.ts';
import { createCallsService, type CallsService } from '../workspace/calls/service.ts';
import { createDecisionsService, type DecisionsService } from '../workspace/decisions/service.ts';
import type { EventProducer } from '../workspace/events/index.ts';

export interface ClientServices {
  apiKeys: ApiKeysService;
  workspaces: WorkspacesService;
  members: MembersService;
  circles: CirclesService;
  conversations: ConversationsService;
  messages: MessagesService;
  decisions: DecisionsService;
  calls: CallsService;
}

/** `events` records lifecycle events with the changes that cause them (default: recorded, no wake-up: the loops' poll finds them). */
export function createClientServices(deps: { db: Db; clock: Clock; events?: EventProducer }): ClientServices {
  const apiKeys = createApiKeysService(deps);
  return {
    apiKeys,
    workspaces: createWorkspacesService({ ...deps, apiKeys }),
    members: createMembersService({ ...deps, apiKeys }),
    circles: createCirclesService(deps),
    conversations: createConversationsService(deps),
    messages: createMessagesService(deps),
    decisions: createDecisionsService(deps),
    calls: createCallsService(deps),
  };
}
