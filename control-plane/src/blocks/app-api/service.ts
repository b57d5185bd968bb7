/**
 * @module blocks/app-api/service
 * The blocks API for apps (`/v0/blocks…`): insert, read, query, update, replace, revalidate and
 * the bulk update by state. Reading, querying and revalidating the install's own blocks need no
 * scope; writes need `blocks:write` with an install token (or an interaction token for the block
 * the action ran on). Blocks of other installs answer as if absent.
 */
import type { ImageCopier } from '../../apps/assets/copy.ts';
import type { BlockRecord } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';
import { decodeCursor, encodeCursor } from '../../core/http/common.ts';
import type { InteractiveEngine } from '../../deliveries/interactive/engine.ts';
import type { EventProducer } from '../../workspace/events/index.ts';
import type { ReachGuard } from '../../apps/guards/index.ts';
import { insertBlockFor, type InsertBody } from './insert.ts';
import { markRenderDue, queryBlocks, type Json } from '../records/store.ts';
import { ownBlock, updateBlocksByState, updateBlockState, type BlockCaller, type UpdateDeps } from './updates.ts';
import { blockRecord } from '../records/view.ts';

export interface BlocksServiceDeps extends UpdateDeps {
  engine: InteractiveEngine;
  reach: ReachGuard;
  events: EventProducer;
  images: ImageCopier;
}

export interface BlocksService {
  insert(caller: InstallCaller, body: InsertBody): Promise<BlockRecord>;
  get(caller: BlockCaller, blockId: string): Promise<BlockRecord>;
  query(caller: InstallCaller, body: { type?: string | undefined; stateMatch?: Json | undefined; cursor?: string | undefined; limit: number }): Promise<{ items: BlockRecord[]; nextCursor: string | null }>;
  update(caller: BlockCaller, blockId: string, body: { state: Json; expectedVersion?: number | undefined }): Promise<BlockRecord>;
  replace(caller: BlockCaller, blockId: string, body: { state: Json; expectedVersion?: number | undefined }): Promise<BlockRecord>;
  revalidate(caller: InstallCaller, blockId: string): Promise<{ scheduled: boolean }>;
  updateByState(caller: InstallCaller, body: { type: string; stateMatch: Json; state: Json }): Promise<{ updatedCount: number }>;
}

/**
 * @example
 * const blocks = createAppApiService({ db, clock, definitions, renderer, engine, reach, events });
 * const record = await blocks.get(auth, 'blk_…');
 */
export function createAppApiService(deps: BlocksServiceDeps): BlocksService {
  return {
    insert: (caller, body) => insertBlockFor(deps, caller, body),

    async get(caller, blockId) {
      return blockRecord(await ownBlock(deps.db, caller, blockId));
    },

    async query(caller, body) {
      const rows = await queryBlocks(deps.db, caller.installId, { type: body.type, stateMatch: body.stateMatch, before: decodeCursor(body.cursor), limit: body.limit });
      const more = rows.length > body.limit;
      const shown = more ? rows.slice(0, body.limit) : rows;
      const last = shown.at(-1);
      return { items: shown.map(blockRecord), nextCursor: more && last ? encodeCursor({ at: last.created_at, id: last.id }) : null };
    },

    update: (caller, blockId, body) => updateBlockState(deps, caller, blockId, body, 'merge'),
    replace: (caller, blockId, body) => updateBlockState(deps, caller, blockId, body, 'replace'),

    /** Final blocks are never rendered again (the service stops calling the app for them). */
    async revalidate(caller, blockId) {
      const row = await ownBlock(deps.db, caller, blockId);
      if (row.final) return { scheduled: false };
      await markRenderDue(deps.db, blockId, new Date(deps.clock.now()));
      deps.renderer.schedule(blockId);
      return { scheduled: true };
    },

    updateByState: (caller, body) => updateBlocksByState(deps, caller, body),
  };
}
