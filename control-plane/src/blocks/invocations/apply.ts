/**
 * @module blocks/invocations/apply
 * Placing an InvocationAnswer on its surface (the spec leaves how to us; docs/decisions/invocations.md):
 * - rule 6 first: a `warning` or `danger` notice without content or block fails the run;
 * - `public`: the content is posted as the app's message and the block inserted through the blocks
 *   insert path (its own `block.insert`, `block.created`), in the conversation, the thread of the
 *   acted-on message, the circle's chat, or the direct chat (content only: blocks live in circles);
 * - `private`: nothing is posted; the answer stays on the run for the invoking member for 24 hours;
 * - `notice` is shown to the invoking member only, either way.
 * Content is held to the rules of `POST /v0/replies`; an answer breaking them fails the run.
 */
import { isPlatformError, LIMITS, type InvocationAnswer } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import { insertBlockAs, type InsertDeps } from '../app-api/insert.ts';
import { replyDocument } from '../../messaging/app-messages/content.ts';
import { newMessageId, postAsApp } from '../../messaging/app-messages/post.ts';
import type { InstallTarget } from '../../deliveries/pipeline/install-target.ts';
import { memberText } from '../../deliveries/interactive/failures.ts';
import { insertDirectAppMessage, type RunEnd } from './store.ts';

export const PRIVATE_ANSWER_MS = 24 * 3_600_000;
export const REPORTED_FAILED = 'The app reported that this failed.';
const NO_BLOCKS_IN_DM = 'The app answered with a block, which cannot be posted in a direct message.';

export type Place =
  | { kind: 'circle'; circleId: string; conversationId: string | null; replyTo: string | null; filedAt: Date | null }
  | { kind: 'dm'; directChatId: string };

const failed = (message: string, notice: unknown, at: Date): RunEnd =>
  ({ status: 'failed', visibility: null, answer: null, notice: notice ?? null, messageIds: [], blockId: null, error: { message }, at, privateUntil: null });

export function callerOf(target: InstallTarget): InstallCaller {
  return { kind: 'install', workspaceId: target.workspaceId, appId: target.app.id, installId: target.installId, installKind: target.installKind, scopes: target.scopes };
}

/**
 * @example
 * const end = await applyAnswer(deps, target, place, answer, new Date(now)); // then endRun(db, id, end)
 */
export async function applyAnswer(deps: InsertDeps, target: InstallTarget, place: Place, answer: InvocationAnswer, at: Date): Promise<RunEnd> {
  const notice = answer.notice ?? null;
  if (notice !== null && (notice.tone === 'warning' || notice.tone === 'danger') && answer.content === undefined && answer.block === undefined) {
    return failed(REPORTED_FAILED, notice, at);
  }
  let content: unknown;
  if (answer.content !== undefined) {
    try {
      content = replyDocument(answer.content);
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      return failed(memberText('response-invalid'), notice, at);
    }
  }
  if (answer.visibility === 'private') {
    const kept = { ...(content === undefined ? {} : { content }), ...(answer.block === undefined ? {} : { block: answer.block }) };
    return { status: 'answered', visibility: 'private', answer: kept, notice, messageIds: [], blockId: null, error: null, at, privateUntil: new Date(at.getTime() + PRIVATE_ANSWER_MS) };
  }
  if (place.kind === 'dm' && answer.block !== undefined) return failed(NO_BLOCKS_IN_DM, notice, at);
  const messageIds: string[] = [];
  if (content !== undefined) {
    if (place.kind === 'dm') {
      const id = newMessageId();
      await insertDirectAppMessage(deps.db, { id, workspaceId: target.workspaceId, directChatId: place.directChatId, appId: target.app.id, appName: target.app.name, content, at });
      messageIds.push(id);
    } else {
      const poster = { appId: target.app.id, installId: target.installId, author: { name: target.app.name, persona: null } };
      messageIds.push(await deps.db.transaction((tx) => postAsApp(tx, { workspaceId: target.workspaceId, ...place }, poster, { content: content as never, markdown: null }, at)));
      deps.events.committed();
    }
  }
  let blockId: string | null = null;
  if (answer.block !== undefined && place.kind === 'circle') {
    const where = place.replyTo !== null ? { replyTo: place.replyTo } : place.conversationId !== null ? { conversationId: place.conversationId } : { circleId: place.circleId };
    try {
      blockId = (await insertBlockAs(deps, callerOf(target), { type: answer.block.type, props: answer.block.props as never, ...where }, null)).id;
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      return { ...failed(memberText('response-invalid'), notice, at), messageIds };
    }
  }
  return { status: 'answered', visibility: 'public', answer: null, notice, messageIds, blockId, error: null, at, privateUntil: null };
}

/** How long a deferred run may wait for its answer. */
export const DEFERRED_MS = LIMITS.actions.deferredAnswerWindowMs;
