/**
 * `startReceiver()`: an app's delivery endpoint on loopback, as a self-hosted app runs one. It
 * records every request (headers, raw body, parsed envelope) and answers with what `respond`
 * decides (default `204`); `waitFor` resolves once a condition on the recorded requests holds,
 * driven by arrivals (no polling, no sleeps).
 *
 *   const receiver = await startReceiver();
 *   receiver.respond = (req) => (req.attempt === 1 ? 500 : 204);
 *   await receiver.waitFor((all) => all.length >= 2);
 *   await receiver.stop();
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  /** Arrival order, from 1. */
  seq: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  envelope: any;
  /** How many requests with this `webhook-id` arrived so far, this one included. */
  attempt: number;
  at: number;
}

/** A status code, or `'hang'` to never answer (released by `stop`). */
export type Reply = number | 'hang' | { status: number; body: string };

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  respond: (req: ReceivedRequest) => Reply;
  waitFor(condition: (all: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Distinct `webhook-id`s answered with a 2xx. */
  acknowledged: Set<string>;
  stop(): Promise<void>;
}

export async function startReceiver(options: { path?: string } = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const acknowledged = new Set<string>();
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  const path = options.path ?? '/platform';

  const receiver: Receiver = {
    url: '',
    requests,
    acknowledged,
    respond: () => 204,
    waitFor(condition, timeoutMs = 20_000) {
      if (condition(requests)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!condition(requests)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: condition not met after ${requests.length} requests`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    async stop() {
      for (const res of hanging) res.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let envelope: any = null;
      try {
        envelope = JSON.parse(body);
      } catch {
        // recorded as is
      }
      const id = String(req.headers['webhook-id'] ?? '');
      const attempt = (counts.get(id) ?? 0) + 1;
      counts.set(id, attempt);
      const record: ReceivedRequest = { seq: requests.length + 1, path: req.url ?? '', headers: req.headers, body, envelope, attempt, at: performance.now() };
      requests.push(record);
      const reply = req.url?.split('?')[0] === path ? receiver.respond(record) : 404;
      if (reply === 'hang') {
        hanging.add(res);
      } else {
        const status = typeof reply === 'number' ? reply : reply.status;
        if (status >= 200 && status < 300) acknowledged.add(id);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof reply === 'number' ? '' : reply.body);
      }
      for (const check of [...waiters]) check();
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
