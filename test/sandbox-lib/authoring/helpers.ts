// Shared pieces of the authoring tests: envelopes as the service sends them, signed requests,
// a logger that keeps what it was told, and a loopback HTTP server answering canned JSON.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliveryHeaders, generateSigningSecret, type Logger } from '@platform/sdk';

export const SECRET = generateSigningSecret();
/** A fixed clock: signatures are made and checked at this instant. */
export const NOW_MS = Date.UTC(2025, 0, 2, 3, 4, 5);
export const NOW_S = Math.floor(NOW_MS / 1000);

export const COUNTER = { id: 'blk_1', type: 'counter', props: { label: 'Clicks' }, state: { count: 2, step: 1 }, revision: 3, version: 7 };
export const AUTHOR = { kind: 'member', id: 'mem_2', name: 'Ada' };
export const MESSAGE = { id: 'msg_1', text: 'We should ship', author: AUTHOR, createdAt: '2025-01-02T03:04:05.000Z' };

let sequence = 0;

export function envelope(type: string, data: unknown, overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    id: `dlv_${sequence}`,
    type,
    timestamp: '2025-01-02T03:04:05.000Z',
    app: { id: 'app_1', slug: 'counter', version: 2 },
    install: { id: 'ins_1', workspaceId: 'wsp_1', kind: 'workspace', config: { team: 'a' } },
    installToken: { token: 'platapp_install', expiresAt: '2025-01-02T04:04:05.000Z' },
    actor: { memberId: 'mem_1', name: 'Grace' },
    locale: 'en',
    timeZone: 'UTC',
    data,
    ...overrides,
  };
}

export function actionData(name: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { block: COUNTER, action: { name, args }, tallies: {}, invocationId: 'inv_1', interactionToken: 'platint_1', ...extra };
}

export interface SignOptions {
  secret?: string;
  timestamp?: number;
  id?: string;
  url?: string;
  deliveryClass?: 'interactive' | 'lifecycle';
  /** Replace the body after signing (a tampered delivery). */
  tamper?: string;
}

/** A delivery request signed the way the service signs it. */
export async function signedRequest(body: { id: string } & Record<string, unknown>, options: SignOptions = {}): Promise<Request> {
  const text = JSON.stringify(body);
  const headers = await deliveryHeaders({
    id: options.id ?? body.id,
    timestamp: options.timestamp ?? NOW_S,
    body: text,
    secret: options.secret ?? SECRET,
    deliveryClass: options.deliveryClass ?? 'interactive',
    installId: 'ins_1',
  });
  return new Request(options.url ?? 'https://counter.example.com/platform', { method: 'POST', headers, body: options.tamper ?? text });
}

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

export function captureLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (message: string, fields: Record<string, unknown> = {}) => {
    entries.push({ level, message, fields });
  };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface Loopback {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A loopback server that records each request and answers with `answer(request)` (`[status, json]`). */
export async function loopback(answer: (request: Recorded) => [number, unknown]): Promise<Loopback> {
  const requests: Recorded[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text === '' ? undefined : JSON.parse(text) };
      requests.push(recorded);
      const [status, json] = answer(recorded);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(json === undefined ? '' : typeof json === 'string' ? json : JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
