/**
 * A small round-robin HTTP load balancer for fleet tests: each request goes to the next backend; a
 * backend that refuses the connection is passed over for the next one (as a load balancer's
 * "next upstream on connect error" does), so a killed process costs only the requests that were in
 * flight on it. Those are answered 502 with a body of this proxy's own (`_tag: 'TestProxyBackendLost'`),
 * so a test can tell them from the platform's answers. Bodies stream both ways.
 *
 *   const lb = await startRoundRobinProxy(['http://127.0.0.1:4000', 'http://127.0.0.1:4100']);
 *   await fetch(`${lb.url}/healthz`);
 *   await lb.close();
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  port: number;
  /** Requests answered by each backend, and those lost in flight. */
  readonly counts: { byBackend: Map<string, number>; lost: number; refused: number };
  close(): Promise<void>;
}

// Connection errors before anything was sent: the backend never saw the request.
const REFUSED = new Set(['ECONNREFUSED', 'EHOSTUNREACH']);

function lost(res: ServerResponse, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ _tag: 'TestProxyBackendLost', message });
  res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

export async function startRoundRobinProxy(backends: string[], options: { port?: number } = {}): Promise<RoundRobinProxy> {
  let next = 0;
  const counts = { byBackend: new Map<string, number>(), lost: 0, refused: 0 };

  /** The next backend in turn that this request has not tried yet. */
  const pick = (tried: ReadonlySet<string>): string => {
    for (let i = 0; i < backends.length; i++) {
      const backend = backends[next++ % backends.length]!;
      if (!tried.has(backend)) return backend;
    }
    return backends[next++ % backends.length]!;
  };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: Set<string>): void => {
    const backend = pick(tried);
    tried.add(backend);
    const target = new URL(backend);
    const upstream = request({
      host: target.hostname, port: target.port, method: req.method, path: req.url,
      headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '', connection: 'close' },
    }, (answer) => {
      counts.byBackend.set(backend, (counts.byBackend.get(backend) ?? 0) + 1);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('error', () => {
        counts.lost++;
        res.destroy();
      });
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      // Nothing was sent yet when the connection was refused: the next backend may take it.
      if (REFUSED.has(err.code ?? '') && tried.size < backends.length) {
        counts.refused++;
        forward(req, res, body, tried);
        return;
      }
      counts.lost++;
      lost(res, `${backend}: ${err.message}`);
    });
    upstream.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), new Set()));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counts,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
