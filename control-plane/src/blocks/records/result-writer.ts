/**
 * @module blocks/records/result-writer
 * The one durable write of a click: its action result, group-committed with the results of the
 * clicks running at the same time (core/db/group-commit.ts: one statement for the group, each
 * click answered once it committed; per block in the order the results arrived).
 */
import { createGroupCommit } from '../../core/db/group-commit.ts';
import type { Db } from '../../core/db/db.ts';
import { writeActionResults, type ActionResultWrite, type BlockWithTarget, type ResultWrite } from './store.ts';

export interface ResultWriter {
  /** Applies a result to `row`; the block as it now is, or undefined when it became final meanwhile. Durable when it resolves. */
  write(row: BlockWithTarget, write: ResultWrite): Promise<BlockWithTarget | undefined>;
  /** Resolves once no result is queued or being written. */
  idle(): Promise<void>;
}

/**
 * @example
 * const results = createResultWriter({ db });
 * const written = await results.write(row, resultWrite(prepared, ctx));
 */
export function createResultWriter(deps: { db: Db; maxGroup?: number }): ResultWriter {
  const group = createGroupCommit<ActionResultWrite, BlockWithTarget | undefined>({
    key: (w) => w.row.id,
    write: (items) => writeActionResults(deps.db, items),
    ...(deps.maxGroup === undefined ? {} : { maxGroup: deps.maxGroup }),
  });
  return {
    write: (row, write) => group.submit({ row, write }),
    idle: () => group.idle(),
  };
}
