/**
 * @module core/db/group-commit
 * Group commit: the writes of concurrent callers go to the database together, in one statement
 * (one commit, one WAL flush, one round trip), and each caller hears only once that statement
 * committed, so what it is told is durable.
 *
 * No timer: a write submitted while nothing is being written starts at once, alone (one caller at
 * a time pays no wait); writes submitted meanwhile wait for that flush to finish and then go
 * together. The busier the database, the larger the groups.
 *
 * Per key (a block), writes are applied in the order they were submitted: a group holds at most one
 * write per key (a later one waits for the next group), and groups are written one after another.
 * A group the database refuses is written again one write at a time, so a failing write fails only
 * its own caller; nothing of the refused group was applied (one statement is atomic).
 */

export interface GroupCommit<I, O> {
  /** Resolves with the write's result once the group holding it committed; rejects with its own failure. */
  submit(item: I): Promise<O>;
  /** Resolves once nothing is queued or being written. */
  idle(): Promise<void>;
}

export interface GroupCommitOptions<I, O> {
  /** Writes with the same key are applied in submission order, never in the same group. */
  key(item: I): string;
  /** Writes a group of distinct keys as one statement; answers one result per item, in order. */
  write(group: I[]): Promise<O[]>;
  /** Most writes in one group (default 64). */
  maxGroup?: number;
}

interface Waiting<I, O> {
  item: I;
  key: string;
  resolve(out: O): void;
  reject(err: unknown): void;
}

/**
 * @example
 * const results = createGroupCommit({ key: (w) => w.blockId, write: (group) => writeActionResults(db, group) });
 * const written = await results.submit({ blockId, … }); // durable once this resolves
 */
export function createGroupCommit<I, O>(options: GroupCommitOptions<I, O>): GroupCommit<I, O> {
  const maxGroup = options.maxGroup ?? 64;
  let queue: Array<Waiting<I, O>> = [];
  let flushing: Promise<void> | undefined;

  /** The next group: queued writes in order, the first of each key, at most `maxGroup`. */
  const take = (): Array<Waiting<I, O>> => {
    const keys = new Set<string>();
    const group: Array<Waiting<I, O>> = [];
    const rest: Array<Waiting<I, O>> = [];
    for (const w of queue) {
      if (group.length < maxGroup && !keys.has(w.key)) {
        keys.add(w.key);
        group.push(w);
      } else rest.push(w);
    }
    queue = rest;
    return group;
  };

  const writeAlone = async (w: Waiting<I, O>) => {
    try {
      const [out] = await options.write([w.item]);
      w.resolve(out as O);
    } catch (err) {
      w.reject(err);
    }
  };

  const settle = async (group: Array<Waiting<I, O>>) => {
    if (group.length === 1) return writeAlone(group[0]!);
    let outs: O[];
    try {
      outs = await options.write(group.map((w) => w.item));
    } catch {
      // Nothing of the group was applied: each write alone, so only the failing ones fail.
      for (const w of group) await writeAlone(w);
      return;
    }
    group.forEach((w, i) => w.resolve(outs[i] as O));
  };

  const flush = async () => {
    while (queue.length > 0) await settle(take());
    flushing = undefined;
  };

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, key: options.key(item), resolve, reject });
        flushing ??= flush();
      });
    },
    idle: () => flushing ?? Promise.resolve(),
  };
}
