/**
 * @module blocks/app-api/insert
 * `POST /v0/blocks`: props checked against the block type's props schema (≤ 16 KB), one target
 * within reach, then `block.insert` to the app for the initial state and tree. The answer's state
 * must fit the state schema (≤ 64 KB) and its tree the catalog, or the insert fails and nothing is
 * stored. The message, the block and its `block.created` event commit together.
 *
 * A member's insert through the interface (`POST /client/v1/blocks`, blocks/interactions/member-insert.ts)
 * takes the same path after its own checks, with the member as `actor` and author, for block
 * types the running version marks `insertable`. A tree tried in the console's playground
 * (blocks/playground) is stored the same way (`storeBlock`), its first tree the author's.
 */
import { PlatformError, invalidRequest, type BlockRecord } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import type { Clock } from '../../core/clock/clock.ts';
import { isForeignKeyViolation, type Db } from '../../core/db/db.ts';
import type { InteractiveEngine } from '../../deliveries/interactive/engine.ts';
import { failureError } from '../../deliveries/interactive/failures.ts';
import { findInstallTarget } from '../../deliveries/pipeline/install-target.ts';
import type { EventActor, EventProducer } from '../../workspace/events/index.ts';
import { installRevoked, requireScope, type ReachGuard } from '../../apps/guards/index.ts';
import type { ImageCopier } from '../../apps/assets/copy.ts';
import { checkTree, treeProblem, withCopiedImages, type CheckedTree } from '../../deliveries/interactive/tree-check.ts';
import type { BlockDefinitions, BlockType } from '../definitions/definitions.ts';
import { newBlockId, newBlockMessageId } from '../records/ids.ts';
import { checkProps, checkState } from '../definitions/state.ts';
import { insertBlock, insertBlockMessage, lockBlock, type Json, type NewBlock } from '../records/store.ts';
import { insertTarget, resolvePlace, targetGone, type MessagePlace, type TargetBody } from '../../messaging/app-messages/targets.ts';
import { blockRecord, deliveredBlock } from '../records/view.ts';

export interface InsertDeps {
  db: Db;
  clock: Clock;
  engine: InteractiveEngine;
  definitions: BlockDefinitions;
  reach: ReachGuard;
  events: EventProducer;
  /** Copies the images of each tree before it is stored. */
  images: ImageCopier;
}

export interface InsertBody extends TargetBody {
  type: string;
  props: Json;
}

export function typeUnknown(type: string): PlatformError {
  return new PlatformError('PlatformAppBlockTypeUnknownError', `The installed version of this app has no block type "${type}"`, { path: ['type'] });
}

/**
 * @example
 * const record = await insertBlockFor(deps, auth, { type: 'poll', props: { question: 'Lunch?' }, circleId: 'cir_…' });
 */
export async function insertBlockFor(deps: InsertDeps, caller: InstallCaller, body: InsertBody): Promise<BlockRecord> {
  requireScope(caller, 'blocks:write');
  return insertBlockAs(deps, caller, body, null);
}

/**
 * The insert itself, for the app API (`member` null) and for a member's insert through the
 * interface (`member`: the delivery's and the event's `actor`, the message's author; only block
 * types the running version marks `insertable`). The caller has checked the credential's rights.
 *
 * @example
 * const record = await insertBlockAs(deps, installCaller, { type: 'poll', props, conversationId }, { memberId, name });
 */
export async function insertBlockAs(deps: InsertDeps, caller: InstallCaller, body: InsertBody, member: EventActor | null): Promise<BlockRecord> {
  const target = await findInstallTarget(deps.db, caller.installId);
  if (target === undefined || target.installStatus !== 'active') throw installRevoked();
  const type = await deps.definitions.blockType(caller.appId, target.version, body.type);
  if (type === undefined) throw typeUnknown(body.type);
  if (member !== null && type.definition.insertable !== true) {
    throw new PlatformError('PlatformApiForbiddenError', `Blocks of type "${body.type}" are not inserted by members: the app inserts them`, { path: ['type'] });
  }
  const props = checkProps(type.props, body.props);
  if (!props.ok) throw invalidRequest(props.issues, props.message);
  const place = await resolvePlace(deps.db, deps.reach, caller, body);

  let tree: CheckedTree | undefined;
  const outcome = await deps.engine.deliver({
    type: 'block.insert', target, actor: member,
    data: { type: body.type, props: body.props, target: insertTarget(place) },
    check: async (result, budget) => {
      const state = checkState(type.state, result.state);
      if (!state.ok) return state.message;
      const checked = checkTree(result.tree, result.actions);
      if (!checked.ok) return treeProblem(checked);
      const copied = await withCopiedImages(deps.images, checked, { withinMs: budget.remainingMs });
      if (!copied.ok) return treeProblem(copied);
      tree = copied;
      return null;
    },
  });
  if (outcome.kind === 'failed') throw failureError(outcome);
  if (outcome.kind !== 'result' || tree === undefined) throw failureError({ reason: 'response-invalid', message: 'block.insert cannot be deferred' });

  return storeBlock(deps, caller, { type, typeName: body.type, props: body.props, state: outcome.result.state, tree, place, target: body }, member);
}

/** A new block with its first state and checked tree, and where its message goes. */
export interface BlockToStore {
  type: BlockType;
  typeName: string;
  props: Json;
  state: Json;
  tree: CheckedTree;
  place: MessagePlace;
  /** The target as the request named it (for its not-found error if it is deleted meanwhile). */
  target: TargetBody;
}

/**
 * Stores a block whose first tree is known: the message, the block and `block.created` commit
 * together (the insert above, after `block.insert`; a tree tried in the playground, blocks/playground).
 */
export async function storeBlock(deps: InsertDeps, caller: InstallCaller, b: BlockToStore, member: EventActor | null): Promise<BlockRecord> {
  const at = new Date(deps.clock.now());
  const staleAfter = b.type.definition.staleAfter;
  const { place } = b;
  const block: NewBlock = {
    id: newBlockId(), workspaceId: caller.workspaceId, appId: caller.appId, installId: caller.installId, type: b.typeName,
    circleId: place.circleId, messageId: newBlockMessageId(), props: b.props, state: b.state,
    tree: b.tree.tree, actions: b.tree.actions, treeHash: b.tree.hash, summary: b.tree.summary,
    renderDueAt: staleAfter === undefined ? null : new Date(at.getTime() + staleAfter * 1000), at,
  };
  // The app answered after up to 5 s: the target may have been deleted meanwhile.
  const row = await deps.db.transaction(async (tx) => {
    await insertBlockMessage(tx, block, place, member?.memberId ?? null);
    await insertBlock(tx, block);
    const stored = (await lockBlock(tx, block.id))!;
    await deps.events.record(tx, {
      type: 'block.created', workspaceId: caller.workspaceId, circleId: place.circleId, installIds: [caller.installId], actor: member,
      data: { block: { ...deliveredBlock(stored), circleId: place.circleId, conversationId: place.conversationId } }, at,
    });
    return stored;
  }).catch((err: unknown) => {
    throw isForeignKeyViolation(err) ? targetGone(b.target) : err;
  });
  deps.events.committed();
  return blockRecord(row);
}
