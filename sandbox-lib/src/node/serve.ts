/**
 * @module node/serve
 * `serve(app, { port })`: runs a self-hosted app on `node:http`. Each request becomes a Web
 * `Request` for `app.fetch(request, env, ctx)`; `ctx.waitUntil` work is tracked so `close()` waits
 * for it. Bodies over `maxBodyBytes` get `413` and the connection is closed without reading on.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consoleLogger, type Logger } from '../authoring/logger.ts';
import type { AppEnv } from '../authoring/context.ts';
import { processEnv } from './config.ts';
import { toWebRequest } from './node-to-web.ts';
import { writeWebResponse } from './web-to-node.ts';
import { answerClientErrorsInOrder } from './client-errors.ts';
import { useNodeHmac } from './sign.ts';

/** What `serve` needs of an app: `defineApp`'s answer fits. */
export interface Servable {
  fetch(request: Request, env?: AppEnv, ctx?: { waitUntil?(promise: Promise<unknown>): void; platformChecksTrees?: boolean }): Promise<Response>;
}

export interface ServeOptions {
  /** `0` picks a free port (read it from `url`). */
  readonly port: number;
  /** Default `127.0.0.1`; `0.0.0.0` to accept other machines. */
  readonly host?: string;
  /** Default: a snapshot of `process.env` (which holds `PLATFORM_SIGNING_SECRET` and `PLATFORM_API_URL`). */
  readonly env?: AppEnv;
  /** Largest request body accepted (default 4 MB). */
  readonly maxBodyBytes?: number;
  readonly logger?: Logger;
}

export interface Served {
  /** `http://host:port`. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, ends open connections and waits for `waitUntil` work. */
  close(): Promise<void>;
}

/**
 * Serves an app over HTTP.
 * @example
 * import { serve } from '@platform/sdk/node';
 * const server = await serve(app, { port: 8787 });
 * console.log(`Deliveries go to ${server.url}/platform`);
 */
export async function serve(app: Servable, options: ServeOptions): Promise<Served> {
  const host = options.host ?? '127.0.0.1';
  useNodeHmac();
  const env = options.env ?? processEnv();
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const log = options.logger ?? consoleLogger;
  const pending = new Set<Promise<unknown>>();
  let origin = '';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const read = await toWebRequest(req, origin, maxBodyBytes, controller.signal);
    if (!read.ok) {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      // The rest of the body is never read: end the answer, then drop the connection.
      res.end(JSON.stringify({ error: 'body-too-large', limit: maxBodyBytes }), () => req.destroy());
      return;
    }
    const waitUntil = (promise: Promise<unknown>) => {
      const tracked = Promise.resolve(promise).catch(() => undefined).finally(() => pending.delete(tracked));
      pending.add(tracked);
    };
    // Deliveries reaching this server come from the platform, which checks every tree answered
    // (authoring/results.ts, `checksTrees`): the SDK checks them again only for development installs.
    const response = await app.fetch(read.request, env, { waitUntil, platformChecksTrees: true });
    await writeWebResponse(res, response);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.error('serve: request failed', { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(res.headersSent ? undefined : JSON.stringify({ error: 'internal' }));
    });
  });
  // A valid request and garbage in one write: the request's answer first, then the tagged 400.
  answerClientErrorsInOrder(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: origin,
    port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.allSettled([...pending]);
    },
  };
}
