/**
 * @module logs/ship-queue
 * The lines waiting to be shipped, bounded: at most `maxQueued` wait (the oldest dropped, counted),
 * and a batch is at most `maxBatch` lines and about `SHIPPING.maxBatchChars` of text (profiles are
 * large). A batch that could not be sent goes back to the front.
 */
import type { AppLogInput } from './app-log.ts';

export interface ShipQueue {
  readonly length: number;
  push(line: AppLogInput): void;
  /** Takes the next batch off the front. */
  take(): AppLogInput[];
  /** Puts a batch that was not sent back in front (then trims). */
  putBack(batch: AppLogInput[]): void;
  /** Drops the oldest lines past the bound. */
  trim(): void;
}

export function createShipQueue(limits: { maxQueued: number; maxBatch: number; maxBatchChars: number }, dropped?: (n: number) => void): ShipQueue {
  let queue: AppLogInput[] = [];

  const batchLength = (): number => {
    let chars = 0;
    let n = 0;
    while (n < queue.length && n < limits.maxBatch) {
      const line = queue[n]!;
      // An error's frames are about 100 characters of JSON each.
      chars += line.message.length + (line.profile?.length ?? 0) + (line.error === undefined ? 0 : line.error.message.length + line.error.frames.length * 120);
      if (n > 0 && chars > limits.maxBatchChars) break;
      n++;
    }
    return n;
  };

  const trim = (): void => {
    if (queue.length <= limits.maxQueued) return;
    const over = queue.length - limits.maxQueued;
    queue.splice(0, over);
    dropped?.(over);
  };

  return {
    get length() { return queue.length; },
    push(line) { queue.push(line); },
    take: () => queue.splice(0, batchLength()),
    putBack(batch) {
      queue = [...batch, ...queue];
      trim();
    },
    trim,
  };
}
