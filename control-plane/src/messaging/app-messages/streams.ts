/**
 * @module messaging/app-messages/streams
 * `POST /v0/streams/events`: one event into the app's stream in a circle. The first event in a
 * circle creates the stream (named after the app, with its icon); each event starts an app
 * conversation in the circle's app-streams log, or, when its `threadKey` names one it started
 * before, becomes a message in that conversation (`reply.created`). The checks, in order:
 *
 * 1. scope `replies:write` (403);
 * 2. `idempotencyKey` seen within 24 hours → the first answer, nothing posted, nothing counted;
 * 3. the body (400 `PlatformAppStreamInvalidPayloadError`, `reason`);
 * 4. the circle: in the workspace and within reach, else 404 `PlatformAppCircleNotFoundError`
 *    (`circleIds`), even when the stream is revoked;
 * 5. the stream revoked → 410 `PlatformAppStreamRevokedError`;
 * 6. 60 events a minute per stream (app and circle) → 429;
 * 7. saving, in one transaction with the events: the stream row is locked (created first time);
 *    gone (the circle vanished) → 404, revoked meanwhile → 410; the idempotency key is recorded
 *    with the answer, and a concurrent first use of the same key rolls this one back and answers
 *    the other's.
 */
import { LIMITS, PlatformError, invalidRequest, type StreamEventRequest } from '@platform/sdk';
import type { ImageCopier } from '../../apps/assets/copy.ts';
import type { InstallCaller } from '../../core/auth/caller.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { plainText } from '../../workspace/events/content.ts';
import type { EventProducer } from '../../workspace/events/index.ts';
import { installRevoked, requireScope, type ReachGuard } from '../../apps/guards/index.ts';
import type { Kv } from '../../core/kv/kv.ts';
import { rateLimit } from '../../core/rate-limit/rate-limit.ts';
import { streamBody, type AppMessageBody } from './content.ts';
import { newConversationId, newStreamId, postAsApp } from './post.ts';
import { findIdempotentAnswer, findStream, findThread, findAppFace, insertStreamConversation, lockStream, saveIdempotentAnswer } from './store.ts';

export interface StreamsDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
  reach: ReachGuard;
  events: EventProducer;
  /** Where members open a conversation (`url` of the answer), and where copied avatars are served. */
  publicUrl: string;
  /** Copies a persona's avatar: members load it from us, never from the app's URL. */
  images: ImageCopier;
}

// A type alias: answers must fit the response schema's open object (an index signature).
export type StreamEventAnswer = {
  conversationId: string;
  url: string;
  created: boolean;
};

const WINDOW_MS = LIMITS.endpoints.idempotencyWindowMs;
/** A title cut from the event's text when it gives none: its first line, this long at most. */
export const DERIVED_TITLE_MAX = 120;

const circleNotFound = (id: string) =>
  new PlatformError('PlatformAppCircleNotFoundError', 'No circle with that id within the app\'s reach', { path: ['circleId'], fields: { circleIds: [id] } });
const streamRevoked = () => new PlatformError('PlatformAppStreamRevokedError', 'The app\'s stream in this circle was revoked', { path: ['circleId'] });

/** Thrown inside the transaction when another request already used the idempotency key: rolls back. */
class KeyTaken extends Error {}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The first line of the event's text, cut to `DERIVED_TITLE_MAX` characters as people see them. */
export function derivedTitle(body: AppMessageBody): string {
  const line = plainText(body).split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  const graphemes = [...segmenter.segment(line)].map((s) => s.segment);
  return graphemes.length <= DERIVED_TITLE_MAX ? line : `${graphemes.slice(0, DERIVED_TITLE_MAX - 1).join('').trimEnd()}…`;
}

/**
 * The persona with its avatar copied: stored as the URL of our copy (`{publicUrl}/assets/{id}`). An
 * avatar that fails the copied-image checks refuses the event (400), like an image in a tree.
 */
async function withCopiedAvatar(deps: StreamsDeps, persona: NonNullable<StreamEventRequest['persona']>): Promise<{ name?: string; avatarUrl?: string }> {
  if (persona.avatarUrl === undefined) return { ...persona };
  const copied = await deps.images.copyUrl(persona.avatarUrl);
  if (!copied.ok) throw invalidRequest([{ path: ['persona', 'avatarUrl'], message: copied.message, code: 'image_not_copied' }], copied.message);
  return { ...persona, avatarUrl: `${deps.publicUrl}/assets/${copied.assetId}` };
}

/**
 * @example
 * const answer = await postStreamEvent(deps, auth, { circleId: 'cir_…', markdown: 'Deployed v42', threadKey: 'deploy-42' });
 */
export async function postStreamEvent(deps: StreamsDeps, caller: InstallCaller, body: StreamEventRequest): Promise<StreamEventAnswer> {
  requireScope(caller, 'replies:write');
  const key = body.idempotencyKey;
  const since = () => new Date(deps.clock.now() - WINDOW_MS);
  if (key !== undefined) {
    const first = await findIdempotentAnswer<StreamEventAnswer>(deps.db, caller.installId, key, since());
    if (first !== undefined) return first;
  }
  const message = streamBody(body);
  const circle = await deps.reach.assertReachable(caller, body.circleId, circleNotFound);
  if ((await findStream(deps.db, circle.id, caller.appId))?.revoked_at) throw streamRevoked();
  await rateLimit(deps.kv, {
    key: `stream-events:${caller.appId}:${circle.id}`, limit: LIMITS.rateLimits.streamEventsPerMinutePerStream, windowMs: 60_000,
    message: `Too many events: at most ${LIMITS.rateLimits.streamEventsPerMinutePerStream} a minute per stream`,
  });
  const face = await findAppFace(deps.db, caller.installId);
  if (face === undefined) throw installRevoked();

  const persona = body.persona === undefined ? null : await withCopiedAvatar(deps, body.persona);
  const at = new Date(deps.clock.now());
  try {
    const answer = await deps.db.transaction(async (tx) => {
      const stream = await lockStream(tx, { id: newStreamId(), workspaceId: caller.workspaceId, circleId: circle.id, appId: caller.appId, name: face.name, icon: face.icon, at });
      if (stream === undefined) throw circleNotFound(body.circleId);
      if (stream.revoked_at !== null) throw streamRevoked();
      const threadKey = body.threadKey ?? null;
      const existing = threadKey === null ? undefined : await findThread(tx, stream.id, threadKey);
      const conversationId = existing ?? newConversationId();
      if (existing === undefined) {
        await insertStreamConversation(tx, {
          id: conversationId, workspaceId: caller.workspaceId, circleId: circle.id, streamId: stream.id, title: body.title ?? derivedTitle(message), threadKey, at,
        });
      }
      await postAsApp(tx, { workspaceId: caller.workspaceId, circleId: circle.id, conversationId, replyTo: null, filedAt: null },
        { appId: caller.appId, installId: caller.installId, author: { name: face.name, persona } }, message, at);
      const result: StreamEventAnswer = {
        conversationId,
        url: `${deps.publicUrl}/console/circles/${encodeURIComponent(circle.id)}/conversations/${encodeURIComponent(conversationId)}`,
        created: existing === undefined,
      };
      if (key !== undefined && !(await saveIdempotentAnswer(tx, { installId: caller.installId, key, response: result, at, since: since() }))) throw new KeyTaken();
      return result;
    });
    deps.events.committed();
    return answer;
  } catch (err) {
    if (!(err instanceof KeyTaken)) throw err;
    const first = await findIdempotentAnswer<StreamEventAnswer>(deps.db, caller.installId, key!, since());
    if (first === undefined) throw err;
    return first;
  }
}
