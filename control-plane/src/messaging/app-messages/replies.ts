/**
 * @module messaging/app-messages/replies
 * `POST /v0/replies`: a message posted as the app, with exactly one target (the request schema
 * checks "exactly one"): `conversationId` (a top-level message of that conversation), `replyTo`
 * (a reply in that message's thread, which is the thread of its root) or `circleId` (a chat message,
 * only in circles that use chat; 409 otherwise). Targets outside the install's reach answer as if
 * absent, each with its own tag, exactly as block inserts do (messaging/app-messages/targets.ts).
 */
import { PlatformError, type ReplyRequest } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import { resolvePlace, targetGone } from './targets.ts';
import type { Clock } from '../../core/clock/clock.ts';
import { isForeignKeyViolation, type Db } from '../../core/db/db.ts';
import type { EventProducer } from '../../workspace/events/index.ts';
import { installRevoked, requireScope, type ReachGuard } from '../../apps/guards/index.ts';
import type { ImageCopier } from '../../apps/assets/copy.ts';
import { replyDocument } from './content.ts';
import { withCopiedDocumentImages } from './images.ts';
import { postAsApp, type AppMessagePlace } from './post.ts';
import { findAppFace } from './store.ts';

export interface RepliesDeps {
  db: Db;
  clock: Clock;
  reach: ReachGuard;
  events: EventProducer;
  /** Copies the document's images; copies are served at `{publicUrl}/assets/{id}`. */
  images: ImageCopier;
  publicUrl: string;
}

// A type alias: answers must fit the response schema's open object (an index signature).
export type ReplyAnswer = {
  id: string;
  circleId: string;
  conversationId: string | null;
};

const circleNotFound = (id: string) =>
  new PlatformError('PlatformAppCircleNotFoundError', 'No circle with that id within the app\'s reach', { path: ['circleId'], fields: { circleIds: [id] } });

async function placeOf(deps: RepliesDeps, caller: InstallCaller, body: ReplyRequest): Promise<AppMessagePlace> {
  if (body.circleId === undefined) return { workspaceId: caller.workspaceId, ...await resolvePlace(deps.db, deps.reach, caller, body) };
  // Resolved here rather than by resolvePlace so that the 409 speaks of messages, not blocks.
  const circle = await deps.reach.assertReachable(caller, body.circleId, circleNotFound);
  if (!circle.chat) {
    throw new PlatformError('PlatformApiConflictError', 'This circle does not use chat: post into one of its conversations or as a reply', { path: ['circleId'] });
  }
  return { workspaceId: caller.workspaceId, circleId: circle.id, conversationId: null, replyTo: null, filedAt: null };
}

/**
 * @example
 * const answer = await postReply(deps, auth, { content: { type: 'doc', content: [...] }, replyTo: 'msg_…' });
 */
export async function postReply(deps: RepliesDeps, caller: InstallCaller, body: ReplyRequest): Promise<ReplyAnswer> {
  requireScope(caller, 'replies:write');
  const document = replyDocument(body.content);
  const place = await placeOf(deps, caller, body);
  const content = await withCopiedDocumentImages(deps.images, deps.publicUrl, document, ['content']);
  const face = await findAppFace(deps.db, caller.installId);
  if (face === undefined) throw installRevoked();
  const at = new Date(deps.clock.now());
  let id: string;
  try {
    id = await deps.db.transaction((tx) =>
      postAsApp(tx, place, { appId: caller.appId, installId: caller.installId, author: { name: face.name, persona: null } }, { content, markdown: null }, at));
  } catch (err) {
    // The target was deleted between the checks and the insert: it is absent now, as the checks would say.
    if (isForeignKeyViolation(err)) throw targetGone(body);
    throw err;
  }
  deps.events.committed();
  return { id, circleId: place.circleId, conversationId: place.conversationId };
}
