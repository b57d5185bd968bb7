/**
 * @module blocks/invocations/service
 * Commands and message actions, end to end: a member runs one on a surface (the app must be
 * installed, the surface seen by the member and within the install's reach), the service records
 * the run, delivers `command.run` / `messageAction.run` (30 s), and places the answer
 * (blocks/invocations/apply.ts), leaves the run pending for 15 minutes on a `202`, or shows a failure
 * card. The app finishes a deferred run once with `POST /v0/invocations/respond`. The member shares
 * or dismisses a private answer (blocks/invocations/private-answers.ts). What a member can run is
 * listed from the installed versions' manifests (blocks/invocations/available.ts).
 */
import { PlatformError, invalidRequest, type CommandDefinition, type InvocationAnswer, type InvocationRespondRequest, type MessageActionDefinition } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import { newInvocationId } from '../records/ids.ts';
import type { InsertDeps } from '../app-api/insert.ts';
import { assertWritable, visibleCircle } from '../../workspace/circles/access.ts';
import { visibleConversation } from '../../workspace/conversations/access.ts';
import type { InteractiveEngine } from '../../deliveries/interactive/engine.ts';
import { memberText } from '../../deliveries/interactive/failures.ts';
import type { InstallTarget } from '../../deliveries/pipeline/install-target.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { directChatId } from '../../workspace/messages/store.ts';
import { newId } from '../../core/ids/ids.ts';
import type { TokenService } from '../../apps/tokens/service.ts';
import { TokenRejected } from '../../apps/tokens/service.ts';
import { applyAnswer, DEFERRED_MS, type Place } from './apply.ts';
import { availableCommands } from './available.ts';
import { buildContext, type ContextLevel } from './context.ts';
import { checkOptions, type OptionInput } from './options.ts';
import type { InvocationView } from './schemas.ts';
import * as store from './store.ts';
import { createPrivateAnswers } from './private-answers.ts';
import { runView } from './view.ts';

export interface InvocationsDeps extends InsertDeps {
  tokens: TokenService;
  engine: InteractiveEngine;
}

type SurfaceInput = { kind: 'circle'; circleId: string; conversationId: string | null } | { kind: 'dm'; partnerMemberId: string };

const notFound = (path: string[], what: string) => new PlatformError('PlatformApiNotFoundError', what, { path });
const runNotFound = () => new PlatformError('PlatformApiNotFoundError', 'No run of a command or message action with that id that you can see', { path: ['invocationId'] });
const unreachable = () => new PlatformError('PlatformApiForbiddenError', 'The app cannot reach this circle: invite it to the circle first', { path: ['surface'] });

export type InvocationsService = ReturnType<typeof createInvocationsService>;

export function createInvocationsService(deps: InvocationsDeps) {
  const { db, clock } = deps;
  const now = () => new Date(clock.now());

  async function install(actor: Actor, by: { appId?: string | undefined; installId?: string | undefined }): Promise<store.MemberInstall> {
    // Another member's dev install is their work in progress: not offered (GET /commands), not run.
    const found = await store.findMemberInstall(db, actor.workspaceId, by, actor.memberId);
    if (found === undefined) throw notFound([by.installId === undefined ? 'appId' : 'installId'], 'No active install of that app in this workspace');
    return found;
  }

  async function reachable(target: InstallTarget, circleId: string): Promise<void> {
    await deps.reach.assertReachable({ workspaceId: target.workspaceId, appId: target.app.id, installKind: target.installKind }, circleId, unreachable);
  }

  /** A command's surface, as the member may post there: a conversation or chat they see and can write in, or a direct chat with a member. */
  async function commandPlace(actor: Actor, target: InstallTarget, surface: SurfaceInput): Promise<Place> {
    if (surface.kind === 'dm') {
      if (surface.partnerMemberId === actor.memberId || await store.memberName(db, actor.workspaceId, surface.partnerMemberId) === undefined) {
        throw notFound(['surface', 'partnerMemberId'], 'No other member with that id in this workspace');
      }
      return { kind: 'dm', directChatId: await directChatId(db, actor.workspaceId, actor.memberId, surface.partnerMemberId, newId('directChat'), now()) };
    }
    const circle = surface.conversationId === null ? await visibleCircle(db, actor, surface.circleId) : (await visibleConversation(db, actor, surface.conversationId)).circle;
    if (circle.id !== surface.circleId) throw notFound(['surface', 'conversationId'], 'No conversation with that id in this circle');
    assertWritable(circle);
    if (surface.conversationId === null && !circle.chat) {
      throw new PlatformError('PlatformApiConflictError', 'This circle does not use chat: run the command in one of its conversations', { path: ['surface', 'circleId'] });
    }
    await reachable(target, circle.id);
    return { kind: 'circle', circleId: circle.id, conversationId: surface.conversationId, replyTo: null, filedAt: null };
  }

  /** Delivers the run and ends it: answered, failed, or pending for 15 minutes. */
  async function deliver(actor: Actor, target: InstallTarget, run: { id: string; kind: store.RunKind; name: string; surface: unknown }, place: Place,
    data: (token: string) => Record<string, unknown>): Promise<{ invocation: InvocationView }> {
    await store.insertRun(db, { ...run, place, workspaceId: actor.workspaceId, installId: target.installId, appId: target.app.id, memberId: actor.memberId, at: now() });
    const token = await deps.tokens.mint('interaction', { installId: target.installId, appId: target.app.id, workspaceId: target.workspaceId, blockId: null, invocationId: run.id });
    const type = run.kind === 'command' ? 'command.run' as const : 'messageAction.run' as const;
    const outcome = await deps.engine.deliver({ type, target, actor: { memberId: actor.memberId, name: actor.name }, data: data(token.token) });
    const at = now();
    let row: store.RunRow | undefined;
    if (outcome.kind === 'deferred') {
      row = await store.markPending(db, run.id, (outcome.deferral?.visibility as 'public' | 'private' | undefined) ?? 'private', new Date(at.getTime() + DEFERRED_MS));
    } else if (outcome.kind === 'failed') {
      row = await store.endRun(db, run.id, { status: 'failed', visibility: null, answer: null, notice: null, messageIds: [], blockId: null, error: { message: memberText(outcome.reason) }, at, privateUntil: null });
    } else {
      row = await store.endRun(db, run.id, await applyAnswer(deps, target, place, outcome.result as InvocationAnswer, at));
    }
    return { invocation: viewOf(row ?? (await store.findRun(db, run.id))!) };
  }

  const viewOf = (row: store.RunRow): InvocationView => runView(row, clock.now());
  const privateAnswers = createPrivateAnswers(deps);

  return {
    /** The commands and message actions the member is offered (blocks/invocations/available.ts). */
    available: (actor: Actor) => availableCommands(db, actor),

    async runCommand(actor: Actor, body: { appId?: string | undefined; installId?: string | undefined; command: string; options: Record<string, OptionInput>; surface: SurfaceInput }) {
      const { target, manifest } = await install(actor, body);
      const command = ((manifest.commands ?? []) as CommandDefinition[]).find((c) => c.name === body.command);
      if (command === undefined) throw invalidRequest([{ path: ['command'], message: `The app has no command /${body.command}`, code: 'unknown_command' }]);
      const place = await commandPlace(actor, target, body.surface);
      const options = await checkOptions(db, actor, command, body.options);
      const id = newInvocationId();
      return deliver(actor, target, { id, kind: 'command', name: command.name, surface: body.surface }, place,
        (interactionToken) => ({ command: command.name, options, surface: body.surface, invocationId: id, interactionToken }));
    },

    async runMessageAction(actor: Actor, body: { appId?: string | undefined; installId?: string | undefined; actionId: string; messageId: string }) {
      const { target, manifest } = await install(actor, body);
      const action = ((manifest.messageActions ?? []) as MessageActionDefinition[]).find((a) => a.id === body.actionId);
      if (action === undefined) throw invalidRequest([{ path: ['actionId'], message: 'The app has no such message action', code: 'unknown_action' }]);
      const message = await store.findContextMessage(db, actor.workspaceId, body.messageId);
      const messageGone = () => notFound(['messageId'], 'No message with that id that you can see');
      if (message === undefined) throw messageGone();
      let surface: Record<string, unknown>;
      let place: Place;
      if (message.direct_chat_id !== null) {
        const pair = await store.directChatMembers(db, message.direct_chat_id);
        if (pair === undefined || !pair.includes(actor.memberId)) throw messageGone();
        surface = { kind: 'dm', partnerMemberId: pair[0] === actor.memberId ? pair[1] : pair[0] };
        place = { kind: 'dm', directChatId: message.direct_chat_id };
      } else {
        const circle = await visibleCircle(db, actor, message.circle_id!).catch(() => { throw messageGone(); });
        await reachable(target, circle.id);
        surface = { kind: 'circle', circleId: circle.id, conversationId: message.conversation_id };
        place = { kind: 'circle', circleId: circle.id, conversationId: message.conversation_id, replyTo: message.reply_to ?? message.id, filedAt: null };
      }
      const level: ContextLevel = action.context ?? 'message';
      const context = await buildContext(db, message, level);
      const id = newInvocationId();
      return deliver(actor, target, { id, kind: 'messageAction', name: action.id, surface }, place, (interactionToken) => ({
        id: action.id, message: { id: message.id, conversationId: message.conversation_id, text: (context.message as { text: string }).text, author: (context.message as { author: unknown }).author },
        context, surface, invocationId: id, interactionToken,
      }));
    },

    /** A run as a member sees it: always its own; someone else's only while a public deferral is pending on a surface they see. */
    async view(actor: Actor, invocationId: string): Promise<{ invocation: InvocationView }> {
      const row = await store.findRun(db, invocationId);
      if (row === undefined || row.workspace_id !== actor.workspaceId) throw runNotFound();
      const view = viewOf(row);
      if (row.member_id !== actor.memberId) {
        if (view.status !== 'pending' || row.visibility !== 'public') throw runNotFound();
        const surface = row.surface as SurfaceInput;
        if (surface.kind === 'dm') {
          if (surface.partnerMemberId !== actor.memberId) throw runNotFound();
        } else await visibleCircle(db, actor, surface.circleId).catch(() => { throw runNotFound(); });
        return { invocation: { ...view, notice: null, answer: null } };
      }
      return { invocation: view };
    },

    /** Posts the member's private answer where the run was, as a public answer would have been (blocks/invocations/private-answers.ts). */
    share: privateAnswers.share,
    /** Hides the member's private answer for good. */
    dismiss: privateAnswers.dismiss,

    /** `POST /v0/invocations/respond`: the one answer of a deferred run, by the install that ran it. */
    async respond(caller: InstallCaller, body: InvocationRespondRequest): Promise<{ ok: boolean }> {
      const absent = () => new PlatformError('PlatformApiNotFoundError', 'No deferred run of this install has that interaction token', { path: ['interactionToken'] });
      let verified;
      try {
        verified = await deps.tokens.verify(body.interactionToken);
      } catch (err) {
        if (!(err instanceof TokenRejected)) throw err;
        if (err.reason === 'expired' && err.kind === 'interaction') throw new PlatformError('PlatformAppInteractionExpiredError', 'The run\'s 15 minutes are over: its answer can no longer be given', { path: ['interactionToken'] });
        throw absent();
      }
      if (verified.kind !== 'interaction' || verified.claims.invocationId === null || verified.claims.installId !== caller.installId) throw absent();
      const row = await store.findRun(db, verified.claims.invocationId);
      if (row === undefined || row.install_id !== caller.installId) throw absent();
      const at = now();
      const claimed = await store.claimPending(db, row.id, caller.installId, at);
      if (claimed === undefined) {
        if (row.status === 'pending' || row.status === 'running') throw new PlatformError('PlatformAppInteractionExpiredError', 'The run\'s 15 minutes are over: its answer can no longer be given', { path: ['interactionToken'] });
        throw new PlatformError('PlatformApiConflictError', 'This run was answered already: a deferred run takes one answer', { path: ['interactionToken'] });
      }
      const target = (await store.findMemberInstall(db, row.workspace_id, { installId: row.install_id }))?.target;
      if (target === undefined) throw absent();
      // Where the run would have placed an answer at once (the surface, or the thread of the acted-on message).
      const place = claimed.place as Place;
      const end = await applyAnswer(deps, target, place, body.answer as InvocationAnswer, at);
      await store.endRun(db, row.id, end);
      return { ok: end.status === 'answered' };
    },
  };
}
