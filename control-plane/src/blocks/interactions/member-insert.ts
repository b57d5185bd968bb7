/**
 * @module blocks/interactions/member-insert
 * A member inserts a block through the interface (`POST /client/v1/blocks`): the spec's "inserting
 * a block through the API or the interface produces `block.created`". The member must be able to
 * post at the target (they see its circle, which is not read-only; a circle target uses chat), the
 * app's install must reach that circle, and the running version must mark the block type
 * `insertable`. The rest is the app API's insert path (blocks/app-api/insert.ts): props checked,
 * `block.insert` with the spec's target rules, the block, its message and `block.created`
 * committed together, with the member as `actor` and as the message's author. No scope is needed:
 * `blocks:write` is for the app's own inserts, and here the member acts.
 */
import { PlatformError, type BlockRecord } from '@platform/sdk';
import type { BlockView } from './schemas.ts';
import type { InstallCaller } from '../../core/auth/caller.ts';
import { assertWritable, visibleCircle } from '../../workspace/circles/access.ts';
import { findCircle, type CircleRow } from '../../workspace/circles/store.ts';
import { visibleConversation } from '../../workspace/conversations/access.ts';
import type { Db } from '../../core/db/db.ts';
import { findInstall, findLiveInstall, type InstallRow } from '../../apps/installs/store.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { findMessage } from '../../workspace/messages/store.ts';
import { insertBlockAs, type InsertDeps } from '../app-api/insert.ts';
import type { Json } from '../records/store.ts';

export interface MemberInsertBody {
  appId?: string | undefined;
  installId?: string | undefined;
  type: string;
  props: Json;
  target: { conversationId?: string | undefined; replyTo?: string | undefined; circleId?: string | undefined };
}

const installNotFound = () =>
  new PlatformError('PlatformApiNotFoundError', 'No active install of that app in this workspace', { path: ['installId'] });
const replyNotFound = () =>
  new PlatformError('PlatformApiReplyNotFoundError', 'No message with that id that you can reply to', { path: ['target', 'replyTo'] });

/**
 * The install a member names: `installId`, or the app's install in the workspace (its workspace
 * install; its development install when it has only that).
 */
async function memberInstall(db: Db, actor: Actor, body: MemberInsertBody): Promise<InstallRow> {
  let install: InstallRow | undefined;
  if (body.installId !== undefined) install = await findInstall(db, body.installId);
  else {
    install = await findLiveInstall(db, body.appId!, actor.workspaceId, 'workspace')
      ?? await findLiveInstall(db, body.appId!, actor.workspaceId, 'dev');
  }
  if (install === undefined || install.workspace_id !== actor.workspaceId || install.status !== 'active') throw installNotFound();
  return install;
}

/** The circle of the target, checked the way posting there is (seen, writable, chat for a circle target). */
export async function postableCircle(db: Db, actor: Actor, target: MemberInsertBody['target']): Promise<CircleRow> {
  let circle: CircleRow;
  if (target.conversationId !== undefined) {
    circle = (await visibleConversation(db, actor, target.conversationId)).circle;
  } else if (target.replyTo !== undefined) {
    const message = await findMessage(db, actor.workspaceId, target.replyTo);
    if (message === undefined || message.circle_id === null) throw replyNotFound();
    const found = await findCircle(db, actor.workspaceId, message.circle_id, actor.memberId);
    if (found === undefined || !(found.visibility === 'public' || found.is_member)) throw replyNotFound();
    circle = found;
  } else {
    circle = await visibleCircle(db, actor, target.circleId!);
    if (!circle.chat) throw new PlatformError('PlatformApiConflictError', 'This circle does not use chat: insert the block into a conversation or as a reply', { path: ['target', 'circleId'] });
  }
  assertWritable(circle);
  return circle;
}

/**
 * @example
 * const record = await insertBlockAsMember(deps, actor, { appId, type: 'poll', props: { question: 'Lunch?' }, target: { circleId } });
 */
export async function insertBlockAsMember(deps: InsertDeps, actor: Actor, body: MemberInsertBody): Promise<BlockRecord> {
  const install = await memberInstall(deps.db, actor, body);
  const circle = await postableCircle(deps.db, actor, body.target);
  const caller: InstallCaller = {
    kind: 'install', workspaceId: actor.workspaceId, appId: install.app_id, installId: install.id, installKind: install.kind, scopes: install.approved_scopes,
  };
  await deps.reach.assertReachable(caller, circle.id, () =>
    new PlatformError('PlatformApiForbiddenError', 'The app cannot reach this circle: invite it to the circle first', { path: ['target'] }));
  return insertBlockAs(deps, caller, { type: body.type, props: body.props, ...body.target }, { memberId: actor.memberId, name: actor.name });
}

/** The member's insert through the interface (`POST /client/v1/blocks`), answered as the member sees the block. */
export interface MemberBlocks {
  insert(actor: Actor, body: MemberInsertBody): Promise<{ block: BlockView }>;
}

/**
 * @example
 * const members = createMemberBlocks(insertDeps, interactions);
 * await members.insert(actor, { appId, type: 'poll', props, target: { circleId } }); // { block }
 */
export function createMemberBlocks(deps: InsertDeps, interactions: { view(actor: Actor, blockId: string): Promise<{ block: BlockView }> }): MemberBlocks {
  return {
    async insert(actor, body) {
      const record = await insertBlockAsMember(deps, actor, body);
      return interactions.view(actor, record.id);
    },
  };
}
