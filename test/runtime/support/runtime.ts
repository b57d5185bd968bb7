/**
 * Test support: a real runtime node on loopback (its own data dir, silent logger, in-memory app
 * directory), bundles read from test/fixtures/runtime, and small loopback servers for egress
 * targets and a stand-in control plane. Every test stops what it starts.
 */
import { createHash, createHmac } from 'node:crypto';
import { DELIVERY_HEADERS, parseSigningSecret } from '@platform/sdk';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createMemoryAppDirectory, createRuntimeClient, createRuntimeNode, loadConfig, type ResolvedApp, type RuntimeClient, type RuntimeDeliveryRequest, type RuntimeNode } from '@platform/runtime';

export const SECRET = 'test-secret-0123456789abcdef';
export const SIGNING_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** Standard Webhooks headers signed with SIGNING_SECRET, as the control plane signs a delivery. */
export function signedHeaders(id: string, body: string, deliveryClass: 'interactive' | 'lifecycle', installId: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const key = parseSigningSecret(SIGNING_SECRET)!;
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    [DELIVERY_HEADERS.id]: id, [DELIVERY_HEADERS.timestamp]: String(timestamp), [DELIVERY_HEADERS.signature]: `v1,${signature}`,
    [DELIVERY_HEADERS.deliveryClass]: deliveryClass, [DELIVERY_HEADERS.install]: installId, 'content-type': 'application/json',
  };
}

export function fixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/runtime/bundle-${name}.js`, import.meta.url), 'utf8');
}

export function sha256(source: string | Uint8Array): string {
  return createHash('sha256').update(source).digest('hex');
}

export interface TestRuntime {
  url: string;
  /** The operator port's `/metrics` (never on the ingress port). */
  metricsUrl: string;
  node: RuntimeNode;
  client: RuntimeClient;
  directory: ReturnType<typeof createMemoryAppDirectory>;
  /** Pushes a bundle; returns its sha256. */
  push(source: string): Promise<string>;
  /** Pushes a bundle and makes `slug` serve it; returns the directory record. */
  deploy(slug: string, source: string, extra?: Partial<ResolvedApp>): Promise<ResolvedApp>;
  route(slug: string, path: string, init?: RequestInit): Promise<Response>;
  /**
   * A delivery as the control plane sends it: the envelope without its install token (which goes
   * in `installToken`), signed with SIGNING_SECRET (kind `mcp`: the JSON-RPC message, unsigned).
   */
  delivery(app: ResolvedApp, partial: Partial<Omit<RuntimeDeliveryRequest, 'body'>> & { envelope: Record<string, unknown> }): RuntimeDeliveryRequest;
  stop(): Promise<void>;
}

/**
 * A runtime node in this process: one worker and no spare unless `env` asks (the suites that are
 * about the spare do; the others need not start one more process each), operator port on a free port.
 */
export async function startRuntime(env: Record<string, string> = {}, deps: Partial<Parameters<typeof createRuntimeNode>[0]> = {}): Promise<TestRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'runtime-test-'));
  const config = loadConfig({ RUNTIME_SECRET: SECRET, RUNTIME_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_METRICS_PORT: '0', RUNTIME_DATA_DIR: dataDir, RUNTIME_WORKERS: '1', RUNTIME_SPARE_WORKERS: '0', LOG_LEVEL: 'silent', ...env });
  const directory = createMemoryAppDirectory();
  const node = createRuntimeNode({ config, logger: pino({ level: 'silent' }), directory, ...deps });
  const { url, metricsUrl } = await node.start();
  const client = createRuntimeClient({ url, secret: SECRET });
  const push = async (source: string): Promise<string> => {
    const sha = sha256(source);
    await client.putBundle(sha, new TextEncoder().encode(source));
    return sha;
  };
  return {
    url,
    metricsUrl,
    node,
    client,
    directory,
    push,
    async deploy(slug, source, extra = {}) {
      const app: ResolvedApp = { appId: `app_${slug}`, slug, version: 1, sha256: await push(source), env: {}, secretEnvKeys: [], egressHosts: [], baseUrl: null, ...extra };
      directory.set(app);
      return app;
    },
    route: (slug, path, init) => fetch(`${url}/apps/${slug}${path}`, init),
    delivery: (app, { envelope, ...partial }) => {
      const kind = partial.kind ?? 'interactive';
      const { installToken, ...rest } = envelope;
      const body = JSON.stringify(kind === 'mcp' ? envelope : rest);
      const token = (installToken as { token?: string } | undefined)?.token;
      return {
        app: { id: app.appId, slug: app.slug, version: app.version },
        bundle: { sha256: app.sha256 },
        env: app.env,
        secretEnvKeys: app.secretEnvKeys,
        target: 'production',
        egressHosts: app.egressHosts,
        baseUrl: app.baseUrl ?? 'http://127.0.0.1:9',
        kind,
        headers: kind === 'mcp' ? {} : signedHeaders(String(envelope.id ?? ''), body, kind === 'lifecycle' ? 'lifecycle' : 'interactive', String((envelope.install as { id?: string } | undefined)?.id ?? 'ins_1')),
        body,
        ...(token === undefined ? {} : { installToken: token }),
        ...partial,
      };
    },
    async stop() {
      await node.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestServer {
  url: string;
  port: number;
  hits: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

/** A loopback HTTP server; `handler` answers, every request is recorded in `hits`. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const hits: TestServer['hits'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/**
 * Requests `slug` over and over while `during` runs and counts the answers: the proof that one
 * app's misbehaviour does not stop the node from serving another.
 */
export async function whileServing<T>(rt: TestRuntime, slug: string, during: () => Promise<T>): Promise<{ result: T; served: number; failed: string[] }> {
  let stop = false;
  let served = 0;
  const failed: string[] = [];
  const loop = (async () => {
    while (!stop) {
      const res = await rt.route(slug, '/').catch((err: unknown) => ({ ok: false, status: 0, text: async () => String(err) }) as Response);
      if (res.ok && (await res.text()).startsWith('neighbour')) served++;
      else failed.push(`${res.status} ${await res.text()}`);
    }
  })();
  let result: T;
  try {
    result = await during();
  } finally {
    stop = true;
    await loop;
  }
  // One more round trip after the attack, so that "throughout" includes its end.
  const last = await rt.route(slug, '/');
  if (last.ok) served++;
  else failed.push(`after: ${last.status}`);
  return { result, served, failed };
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
