/**
 * @module client
 * The control plane's client of a runtime node's internal API. Self-contained: it imports nothing
 * else of the runtime, so using it pulls in no isolate code. Wire formats: docs/runtime.md.
 */
import type { AppLogEntry } from './logs/app-log.ts';
import type { ErrorBody } from '@platform/sdk';

export type RuntimeDeliveryKind = 'interactive' | 'command' | 'lifecycle' | 'mcp';
export type RuntimeOutcome = 'ok' | 'error' | 'cpu_limit' | 'memory_limit' | 'deadline' | 'crashed';

/**
 * Body of `POST /internal/v1/deliveries`. A delivery arrives signed: the node holds no signing
 * secret and computes no signature.
 */
export interface RuntimeDeliveryRequest {
  app: { id: string; slug: string; version: number };
  /** `sourceMapSha256`: the version's source map, fetched beside the bundle; stacks are mapped with it. */
  bundle: { sha256: string; sourceMapSha256?: string };
  env?: Record<string, string>;
  /** Keys of `env` whose values are secret: replaced by `[redacted]` in the app's log. */
  secretEnvKeys?: string[];
  target: 'preview' | 'production';
  egressHosts?: string[];
  /** The install token: it stays in the node's supervisor, which adds it to the guest's `{baseUrl}/v0` calls. */
  installToken?: string;
  /** The service's API origin: the guest may call `{baseUrl}/v0…`, with the install token added. */
  baseUrl: string;
  kind: RuntimeDeliveryKind;
  /** Deliveries: the signed Standard Webhooks headers (`webhook-id`, `-timestamp`, `-signature`, `platform-delivery`, `platform-install`); `mcp`: extra request headers. Names lower-case. */
  headers: Record<string, string>;
  /** The exact bytes signed (the envelope JSON without `installToken`), or the JSON-RPC message for `mcp`. */
  body: string;
}

export interface RuntimeDeliveryResult {
  /** `ok`: the guest answered and `status`/`headers`/`body` are its response. Otherwise `error` says why. */
  outcome: RuntimeOutcome;
  status: number;
  headers: Headers;
  body: Uint8Array;
  requestId: string | null;
  cpuMs: number | null;
  /** The runtime's error body when `outcome` is not `ok`. */
  error: ErrorBody | null;
  text(): string;
}

/** Web Crypto, not node:crypto: this module stays free of Node-only imports for the control plane's lazy load. */
async function sha256Of(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class RuntimeClientError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;
  constructor(status: number, body: ErrorBody | null) {
    super(body?.message ?? `The runtime node answered ${status}`);
    this.status = status;
    this.body = body;
  }
}

export interface RuntimeClient {
  deliver(request: RuntimeDeliveryRequest, options?: { signal?: AbortSignal }): Promise<RuntimeDeliveryResult>;
  /** With `sourceMap` (the bundle's map), a load failure's frames name the author's sources. */
  manifest(input: { sha256: string; sourceMapSha256?: string } | { bundle: Uint8Array | string; sourceMap?: Uint8Array }): Promise<{ sha256: string; manifest: unknown; cpuMs: number }>;
  putBundle(sha256: string, bytes: Uint8Array): Promise<void>;
  putSourceMap(sha256: string, bytes: Uint8Array): Promise<void>;
  health(): Promise<{ ok: boolean; workers: number; ready: number }>;
  appLogs(appId: string, options?: { after?: number; limit?: number }): Promise<AppLogEntry[]>;
  /** The node's Prometheus exposition text (`GET /internal/v1/metrics`, the operator port's text). */
  metrics(options?: { signal?: AbortSignal }): Promise<string>;
}

/**
 * @example
 * const runtime = createRuntimeClient({ url: 'http://127.0.0.1:4001', secret: process.env.RUNTIME_SECRET });
 * const result = await runtime.deliver({ app, bundle: { sha256 }, target: 'production', baseUrl, kind: 'interactive', headers: signedHeaders, body });
 * if (result.outcome === 'ok') JSON.parse(result.text());
 */
export function createRuntimeClient(options: { url: string; secret: string; fetch?: typeof fetch }): RuntimeClient {
  const base = options.url.replace(/\/$/, '');
  const doFetch = options.fetch ?? fetch;
  const auth = { authorization: `Bearer ${options.secret}` };
  const call = async (path: string, init: RequestInit = {}): Promise<Response> =>
    doFetch(`${base}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } });
  const json = async <T>(res: Response): Promise<T> => {
    const body = await res.json().catch(() => null) as unknown;
    if (!res.ok) throw new RuntimeClientError(res.status, body as ErrorBody | null);
    return body as T;
  };
  const putSourceMap = async (sha256: string, bytes: Uint8Array): Promise<void> => {
    await json(await call(`/internal/v1/source-maps/${sha256}`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes as Uint8Array<ArrayBuffer> }));
  };
  return {
    async deliver(request, opts = {}) {
      const res = await call('/internal/v1/deliveries', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request), signal: opts.signal });
      const body = new Uint8Array(await res.arrayBuffer());
      const outcome = res.headers.get('platform-runtime-outcome') as RuntimeOutcome | null;
      const text = () => new TextDecoder().decode(body);
      const cpu = res.headers.get('platform-runtime-cpu-ms');
      // Without the outcome header the node refused the request itself (auth, validation).
      if (outcome === null) throw new RuntimeClientError(res.status, JSON.parse(text() || 'null') as ErrorBody | null);
      return {
        outcome,
        status: res.status,
        headers: res.headers,
        body,
        requestId: res.headers.get('x-request-id'),
        cpuMs: cpu === null ? null : Number(cpu),
        error: outcome === 'ok' ? null : JSON.parse(text()) as ErrorBody,
        text,
      };
    },
    async manifest(input) {
      if ('sha256' in input) {
        const body = JSON.stringify(input.sourceMapSha256 === undefined ? { sha256: input.sha256 } : { sha256: input.sha256, sourceMapSha256: input.sourceMapSha256 });
        return json(await call('/internal/v1/manifest', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
      }
      let query = '';
      if (input.sourceMap !== undefined) {
        const sha = await sha256Of(input.sourceMap);
        await putSourceMap(sha, input.sourceMap);
        query = `?sourceMap=${sha}`;
      }
      return json(await call(`/internal/v1/manifest${query}`, { method: 'POST', headers: { 'content-type': 'application/javascript' }, body: input.bundle }));
    },
    async putBundle(sha256, bytes) {
      await json(await call(`/internal/v1/bundles/${sha256}`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes }));
    },
    putSourceMap,
    async health() {
      return json(await call('/internal/v1/health'));
    },
    async metrics(opts = {}) {
      const res = await call('/internal/v1/metrics', { signal: opts.signal });
      if (!res.ok) throw new RuntimeClientError(res.status, await res.json().catch(() => null) as ErrorBody | null);
      return res.text();
    },
    async appLogs(appId, opts = {}) {
      const q = new URLSearchParams({ after: String(opts.after ?? 0), limit: String(opts.limit ?? 200) });
      return (await json<{ entries: Awaited<ReturnType<RuntimeClient['appLogs']>> }>(await call(`/internal/v1/apps/${encodeURIComponent(appId)}/logs?${q}`))).entries;
    },
  };
}
