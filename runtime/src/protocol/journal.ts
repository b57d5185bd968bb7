/**
 * @module protocol/journal
 * The entry journal of a worker: before each entry into guest code (a request's start, a timer or
 * fetch result delivered to it) the worker writes, at offset 0 of a file the supervisor opened for
 * it (fd 4), the highest job `seq` it ever entered and the `seq` it enters now. A write is in the
 * kernel before the guest runs, so when the worker dies the supervisor still reads which of its
 * jobs may have run guest code (seq ≤ the highest: they fail) and which never did (they run again
 * elsewhere), and which one was running (the culprit). One 16-byte write per entry (~1–2 µs).
 */
import { readSync, writeSync } from 'node:fs';

export const JOURNAL_FD = 4;
const BYTES = 16;

export interface JournalEntry {
  maxEntered: number;
  current: number;
}

/**
 * `beforeEntry` runs first: the worker's channel writes out the answers of requests that finished
 * in this turn, so that a guest which now takes the worker down cannot take their answers with it.
 */
export function createJournal(fd: number | null, beforeEntry: () => void = () => {}) {
  const buf = Buffer.alloc(BYTES);
  let maxEntered = 0;
  return {
    enter(seq: number): void {
      beforeEntry();
      if (fd === null) return;
      if (seq > maxEntered) maxEntered = seq;
      buf.writeDoubleLE(maxEntered, 0);
      buf.writeDoubleLE(seq, 8);
      writeSync(fd, buf, 0, BYTES, 0);
    },
  };
}

export type Journal = ReturnType<typeof createJournal>;

/** What a (dead) worker last wrote; zeros when it never entered guest code. */
export function readJournal(fd: number): JournalEntry {
  const buf = Buffer.alloc(BYTES);
  const n = readSync(fd, buf, 0, BYTES, 0);
  if (n < BYTES) return { maxEntered: 0, current: 0 };
  return { maxEntered: buf.readDoubleLE(0), current: buf.readDoubleLE(8) };
}

/**
 * Hand-off (RUNTIME_HANDOFF): after the 16 bytes above, one byte per handed connection (its slot,
 * chosen by the supervisor) says whether a request on it is in progress: `IDLE` (nothing read since
 * the last answer went out: the connection can move to another worker, the kernel holds whatever the
 * client sent since), `READ` (a request read, not entered), `ENTERED` (a request entered guest code).
 * Written by the worker only when it changes: entry and the answer's end on the hot path.
 */
export const CONN = { IDLE: 0, READ: 1, ENTERED: 2 } as const;
export type ConnState = (typeof CONN)[keyof typeof CONN];
const CONN_OFFSET = BYTES;
/** Connections one worker may hold at once (the file's size bound). */
export const MAX_CONN_SLOTS = 65_536;

export function writeConnState(fd: number | null, slot: number, state: ConnState, scratch: Buffer = Buffer.alloc(1)): void {
  if (fd === null) return;
  scratch[0] = state;
  writeSync(fd, scratch, 0, 1, CONN_OFFSET + slot);
}

/** Every connection slot's last state (IDLE for slots never written). */
export function readConnStates(fd: number): Buffer {
  const buf = Buffer.alloc(MAX_CONN_SLOTS);
  readSync(fd, buf, 0, MAX_CONN_SLOTS, CONN_OFFSET);
  return buf;
}
