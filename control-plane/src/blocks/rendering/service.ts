/**
 * @module blocks/rendering/service
 * `block.render`: when a block is viewed after its render came due (`staleAfter` passed, its state
 * changed through the app API, or the app asked to revalidate), and in the background right after a
 * revalidation, an action result with `revalidate`, or a bulk update. The stored tree is the cache
 * of its revision: a view of a block that is not due renders nothing, and a render whose tree and
 * table equal the stored ones keeps the revision (members' references stay valid).
 *
 * One render per block at a time in this process (concurrent viewers wait for the same one). A
 * failed render keeps the last good tree with an inline error for everyone and is tried again a
 * minute later, not on every view. Renders carry no actor: the tree is shared by every viewer,
 * so it must not be drawn for one of them.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { BlockDefinitions } from '../definitions/definitions.ts';
import { findBlock, type BlockWithTarget } from '../records/store.ts';
import { deliveredBlock } from '../records/view.ts';
import type { InteractiveEngine } from '../../deliveries/interactive/engine.ts';
import { memberText } from '../../deliveries/interactive/failures.ts';
import { targetFromRow } from '../../deliveries/pipeline/install-target.ts';
import type { ImageCopier } from '../../apps/assets/copy.ts';
import { checkTree, treeProblem, withCopiedImages, type CheckedTree } from '../../deliveries/interactive/tree-check.ts';
import { writeRender, writeRenderFailure } from '../records/store.ts';

/** A failed render is tried again this much later. */
export const RENDER_RETRY_MS = 60_000;
const BACKGROUND_CONCURRENCY = 4;

export interface Renderer {
  /** The block to show: rendered first when a render is due (and it is not final). */
  refresh(row: BlockWithTarget): Promise<BlockWithTarget>;
  /**
   * Renders the block in the background, once, if a render is still due then (or in any case with
   * `force`: an action result asking to revalidate).
   */
  schedule(blockId: string, options?: { force?: boolean }): void;
  /**
   * Renders the block now, due or not (unless it is final), and answers it as stored after: a card
   * drawn by an earlier version, clicked on an action the version the install runs lacks.
   */
  redraw(row: BlockWithTarget): Promise<BlockWithTarget>;
  /** Resolves when no render is queued or running. */
  settled(): Promise<void>;
}

const isDue = (row: BlockWithTarget, now: number) => !row.final && row.render_due_at !== null && row.render_due_at.getTime() <= now;

/**
 * @example
 * const renderer = createRenderer({ db, clock, logger, engine, definitions });
 * const shown = await renderer.refresh(row);
 */
export function createRenderer(deps: { db: Db; clock: Clock; logger: Logger; engine: InteractiveEngine; definitions: BlockDefinitions; images: ImageCopier }): Renderer {
  const { db, clock } = deps;
  const inflight = new Map<string, Promise<void>>();
  const queue = new Map<string, boolean>();
  let active = 0;
  let waiters: Array<() => void> = [];

  const fail = (row: BlockWithTarget, message: string) =>
    writeRenderFailure(db, row.id, row, { memberId: null, message, at: new Date(clock.now()).toISOString() }, new Date(clock.now() + RENDER_RETRY_MS));

  const render = async (row: BlockWithTarget): Promise<void> => {
    const target = targetFromRow(row);
    const type = await deps.definitions.blockType(row.app_id, target.version, row.type);
    if (type === undefined) return fail(row, 'The app no longer offers this kind of block.');
    let checked: CheckedTree | undefined;
    const outcome = await deps.engine.deliver({
      type: 'block.render', target, actor: null, data: { block: deliveredBlock(row), mode: 'interactive' },
      check: async (result, budget) => {
        const tree = checkTree(result.tree, result.actions);
        if (!tree.ok) return treeProblem(tree);
        const copied = await withCopiedImages(deps.images, tree, { withinMs: budget.remainingMs });
        if (!copied.ok) return treeProblem(copied);
        checked = copied;
        return null;
      },
    });
    if (outcome.kind !== 'result' || checked === undefined) {
      return fail(row, outcome.kind === 'failed' ? memberText(outcome.reason) : memberText('response-invalid'));
    }
    const at = new Date(clock.now());
    const staleAfter = type.definition.staleAfter;
    await writeRender(db, row.id, row, {
      tree: checked.tree, actions: checked.actions, treeJson: checked.treeJson, actionsJson: checked.actionsJson, hash: checked.hash, summary: checked.summary, at,
      nextDueAt: staleAfter === undefined ? null : new Date(at.getTime() + staleAfter * 1000),
    });
  };

  /** One render per block at a time: a second caller waits for the first. */
  const renderOnce = (row: BlockWithTarget): Promise<void> => {
    let running = inflight.get(row.id);
    if (running === undefined) {
      running = render(row).finally(() => inflight.delete(row.id));
      inflight.set(row.id, running);
    }
    return running;
  };

  const settle = () => {
    if (active > 0 || queue.size > 0 || inflight.size > 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };

  const pump = () => {
    while (active < BACKGROUND_CONCURRENCY && queue.size > 0) {
      const [blockId, force] = queue.entries().next().value!;
      queue.delete(blockId);
      active++;
      void (async () => {
        const row = await findBlock(db, blockId);
        if (row !== undefined && !row.final && (force || isDue(row, clock.now()))) await renderOnce(row);
      })()
        .catch((err: unknown) => deps.logger.error({ err, blockId }, 'background render failed'))
        .finally(() => {
          active--;
          pump();
          settle();
        });
    }
  };

  return {
    async refresh(row) {
      if (!isDue(row, clock.now())) return row;
      await renderOnce(row);
      return (await findBlock(db, row.id)) ?? row;
    },
    async redraw(row) {
      if (row.final) return row;
      await renderOnce(row);
      return (await findBlock(db, row.id)) ?? row;
    },
    schedule(blockId, options = {}) {
      queue.set(blockId, (queue.get(blockId) ?? false) || options.force === true);
      pump();
    },
    settled() {
      if (active === 0 && queue.size === 0 && inflight.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
        // A view-started render settles through its own promise.
        for (const running of inflight.values()) void running.finally(settle);
      });
    },
  };
}
