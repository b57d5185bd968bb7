/**
 * @module messaging/app-messages/post
 * Writing one message as the app, with its lifecycle events, inside the caller's transaction. Both
 * endpoints end here, so a reply and a stream event are the same kind of message to everyone
 * reading them (the client API shows the app as author, events say `author.kind: app`).
 */
import type { Db } from '../../core/db/db.ts';
import { idMaker } from '../../core/ids/ids.ts';
import type { AppMessageBody } from './content.ts';
import { appMessagePosted } from './events.ts';
import { insertAppMessage, type AppAuthorSnapshot } from './store.ts';

export const newMessageId = idMaker('message');
export const newConversationId = idMaker('conversation');
export const newStreamId = idMaker('stream');

export interface AppMessagePlace {
  workspaceId: string;
  circleId: string;
  conversationId: string | null;
  replyTo: string | null;
  filedAt: Date | null;
}

export interface Poster {
  appId: string;
  installId: string;
  author: AppAuthorSnapshot;
}

/**
 * Inserts the message and records its events; answers its id.
 *
 * @example
 * const id = await postAsApp(tx, place, { appId, installId, author: { name: 'Deploys', persona: null } }, { content: null, markdown: 'Done' }, at);
 */
export async function postAsApp(tx: Db, place: AppMessagePlace, poster: Poster, body: AppMessageBody, at: Date): Promise<string> {
  const id = newMessageId();
  await insertAppMessage(tx, { id, ...place, appId: poster.appId, author: poster.author, content: body.content, markdown: body.markdown, at });
  await appMessagePosted(tx, {
    id, workspaceId: place.workspaceId, circleId: place.circleId, conversationId: place.conversationId, replyTo: place.replyTo,
    body, author: { id: poster.appId, name: poster.author.name }, createdAt: at, version: 1,
  }, { appId: poster.appId, installId: poster.installId, name: poster.author.persona?.name ?? poster.author.name }, at);
  return id;
}
