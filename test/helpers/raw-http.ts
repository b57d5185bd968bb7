/**
 * Raw HTTP/1.1 over a `net` socket, for what `fetch` cannot send: several requests and stray bytes
 * in one write, a body shorter than its Content-Length. `exchange` writes the bytes and collects
 * everything the server writes until it closes the connection; `parseResponses` splits that into
 * responses (each with a Content-Length body, as our servers answer).
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Opens a connection to the origin's host and port. */
export function openSocket(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes `bytes` in one write and resolves with all the server wrote before it closed. */
export async function exchange(origin: string, bytes: string): Promise<string> {
  const socket = await openSocket(origin);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(bytes);
  });
}

/** One request as raw bytes, with a JSON body when one is given. */
export function rawRequest(method: string, path: string, headers: Record<string, string>, body?: unknown): string {
  const text = body === undefined ? '' : JSON.stringify(body);
  const lines = Object.entries({ host: 'localhost', ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }) })
    .map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return `${method} ${path} HTTP/1.1\r\n${lines}\r\n${text}`;
}

export function parseResponses(raw: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = Buffer.from(raw, 'utf8');
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`An incomplete response: ${JSON.stringify(rest.toString('utf8'))}`);
    const [statusLine, ...headerLines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
    const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    out.push({ status, headers, body: rest.subarray(end + 4, end + 4 + length).toString('utf8') });
    rest = rest.subarray(end + 4 + length);
  }
  return out;
}
