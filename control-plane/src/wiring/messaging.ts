/**
 * @module wiring/messaging
 * Wires the messaging area once: messages apps post (replies, stream events) and the member's side
 * of streams, inbox notifications, workspace memories, search objects and the member's search,
 * references (pushes, link cards, reference search). Holds no logic of its own.
 */
import type { ImageCopier } from '../apps/assets/copy.ts';
import type { Clock } from '../core/clock/clock.ts';
import type { Db } from '../core/db/db.ts';
import type { Kv } from '../core/kv/kv.ts';
import type { Logger } from '../core/log/logger.ts';
import type { InteractiveEngine } from '../deliveries/interactive/engine.ts';
import { createAppMessagesService, type AppMessagesService } from '../messaging/app-messages/service.ts';
import { createStreamAdmin, type StreamAdmin } from '../messaging/app-messages/stream-admin.ts';
import { createMemoriesService, type MemoriesService } from '../messaging/memories/service.ts';
import { createNotificationsService, type NotificationsService } from '../messaging/notifications/service.ts';
import { createMemberLinks, type MemberLinks } from '../messaging/references/links.ts';
import { createReferenceResolver } from '../messaging/references/resolve.ts';
import { createReferenceSearch, type ReferenceSearch } from '../messaging/references/search.ts';
import { createReferencesService, type ReferencesService } from '../messaging/references/service.ts';
import { createSearchKinds } from '../messaging/search/kinds.ts';
import { createMemberSearch, type MemberSearch } from '../messaging/search/member-search.ts';
import { createSearchService, type SearchService } from '../messaging/search/service.ts';
import type { EventProducer } from '../workspace/events/index.ts';
import type { MessagesService } from '../workspace/messages/service.ts';

export interface MessagingAreaDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
  logger: Logger;
  events: EventProducer;
  /** Where members open a conversation (answers of stream events). */
  publicUrl: string;
  /** The deliveries area's interactive engine (`reference.resolve`, `reference.search`). */
  engine: InteractiveEngine;
  /** Reading a message as a member (workspace area), for its link cards. */
  messages: Pick<MessagesService, 'get'>;
  /** The apps area's image copier (reference trees and icons, persona avatars, reply images). */
  images: ImageCopier;
}

export interface MessagingArea {
  appMessages: AppMessagesService;
  streams: StreamAdmin;
  notifications: NotificationsService;
  memories: MemoriesService;
  search: SearchService;
  memberSearch: MemberSearch;
  references: ReferencesService;
  links: MemberLinks;
  referenceSearch: ReferenceSearch;
}

/**
 * @example
 * const messaging = createMessagingArea({ db, kv, clock, logger, events, publicUrl, engine, messages: workspace.messages });
 * registerNotificationRoutes(v0, messaging.notifications);
 */
export function createMessagingArea(deps: MessagingAreaDeps): MessagingArea {
  const { db, kv, clock } = deps;
  // Reference kinds of versions (immutable rows), read once per process for every feature asking.
  const kinds = createSearchKinds({ db });
  return {
    appMessages: createAppMessagesService({ db, kv, clock, events: deps.events, publicUrl: deps.publicUrl, images: deps.images }),
    streams: createStreamAdmin({ db, clock }),
    notifications: createNotificationsService({ db, kv, clock }),
    memories: createMemoriesService({ db, kv, clock }),
    search: createSearchService({ db, clock, kinds }),
    memberSearch: createMemberSearch({ db }),
    references: createReferencesService({ db, clock, kinds, images: deps.images }),
    links: createMemberLinks({ db, messages: deps.messages, resolver: createReferenceResolver({ db, clock, logger: deps.logger, engine: deps.engine, images: deps.images }) }),
    referenceSearch: createReferenceSearch({ db, engine: deps.engine, kinds }),
  };
}
