/**
 * @module protocol/journal
 * The entry journal of a worker: before each entry into guest code (a request's start, a timer or
 * fetch result delivered to it) the worker writes, at offset 0 of a file the supervisor opened for
 * it (fd 4), the highest job `seq` it ever entered and the `seq` it enters now. A write is in the
 * kernel before the guest runs, so when the worker dies the supervisor still reads which of its
 * jobs may have run guest code (seq ≤ the highest: they fail) and which never did (they run again
 * elsewhere), and which one was running (the culprit). One 24-byte write per entry (~1–2 µs); its
 * third number is the handed connection (hand-off) of the request entered now, or −1.
 */
import { readSync, writeSync } from 'node:fs';

export const JOURNAL_FD = 4;
const BYTES = 24;

export interface JournalEntry {
  maxEntered: number;
  current: number;
  /** The connection slot of the request entered last (hand-off), or −1. */
  slot: number;
}

/**
 * `beforeEntry` runs first: the worker's channel writes out the answers of requests that finished
 * in this turn, so that a guest which now takes the worker down cannot take their answers with it.
 */
export function createJournal(fd: number | null, beforeEntry: () => void = () => {}) {
  // The 24 bytes, then (hand-off) the connection slots' states: one image, written from offset 0.
  let buf = Buffer.alloc(BYTES);
  let maxEntered = 0;
  /** The connection of the next entry (`at`), reset by each entry. */
  let slot = -1;
  /** Highest slot changed since the last write, or −1. */
  let dirty = -1;
  return {
    enter(seq: number): void {
      beforeEntry();
      if (fd === null) return;
      if (seq > maxEntered) maxEntered = seq;
      buf.writeDoubleLE(maxEntered, 0);
      buf.writeDoubleLE(seq, 8);
      buf.writeDoubleLE(slot, 16);
      slot = -1;
      // One write for the entry and every connection state changed since the last: a worker dies
      // only in guest code (or killed from outside, which the supervisor treats apart), so a
      // connection's state needs to be on file only by the next entry, on any connection.
      const end = dirty < 0 || dirty >= MAX_INLINE_SLOTS ? BYTES : CONN_OFFSET + dirty + 1;
      writeSync(fd, buf, 0, end, 0);
      if (end === BYTES && dirty >= 0) writeSync(fd, buf, CONN_OFFSET, dirty + 1, CONN_OFFSET);
      dirty = -1;
    },
    /** The next entry is a request of handed connection `at` (the supervisor answers it with the cause). */
    at(at: number): void {
      slot = at;
    },
    /** A handed connection's state, written with the next entry (protocol/journal.ts, CONN). */
    conn(slot: number, state: number): void {
      if (buf.length <= CONN_OFFSET + slot) {
        const grown = Buffer.alloc(Math.min(CONN_OFFSET + MAX_CONN_SLOTS, Math.max(CONN_OFFSET + slot + 1, buf.length * 2, 64)));
        buf.copy(grown);
        buf = grown;
      }
      buf[CONN_OFFSET + slot] = state;
      if (slot > dirty) dirty = slot;
    },
  };
}

export type Journal = ReturnType<typeof createJournal>;

/** What a (dead) worker last wrote; zeros when it never entered guest code. */
export function readJournal(fd: number): JournalEntry {
  const buf = Buffer.alloc(BYTES);
  const n = readSync(fd, buf, 0, BYTES, 0);
  if (n < BYTES) return { maxEntered: 0, current: 0, slot: -1 };
  return { maxEntered: buf.readDoubleLE(0), current: buf.readDoubleLE(8), slot: buf.readDoubleLE(16) };
}

/**
 * Hand-off (RUNTIME_HANDOFF): after the 24 bytes above, one byte per handed connection (its slot,
 * chosen by the supervisor) says what a death would leave on it: the number of its requests that
 * entered guest code (or were passed to the supervisor) and are not answered (`ENTERED_MAX` at
 * most), plus `CONN.CLOSE` when it cannot be moved to another worker: a request on it is read in
 * part, or read and neither entered nor held. Every other request read on it and not entered is
 * *held*: its bytes went to the supervisor (the `held` frame, only when it waits), which runs them
 * again on another worker. 0 is idle: the kernel holds whatever the client sent since the last
 * answer. Kept by the worker in the journal's image and written with the next entry (`conn`), so
 * the hot path costs one write per entry, as without hand-off.
 */
export const CONN = { IDLE: 0, CLOSE: 0x80, ENTERED_MAX: 0x7f } as const;
const CONN_OFFSET = BYTES;
/** Up to this many slots, their states go out in the entry's own write. */
const MAX_INLINE_SLOTS = 4_096;
/** Connections one worker may hold at once (the file's size bound). */
export const MAX_CONN_SLOTS = 65_536;

/** Every connection slot's last state (IDLE for slots never written). */
export function readConnStates(fd: number): Buffer {
  const buf = Buffer.alloc(MAX_CONN_SLOTS);
  readSync(fd, buf, 0, MAX_CONN_SLOTS, CONN_OFFSET);
  return buf;
}
