/**
 * @module blocks/playground/service
 * A tree tried against a development install (`POST /client/v1/installs/{installId}/playground-blocks`):
 * the author's tree goes, as a block of a type of their dev install, into a conversation or chat
 * they can post in and the install reaches; its buttons then run the app's real handler (through
 * the development relay, like every delivery to a dev install). Only the app's developer, and only
 * their dev install: the first tree is the author's, not an answer of the app, so it never shows as
 * a published app's block. Checked like an insert (props, state, the catalog and the action table,
 * whose names must be actions of the type) and stored like one (blocks/app-api/insert.ts
 * `storeBlock`: the member's message, `block.created`), without asking the app for a tree. Props and
 * state the author leaves out start at their schemas' `default`s; the answer says what was stored.
 */
import { PlatformError, invalidRequest, type RequestIssue } from '@platform/sdk';
import type { Actor } from '../../core/auth/actor.ts';
import type { InstallCaller } from '../../core/auth/caller.ts';
import { findApp } from '../../apps/apps/store.ts';
import { findInstall } from '../../apps/installs/store.ts';
import { resolvePlace } from '../../messaging/app-messages/targets.ts';
import { checkTree, withCopiedImages, type CheckedTree } from '../../deliveries/interactive/tree-check.ts';
import { storeBlock, typeUnknown, type InsertDeps } from '../app-api/insert.ts';
import type { BlockType } from '../definitions/definitions.ts';
import { checkProps, checkState } from '../definitions/state.ts';
import { postableCircle } from '../interactions/member-insert.ts';
import type { BlockView } from '../interactions/schemas.ts';
import type { Json } from '../records/store.ts';
import type { PlaygroundBlockRequest } from './schemas.ts';

const notYours = () =>
  new PlatformError('PlatformApiNotFoundError', 'No active development install of an app of yours has that id', { path: ['installId'] });

/** The member's own active dev install, as the caller its block is stored for. */
async function devInstall(deps: InsertDeps, actor: Actor, installId: string): Promise<{ caller: InstallCaller; version: number }> {
  const install = await findInstall(deps.db, installId);
  if (install === undefined || install.workspace_id !== actor.workspaceId || install.kind !== 'dev' || install.status !== 'active') throw notYours();
  const app = await findApp(deps.db, install.app_id);
  if (app === undefined || app.owner_member_id !== actor.memberId) throw notYours();
  return {
    caller: { kind: 'install', workspaceId: actor.workspaceId, appId: app.id, installId: install.id, installKind: 'dev', scopes: install.approved_scopes },
    version: install.version,
  };
}

/**
 * The tree checked with its table, or every problem of the request as one 400 (the tree's first
 * problem only: the catalog reports one).
 */
function checked(type: BlockType, body: PlaygroundBlockRequest): CheckedTree {
  const issues: RequestIssue[] = [];
  for (const check of [checkProps(type.props, body.props), checkState(type.state, body.state)]) if (!check.ok) issues.push(...check.issues);
  const tree = checkTree(body.tree, body.actions);
  if (!tree.ok) {
    // Problems of the table already start with "actions"; the tree's are relative to its root.
    issues.push({ path: tree.path[0] === 'actions' ? tree.path : ['tree', ...tree.path], message: tree.message, code: 'invalid_tree' });
  }
  for (const [ref, entry] of Object.entries(body.actions)) {
    const name = (entry as { name?: unknown } | null)?.name;
    if (typeof name === 'string' && !type.actions.has(name)) {
      issues.push({ path: ['actions', ref, 'name'], message: `The block type "${body.type}" has no action "${name}"`, code: 'unknown_action' });
    }
  }
  if (!tree.ok || issues.length > 0) throw invalidRequest(issues, issues[0]!.message);
  return tree;
}

export interface PlaygroundBlocks {
  insert(actor: Actor, installId: string, body: PlaygroundBlockRequest): Promise<{ block: BlockView; props: Json; state: Json }>;
}

/**
 * @example
 * const playground = createPlaygroundBlocks(insertDeps, interactions);
 * await playground.insert(actor, devInstallId, { type: 'poll', tree, actions, props: {}, state: {}, target: { conversationId } }); // { block, props, state }
 */
export function createPlaygroundBlocks(deps: InsertDeps, interactions: { view(actor: Actor, blockId: string): Promise<{ block: BlockView }> }): PlaygroundBlocks {
  return {
    async insert(actor, installId, body) {
      const { caller, version } = await devInstall(deps, actor, installId);
      const type = await deps.definitions.blockType(caller.appId, version, body.type);
      if (type === undefined) throw typeUnknown(body.type);
      // Written by hand: what the author leaves out starts at the schemas' defaults, as a new block's
      // state does in the SDK (zod reads `{}` with its defaults), so the type's own sample can be tried.
      const filled = { ...body, props: type.withDefaults('props', body.props), state: type.withDefaults('state', body.state) };
      const copied = await withCopiedImages(deps.images, checked(type, filled));
      if (!copied.ok) throw invalidRequest([{ path: ['tree', ...copied.path], message: copied.message, code: 'invalid_tree' }], copied.message);
      const tree = copied;
      const circle = await postableCircle(deps.db, actor, body.target);
      await deps.reach.assertReachable(caller, circle.id, () =>
        new PlatformError('PlatformApiForbiddenError', 'Your development install does not reach this circle (it reaches public circles you belong to, and private ones it was invited to)', { path: ['target'] }));
      const place = await resolvePlace(deps.db, deps.reach, caller, body.target);
      const record = await storeBlock(deps, caller, {
        type, typeName: body.type, props: filled.props as Json, state: filled.state as Json, tree, place, target: body.target,
      }, { memberId: actor.memberId, name: actor.name });
      return { ...(await interactions.view(actor, record.id)), props: filled.props as Json, state: filled.state as Json };
    },
  };
}
