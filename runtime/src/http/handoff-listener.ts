/**
 * @module http/handoff-listener
 * The node's listening socket with connection hand-off (RUNTIME_HANDOFF=ingress): the supervisor
 * reads each new connection's first request head (up to its blank line) and, when it is hosted
 * ingress, hands the connection once to a sandbox worker with the bytes read so far (the worker
 * parses this and every later request on it: no supervisor hop per request). Every other
 * connection (the internal API, health, a head that does not parse) is served here as before, the
 * bytes read put back first. One look per connection, not per request.
 */
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Server } from 'node:http';

/** Node's own limit on a request head. */
const MAX_HEAD_BYTES = 16 * 1024;
/** A client that sends no full head within this is served here (Node's own timeouts then apply). */
const HEAD_WAIT_MS = 10_000;
const END = Buffer.from('\r\n\r\n');

/** The request target and Host of a head, or null when it does not look like HTTP/1.1. */
export function readHead(buf: Buffer, end: number): { target: string; host: string | undefined } | null {
  const text = buf.toString('latin1', 0, end);
  const lineEnd = text.indexOf('\r\n');
  const line = (lineEnd === -1 ? text : text.slice(0, lineEnd)).split(' ');
  if (line.length !== 3 || !line[2]!.startsWith('HTTP/1.')) return null;
  const host = /\r\nhost:[ \t]*([^\r]*)/i.exec(text)?.[1]?.trim();
  return { target: line[1]!, host };
}

/**
 * Stops this process's reads of `socket` at the system call, for good: a paused stream still asks
 * for more up to its high-water mark (Readable's read-ahead restarts the handle's reads), and those
 * bytes would never reach the worker. `resume` undoes it (the hand-off did not happen).
 */
function stopReading(socket: Socket): () => void {
  const s = socket as unknown as { _read: (n: number) => void; _handle?: { reading?: boolean; readStop?: () => number } };
  const read = s._read;
  s._read = () => {};
  const handle = s._handle;
  if (handle?.readStop !== undefined) {
    handle.reading = false;
    handle.readStop();
  }
  return () => {
    s._read = read;
  };
}

export function createHandoffListener(deps: {
  http: Server;
  isIngress(target: string, host: string | undefined): boolean;
  handOff(socket: Socket, head: Buffer): boolean;
}): NetServer {
  const serveHere = (socket: Socket, head: Buffer): void => {
    if (head.length > 0) socket.unshift(head);
    deps.http.emit('connection', socket);
  };
  return createNetServer((socket) => {
    let buf: Buffer = Buffer.alloc(0);
    const decide = (): void => {
      socket.off('data', onData);
      socket.off('end', decide);
      socket.off('error', onError);
      clearTimeout(timer);
      const end = buf.indexOf(END);
      const head = end === -1 ? null : readHead(buf, end);
      if (head !== null && deps.isIngress(head.target, head.host)) {
        // Nothing more is read here: what arrives next is the worker's to read. This process keeps
        // its copy of the connection (to answer or move it if the worker dies), reading nothing.
        socket.pause();
        const resume = stopReading(socket);
        if (deps.handOff(socket, buf)) return;
        resume();
        socket.resume();
      }
      serveHere(socket, buf);
    };
    const onData = (chunk: Buffer): void => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      if (buf.includes(END) || buf.length >= MAX_HEAD_BYTES) decide();
    };
    const onError = (): void => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(decide, HEAD_WAIT_MS);
    timer.unref();
    socket.on('data', onData);
    socket.once('end', decide);
    socket.once('error', onError);
  });
}
