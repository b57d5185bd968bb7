/**
 * @module wiring/workspace
 * Wires the workspace area once: the services behind workspaces, members, API keys, circles,
 * conversations, messages, decisions and calls. The demo seed builds the same services inside its
 * transaction, so the rules live in one place.
 */
import type { Clock } from '../core/clock/clock.ts';
import type { Db } from '../core/db/db.ts';
import type { Invalidation } from '../core/invalidation/invalidation.ts';
import type { Logger } from '../core/log/logger.ts';
import { createApiKeyCache } from '../workspace/api-keys/cache.ts';
import { createApiKeysService, type ApiKeysService } from '../workspace/api-keys/service.ts';
import { createCallsService, type CallsService } from '../workspace/calls/service.ts';
import { createCirclesService, type CirclesService } from '../workspace/circles/service.ts';
import { createConversationsService, type ConversationsService } from '../workspace/conversations/service.ts';
import { createDecisionsService, type DecisionsService } from '../workspace/decisions/service.ts';
import type { EventProducer } from '../workspace/events/index.ts';
import { createMembersService, type MembersService } from '../workspace/members/service.ts';
import type { RemoveCarried } from '../workspace/messages/delete.ts';
import { createMessagesService, type MessagesService } from '../workspace/messages/service.ts';
import { createWorkspacesService, type WorkspacesService } from '../workspace/workspaces/service.ts';

export interface WorkspaceArea {
  apiKeys: ApiKeysService;
  workspaces: WorkspacesService;
  members: MembersService;
  circles: CirclesService;
  conversations: ConversationsService;
  messages: MessagesService;
  decisions: DecisionsService;
  calls: CallsService;
}

export interface WorkspaceAreaDeps {
  db: Db;
  clock: Clock;
  /** Records lifecycle events with the changes that cause them (default: recorded, no wake-up: the loops' poll finds them). */
  events?: EventProducer;
  /** What goes away with a deleted message (its block, from the blocks area). */
  removeCarried?: RemoveCarried;
  /** Cache invalidation across replicas: with it, who is behind member keys is kept in memory (dropped on revocation everywhere). */
  invalidation?: Invalidation;
  logger?: Logger;
}

/**
 * @example
 * const workspace = createWorkspaceArea({ db, clock, events, removeCarried });
 * await workspace.circles.create(actor, { name: 'General', visibility: 'public', chat: true });
 */
export function createWorkspaceArea(deps: WorkspaceAreaDeps): WorkspaceArea {
  const cache = deps.invalidation === undefined ? undefined
    : createApiKeyCache({ invalidation: deps.invalidation, clock: deps.clock, ...(deps.logger === undefined ? {} : { logger: deps.logger }) });
  const apiKeys = createApiKeysService({ db: deps.db, clock: deps.clock, ...(cache === undefined ? {} : { cache }) });
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
