/**
 * @module node/client-errors
 * Bytes that do not parse as HTTP on a connection that still owes answers. Node's HTTP parser reads
 * pipelined requests ahead of their answers: a valid request followed in the same write by garbage
 * reaches its handler, and the parse error arrives (as the server's `clientError`) while that
 * handler still runs. Node's default, and a handler that destroys the socket, then drop the answer
 * of a request that already took effect. `answerClientErrorsInOrder` counts the answers each
 * connection owes and writes the refusal for the bad bytes only after the last of them, so every
 * request is answered in order and the refusal comes last.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { PlatformError } from '../errors/index.ts';

/** Node's default `maxHeaderSize`: the request line and headers together. */
export const MAX_HEADER_BYTES = 16 * 1024;

function rawResponse(status: number, reason: string, error: PlatformError): string {
  const body = JSON.stringify(error.toBody());
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

const HEADERS_TOO_LARGE = rawResponse(431, 'Request Header Fields Too Large', new PlatformError(
  'PlatformApiHeadersTooLargeError', `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes`, { fields: { limit: MAX_HEADER_BYTES } }));

const MALFORMED = rawResponse(400, 'Bad Request', new PlatformError(
  'PlatformApiInvalidRequestError', 'The request is not well-formed HTTP', { fields: { issues: [] } }));

/** The spec's error body for bytes the parser refused: `431` for headers over 16 KB, else `400`. */
export const taggedRefusal = (err: NodeJS.ErrnoException): string => (err.code === 'HPE_HEADER_OVERFLOW' ? HEADERS_TOO_LARGE : MALFORMED);

export interface ClientErrorOptions {
  /** The raw HTTP response (status line, headers, body) for a parse error, by Node's error (default `taggedRefusal`). */
  refusal?(err: NodeJS.ErrnoException): string;
  /** Told of each refusal (for a debug log line). */
  onRefusal?(err: NodeJS.ErrnoException): void;
}

interface Owed {
  /** Responses of this connection that have not closed yet, by their request. */
  open: Map<IncomingMessage, ServerResponse>;
  /** The refusal waiting for them, once the parser failed. */
  refusal: string | null;
  /** A request the bad bytes fell inside (its body can never complete): its answer is not waited for. */
  broken: IncomingMessage | null;
  refused: boolean;
}

/** What Node keeps on a server socket (not in its types). */
type ServerSocket = Duplex & { parser?: { incoming?: IncomingMessage | null } | null };

/**
 * Registers the server's `clientError` handling (replacing Node's default).
 * @example
 * answerClientErrorsInOrder(server, { onRefusal: (err) => logger.debug({ code: err.code }, 'client error') });
 */
export function answerClientErrorsInOrder(server: Server, options: ClientErrorOptions = {}): void {
  const refusalOf = options.refusal ?? taggedRefusal;
  const owed = new WeakMap<Duplex, Owed>();
  const stateOf = (socket: Duplex): Owed => {
    let state = owed.get(socket);
    if (state === undefined) owed.set(socket, (state = { open: new Map(), refusal: null, broken: null, refused: false }));
    return state;
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const state = stateOf(socket);
    state.open.set(req, res);
    // `close` follows Node's own `finish` bookkeeping (the next pipelined response has its socket).
    res.once('close', () => {
      state.open.delete(req);
      refuseWhenDue(socket, state);
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: ServerSocket) => {
    // A connection reset or timed out has nobody to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const state = stateOf(socket);
    // The parser reports every later chunk again: the first report decides.
    if (state.refusal !== null) return;
    options.onRefusal?.(err);
    state.refusal = refusalOf(err);
    const incoming = socket.parser?.incoming;
    if (incoming != null && !incoming.complete && state.open.has(incoming)) state.broken = incoming;
    refuseWhenDue(socket, state);
  });
}

/**
 * Writes the refusal once every answer owed before it is out. The connection then ends: nothing
 * after bad bytes can be framed, and a broken request's handler finds its body aborted.
 */
function refuseWhenDue(socket: Duplex, state: Owed): void {
  if (state.refusal === null || state.refused) return;
  for (const req of state.open.keys()) if (req !== state.broken) return;
  state.refused = true;
  // A broken request's handler that already began its answer: more bytes would corrupt it.
  const midAnswer = state.broken !== null && state.open.get(state.broken)?.headersSent === true;
  if (socket.writable && !midAnswer) socket.end(state.refusal);
  else socket.destroy();
}
