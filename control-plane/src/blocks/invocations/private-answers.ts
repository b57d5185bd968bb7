/**
 * @module blocks/invocations/private-answers
 * What the member who ran a command or message action does with its private answer
 * (docs/decisions/member-features.md):
 *
 * - **share**: the answer is posted where a public answer would have gone (the conversation, chat
 *   or direct chat; a message action's thread), as the app, through the same placing as a public
 *   answer (blocks/invocations/apply.ts: content as the app's message, a block through the blocks
 *   insert path). The member must still be able to post there and the app still reach it. Once
 *   shared, the run is a public answer (`visibility: public`, `messageIds`, `blockId`, `sharedAt`).
 *   When nothing could be posted the answer stays private and the member gets `outcome: failed`
 *   with the reason; when the content was posted but its block was not, the run is shared with the
 *   error.
 * - **dismiss**: the answer is gone for good (`answer: null`, `dismissedAt`); dismissing again, or
 *   an answer already past its 24 hours, changes nothing.
 *
 * Only a live private answer (answered, private, within 24 hours, neither shared nor dismissed) is
 * shared, exactly once: the row is claimed with one conditional update, so two shares at once post
 * once and a share racing a dismiss does one of them. Anyone else's run answers as absent.
 */
import { PlatformError, type InvocationAnswer } from '@platform/sdk';
import type { Actor } from '../../core/auth/actor.ts';
import { assertWritable, visibleCircle } from '../../workspace/circles/access.ts';
import { visibleConversation } from '../../workspace/conversations/access.ts';
import type { InstallTarget } from '../../deliveries/pipeline/install-target.ts';
import type { InsertDeps } from '../app-api/insert.ts';
import { applyAnswer, type Place } from './apply.ts';
import type { InvocationView } from './schemas.ts';
import * as store from './store.ts';
import { runView } from './view.ts';

const runNotFound = () => new PlatformError('PlatformApiNotFoundError', 'No run of a command or message action of yours has that id', { path: ['invocationId'] });
const conflict = (message: string) => new PlatformError('PlatformApiConflictError', message, { path: ['invocationId'] });
const unreachable = () => new PlatformError('PlatformApiForbiddenError', 'The app can no longer reach this circle: invite it to the circle first', { path: ['invocationId'] });
const NOTHING_POSTED = 'The answer could not be posted.';

type Kept = { content?: unknown; block?: { type: string; props: unknown } };

/** Why a run's answer cannot be shared or dismissed (any more). */
function notOpen(row: store.RunRow, now: Date): PlatformError {
  if (row.status !== 'answered' || row.visibility !== 'private') return conflict(row.shared_at !== null ? 'This answer was shared already' : 'Only a private answer can be shared or dismissed');
  if (row.shared_at !== null) return conflict('This answer was shared already');
  if (row.dismissed_at !== null) return conflict('This answer was dismissed');
  if (row.private_until !== null && row.private_until <= now) return conflict('This private answer is over 24 hours old: it is gone');
  return conflict('This private answer has nothing to post');
}

export function createPrivateAnswers(deps: InsertDeps) {
  const { db, clock } = deps;

  async function own(actor: Actor, id: string): Promise<store.RunRow> {
    const row = await store.findRun(db, id);
    if (row === undefined || row.workspace_id !== actor.workspaceId || row.member_id !== actor.memberId) throw runNotFound();
    return row;
  }

  /** The member may still post where the answer goes, and the app still reach it (the checks of running it). */
  async function checkPlace(actor: Actor, target: InstallTarget, place: Place): Promise<void> {
    // A direct chat: the member is one of its two parties, and stays one.
    if (place.kind === 'dm') return;
    const circle = place.conversationId === null ? await visibleCircle(db, actor, place.circleId) : (await visibleConversation(db, actor, place.conversationId)).circle;
    assertWritable(circle);
    if (place.replyTo !== null && (await store.findContextMessage(db, actor.workspaceId, place.replyTo)) === undefined) {
      throw new PlatformError('PlatformApiNotFoundError', 'The message this answer is about was deleted', { path: ['invocationId'] });
    }
    await deps.reach.assertReachable({ workspaceId: target.workspaceId, appId: target.app.id, installKind: target.installKind }, circle.id, unreachable);
  }

  return {
    async share(actor: Actor, invocationId: string): Promise<{ outcome: 'shared' | 'failed'; invocation: InvocationView; error: { message: string } | null }> {
      const row = await own(actor, invocationId);
      const at = new Date(clock.now());
      const kept = row.answer as Kept | null;
      if (kept === null || (kept.content === undefined && kept.block === undefined)) throw notOpen(row, at);
      const install = await store.findMemberInstall(db, row.workspace_id, { installId: row.install_id });
      if (install === undefined) throw conflict('The app is no longer installed in this workspace');
      await checkPlace(actor, install.target, row.place as Place);
      const claimed = await store.claimShare(db, row.id, actor.memberId, at);
      if (claimed === undefined) throw notOpen((await store.findRun(db, row.id)) ?? row, at);
      const answer = { visibility: 'public', ...(kept.content === undefined ? {} : { content: kept.content }), ...(kept.block === undefined ? {} : { block: kept.block }) };
      let end: store.RunEnd;
      try {
        end = await applyAnswer(deps, install.target, claimed.place as Place, answer as InvocationAnswer, at);
      } catch (err) {
        await store.unclaimShare(db, row.id);
        throw err;
      }
      if (end.messageIds.length === 0 && end.blockId === null) {
        await store.unclaimShare(db, row.id);
        return { outcome: 'failed', invocation: runView((await store.findRun(db, row.id)) ?? row, clock.now()), error: end.error ?? { message: NOTHING_POSTED } };
      }
      const shared = await store.endShare(db, row.id, { messageIds: end.messageIds, blockId: end.blockId });
      return { outcome: end.status === 'answered' ? 'shared' : 'failed', invocation: runView(shared, clock.now()), error: end.status === 'answered' ? null : end.error };
    },

    async dismiss(actor: Actor, invocationId: string): Promise<{ invocation: InvocationView }> {
      const row = await own(actor, invocationId);
      const dismissed = await store.dismissPrivate(db, row.id, actor.memberId, new Date(clock.now()));
      if (dismissed === undefined) throw notOpen((await store.findRun(db, row.id)) ?? row, new Date(clock.now()));
      return { invocation: runView(dismissed, clock.now()) };
    },
  };
}
