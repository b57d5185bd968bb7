/**
 * @module protocol/batch
 * Coalesces the IPC messages produced in one turn of the event loop into one write. Every write to
 * the channel wakes the other process; under concurrency several requests start or finish in the
 * same turn, so one write serves them all.
 */

export type Batched<M> = M | { t: 'batch'; m: M[] };

export function createBatcher<M>(write: (message: Batched<M>) => void): (message: M) => void {
  let queue: M[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const messages = queue;
    queue = [];
    if (messages.length === 1) write(messages[0]!);
    else if (messages.length > 1) write({ t: 'batch', m: messages });
  };
  return (message) => {
    queue.push(message);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

/** Calls `handle` for each message of a (possibly batched) IPC message. */
export function unbatch<M extends { t: string }>(raw: unknown, handle: (message: M) => void): void {
  const message = raw as Batched<M>;
  if (message.t === 'batch') for (const m of (message as { m: M[] }).m) handle(m);
  else handle(message as M);
}
