/**
 * @module blocks/app-api/updates
 * State writes of the app API: one block (`PATCH` shallow-merges, `PUT` replaces; with an install
 * token and `blocks:write`, or with the interaction token of an action on that very block within
 * its 15 minutes, no scope), and the bulk update by state (`PATCH /v0/blocks`). Every write checks
 * the result against the block's state schema, moves the version on and has the block re-rendered
 * right after the commit (the tree showed the old state). Final blocks take no writes: a single
 * update answers `PlatformAppBlockFinalError`, the bulk update skips them.
 */
import { PlatformError } from '@platform/sdk';
import type { InstallCaller, InteractionCaller } from '../../core/auth/caller.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { findInstallTarget } from '../../deliveries/pipeline/install-target.ts';
import { installRevoked, requireScope } from '../../apps/guards/index.ts';
import type { Renderer } from '../rendering/service.ts';
import type { BlockDefinitions } from '../definitions/definitions.ts';
import { typeUnknown } from './insert.ts';
import { checkState } from '../definitions/state.ts';
import { findBlock, lockBlock, lockMatching, mergeStates, writeState, type BlockWithTarget, type Json } from '../records/store.ts';
import { blockRecord } from '../records/view.ts';

export type BlockCaller = InstallCaller | InteractionCaller;

export interface UpdateDeps {
  db: Db;
  clock: Clock;
  definitions: BlockDefinitions;
  renderer: Renderer;
}

export function blockNotFound(): PlatformError {
  return new PlatformError('PlatformAppBlockNotFoundError', 'No block with that id created by this install', { path: ['block_id'] });
}

export function blockFinal(blockId: string): PlatformError {
  return new PlatformError('PlatformAppBlockFinalError', 'The block is final: it takes no more changes', { path: ['block_id'], fields: { blockId } });
}

/**
 * The caller's own block: created by the same install and, for an interaction token, the block the
 * action ran on. Anything else answers as if absent.
 */
export async function ownBlock(db: Db, caller: BlockCaller, blockId: string): Promise<BlockWithTarget> {
  const row = await findBlock(db, blockId);
  if (row === undefined || row.install_id !== caller.installId || row.workspace_id !== caller.workspaceId) throw blockNotFound();
  if (caller.kind === 'interaction' && caller.blockId !== blockId) throw blockNotFound();
  return row;
}

function stateInvalid(message: string, path: Array<string | number>, blockId: string): PlatformError {
  return new PlatformError('PlatformAppBlockStateInvalidError', message, { path, fields: { blockId } });
}

/**
 * @example
 * const record = await updateBlockState(deps, auth, blockId, { state: { open: false }, expectedVersion: 3 }, 'merge');
 */
export async function updateBlockState(
  deps: UpdateDeps, caller: BlockCaller, blockId: string, body: { state: Json; expectedVersion?: number | undefined }, mode: 'merge' | 'replace',
) {
  if (caller.kind === 'install') requireScope(caller, 'blocks:write');
  const row = await ownBlock(deps.db, caller, blockId);
  const type = await deps.definitions.blockType(row.app_id, row.t_version, row.type);
  if (type === undefined) throw typeUnknown(row.type);
  const at = new Date(deps.clock.now());
  const written = await deps.db.transaction(async (tx) => {
    const locked = await lockBlock(tx, blockId);
    if (locked === undefined) throw blockNotFound();
    if (locked.final) throw blockFinal(blockId);
    if (body.expectedVersion !== undefined && body.expectedVersion !== locked.version) {
      throw new PlatformError('PlatformAppBlockVersionConflictError', `The block is at version ${locked.version}, not ${body.expectedVersion}`, {
        path: ['expectedVersion'], fields: { blockId, expectedVersion: body.expectedVersion, currentVersion: locked.version },
      });
    }
    const next = mode === 'merge' ? { ...locked.state, ...body.state } : body.state;
    const check = checkState(type.state, next);
    if (!check.ok) throw stateInvalid(check.message, check.issues[0]?.path ?? ['state'], blockId);
    return writeState(tx, blockId, next, at, caller.kind === 'interaction');
  });
  deps.renderer.schedule(blockId);
  return blockRecord(written);
}

/**
 * `PATCH /v0/blocks`: every non-final block of `type` created by the install whose state contains
 * `stateMatch` gets `state` merged in. All or nothing: one block whose merged state would break
 * the schema answers `PlatformAppBlockStateInvalidError` (naming it) and nothing changes.
 *
 * @example
 * const { updatedCount } = await updateBlocksByState(deps, auth, { type: 'poll', stateMatch: { open: true }, state: { open: false } });
 */
export async function updateBlocksByState(deps: UpdateDeps, caller: InstallCaller, body: { type: string; stateMatch: Json; state: Json }) {
  requireScope(caller, 'blocks:write');
  const target = await findInstallTarget(deps.db, caller.installId);
  if (target === undefined || target.installStatus !== 'active') throw installRevoked();
  const type = await deps.definitions.blockType(caller.appId, target.version, body.type);
  if (type === undefined) throw typeUnknown(body.type);
  const at = new Date(deps.clock.now());
  const ids = await deps.db.transaction(async (tx) => {
    const matching = await lockMatching(tx, caller.installId, body.type, body.stateMatch);
    for (const block of matching) {
      const check = checkState(type.state, { ...block.state, ...body.state });
      if (!check.ok) throw stateInvalid(`Block ${block.id}: ${check.message}`, check.issues[0]?.path ?? ['state'], block.id);
    }
    const ids = matching.map((b) => b.id);
    if (ids.length > 0) await mergeStates(tx, ids, body.state, at);
    return ids;
  });
  for (const id of ids) deps.renderer.schedule(id);
  return { updatedCount: ids.length };
}
