/**
 * @module protocol/channel
 * Framed messages over the pipe between the supervisor and a sandbox worker (fd 3 of the worker).
 * A frame is `u32 length | u32 head length | head (JSON) | body (bytes)`: the head carries the
 * message, the body carries request and response bodies untouched. Node's own IPC channel costs
 * more per message (its serializer and message events) and has no place for raw bytes.
 *
 * Frames sent in the same turn of the event loop are written together. What a worker had finished
 * when it died is read from its entry journal, not from this channel (protocol/journal.ts).
 */
import type { Duplex } from 'node:stream';

const HEADER_BYTES = 8;
/** Largest frame accepted (a 10 MB response body and its head fit). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export type FrameBody = Buffer | null;

export interface Channel<Out> {
  /** Sends a message; `body` is bytes, or a string written with `encoding`. */
  send(head: Out, body?: Buffer | string | null, encoding?: 'utf8' | 'latin1'): void;
  /** Writes what this turn sent so far now, rather than at the end of the turn. */
  flush(): void;
  close(): void;
}

export function createChannel<In, Out>(stream: Duplex, onMessage: (head: In, body: FrameBody) => void, onBroken: (reason: string) => void): Channel<Out> {
  let pending: Buffer | null = null;
  // Frames sent in one turn of the event loop leave in one write (the messages of a burst of
  // requests, the results of a batch of jobs): one system call and one wake-up of the other side.
  let corked = false;
  const uncork = (): void => {
    if (!corked) return;
    corked = false;
    stream.uncork();
  };
  stream.on('data', (chunk: Buffer) => {
    let buf = pending === null ? chunk : Buffer.concat([pending, chunk]);
    let offset = 0;
    while (buf.length - offset >= HEADER_BYTES) {
      const total = buf.readUInt32LE(offset);
      if (total < HEADER_BYTES || total > MAX_FRAME_BYTES) {
        stream.destroy();
        return onBroken(`frame of ${total} bytes`);
      }
      if (buf.length - offset < total) break;
      const headEnd = offset + HEADER_BYTES + buf.readUInt32LE(offset + 4);
      const head = JSON.parse(buf.toString('utf8', offset + HEADER_BYTES, headEnd)) as In;
      const end = offset + total;
      onMessage(head, end > headEnd ? buf.subarray(headEnd, end) : null);
      offset = end;
    }
    pending = offset === buf.length ? null : buf.subarray(offset);
    buf = null as unknown as Buffer;
  });
  stream.on('error', (err: Error) => onBroken(err.message));
  stream.on('close', () => onBroken('closed'));
  return {
    send(head, body = null, encoding = 'utf8') {
      const json = JSON.stringify(head);
      const headBytes = Buffer.byteLength(json);
      const bodyBytes = body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body, encoding) : body.length;
      const frame = Buffer.allocUnsafe(HEADER_BYTES + headBytes + bodyBytes);
      frame.writeUInt32LE(frame.length, 0);
      frame.writeUInt32LE(headBytes, 4);
      frame.write(json, HEADER_BYTES, 'utf8');
      if (typeof body === 'string') frame.write(body, HEADER_BYTES + headBytes, encoding);
      else if (body !== null) body.copy(frame, HEADER_BYTES + headBytes);
      if (!corked) {
        corked = true;
        stream.cork();
        process.nextTick(uncork);
      }
      stream.write(frame);
    },
    flush() {
      if (corked) uncork();
    },
    close() {
      stream.end();
    },
  };
}
