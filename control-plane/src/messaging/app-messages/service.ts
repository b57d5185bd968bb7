/**
 * @module messaging/app-messages/service
 * Messages apps post (`replies:write`): replies into conversations, threads and chats
 * (messaging/app-messages/replies.ts) and stream events (messaging/app-messages/streams.ts). Both write ordinary
 * messages with the app as author, through messaging/app-messages/post.ts, with the lifecycle events a
 * member's message causes.
 */
import type { StreamEventRequest, ReplyRequest } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import { createReachGuard } from '../../apps/guards/index.ts';
import { postReply, type ReplyAnswer } from './replies.ts';
import { postStreamEvent, type StreamEventAnswer, type StreamsDeps } from './streams.ts';

export type AppMessagesDeps = Omit<StreamsDeps, 'reach'>;

export interface AppMessagesService {
  reply(caller: InstallCaller, body: ReplyRequest): Promise<ReplyAnswer>;
  streamEvent(caller: InstallCaller, body: StreamEventRequest): Promise<StreamEventAnswer>;
}

/**
 * @example
 * const messages = createAppMessagesService({ db, kv, clock, events, publicUrl: config.publicUrl });
 * await messages.reply(auth, { content, conversationId });
 */
export function createAppMessagesService(deps: AppMessagesDeps): AppMessagesService {
  const full = { ...deps, reach: createReachGuard({ db: deps.db }) };
  return {
    reply: (caller, body) => postReply(full, caller, body),
    streamEvent: (caller, body) => postStreamEvent(full, caller, body),
  };
}
