/**
 * @module @platform/runtime/dev
 * A runtime node of one's own on this machine, for `platform dev` on a hosted app: the very node
 * production runs (supervisor, sandbox worker processes, isolated-vm isolates with the production
 * globals, the CPU budget of each request, the egress allow-list), serving one app that the caller
 * loads and reloads from local code instead of from the control plane.
 *
 * - `load(app)` keeps the bundle (by its sha256) and makes it the version `{slug}` serves; the next
 *   request runs it in a fresh isolate (isolates are per version and bundle).
 * - Routes are served at `/apps/{slug}/…` and at every path of `http://{slug}.localhost:{port}`.
 * - `deliver(delivery)` runs a signed delivery (as the development relay passes it) at `/platform`,
 *   with the install token added to the app's own `/v0` calls, as a runtime node does.
 *
 * The process must run with `--no-node-snapshot` on Node 24 (the preflight of every process that
 * loads isolated-vm says so otherwise). Where the patched isolated-vm build is absent (no compiler
 * when it was installed), it runs on the stock binary and `cpuBudget` says `approximate`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { createRuntimeClient, type RuntimeDeliveryKind, type RuntimeDeliveryResult } from './client.ts';
import { loadConfig } from './config/config.ts';
import { createMemoryAppDirectory } from './ingress/directory.ts';
import type { AppLogEntry } from './logs/app-log.ts';
import { createRuntimeNode } from './node.ts';
export { APPROXIMATE_CPU_NOTE } from './config/ivm-build.ts';

export interface DevRuntimeOptions {
  /** Port of the local server (0: any free port). */
  port: number;
  host?: string;
  /** Where the node keeps its bundle cache. */
  dataDir: string;
  /** CPU budget of a request in ms (default: production's). */
  cpuMs?: number;
  logger?: Logger;
  /** Host names that resolve to loopback and may use http (tests only; never for a real app). */
  testLoopbackHosts?: readonly string[];
}

/** The app a dev runtime serves: local code, and what a runtime node gets from the control plane. */
export interface DevApp {
  appId: string;
  slug: string;
  version: number;
  code: Uint8Array;
  /** The bundle's source map (the file esbuild wrote beside it): stacks then name the app's own files. */
  sourceMap?: Uint8Array | undefined;
  env: Record<string, string>;
  secretEnvKeys: string[];
  egressHosts: string[];
  /** The service's API origin: the app's `/v0` calls go there. */
  baseUrl: string;
}

export interface DevDelivery {
  kind: RuntimeDeliveryKind;
  headers: Record<string, string>;
  body: string;
  installToken?: string | undefined;
}

export interface DevRuntime {
  /** The local origin (`http://127.0.0.1:8787`). */
  readonly url: string;
  /** `approximate` where the patched isolated-vm is absent and the stock binary runs the app (APPROXIMATE_CPU_NOTE says what that means). */
  readonly cpuBudget: 'exact' | 'approximate';
  /** Makes `app` the version its slug serves; answers the bundle's sha256. */
  load(app: DevApp): Promise<string>;
  /** Evaluates `code` in a fresh isolate under the startup CPU budget and answers the manifest it computes (a load failure names the line through `sourceMap`). */
  manifest(code: Uint8Array, sourceMap?: Uint8Array): Promise<unknown>;
  deliver(delivery: DevDelivery, options?: { signal?: AbortSignal }): Promise<RuntimeDeliveryResult>;
  /** The app's console output and limit events after sequence number `after`, oldest first. */
  logs(after?: number): AppLogEntry[];
  stop(): Promise<void>;
}

/**
 * @example
 * const dev = await startDevRuntime({ port: 8787, dataDir: '.platform/runtime' });
 * await dev.load({ appId, slug: 'hello-k3x9', version: 3, code, env: {}, secretEnvKeys: [], egressHosts: [], baseUrl });
 * await fetch(`${dev.url}/apps/hello-k3x9/hello/ada`);
 * await dev.stop();
 */
export async function startDevRuntime(options: DevRuntimeOptions): Promise<DevRuntime> {
  const secret = randomBytes(24).toString('base64url');
  const config = loadConfig({
    RUNTIME_SECRET: secret, RUNTIME_PORT: String(options.port), RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: options.host ?? '127.0.0.1', RUNTIME_DATA_DIR: options.dataDir,
    // One worker is plenty for one developer; `{slug}.localhost` resolves to loopback in browsers and curl.
    RUNTIME_WORKERS: '1', RUNTIME_HOSTED_APP_DOMAIN: 'localhost',
    ...(options.cpuMs === undefined ? {} : { RUNTIME_CPU_MS: String(options.cpuMs) }),
    ...(options.testLoopbackHosts === undefined ? {} : { RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: options.testLoopbackHosts.join(',') }),
  });
  const directory = createMemoryAppDirectory();
  // The development sandbox: without the patched isolated-vm it runs on the stock binary (approximate CPU budgets).
  const node = createRuntimeNode({ config, logger: options.logger ?? pino({ level: 'silent' }), directory, sandbox: 'development' });
  const { url } = await node.start();
  const client = createRuntimeClient({ url, secret });
  let current: (DevApp & { sha256: string; sourceMapSha256: string | null }) | null = null;
  const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

  return {
    url,
    cpuBudget: node.isolatedVm === 'patched' ? 'exact' : 'approximate',
    async load(app) {
      const sha256 = sha256Of(app.code);
      await client.putBundle(sha256, app.code);
      const sourceMapSha256 = app.sourceMap === undefined ? null : sha256Of(app.sourceMap);
      if (app.sourceMap !== undefined && sourceMapSha256 !== null) await client.putSourceMap(sourceMapSha256, app.sourceMap);
      current = { ...app, sha256, sourceMapSha256 };
      directory.set({
        appId: app.appId, slug: app.slug, version: app.version, sha256, sourceMapSha256, env: app.env, secretEnvKeys: app.secretEnvKeys,
        egressHosts: app.egressHosts, baseUrl: app.baseUrl,
      });
      return sha256;
    },
    async manifest(code, sourceMap) {
      return (await client.manifest(sourceMap === undefined ? { bundle: code } : { bundle: code, sourceMap })).manifest;
    },
    async deliver(delivery, opts = {}) {
      if (current === null) throw new Error('No app is loaded yet');
      const app = current;
      return client.deliver({
        app: { id: app.appId, slug: app.slug, version: app.version },
        bundle: app.sourceMapSha256 === null ? { sha256: app.sha256 } : { sha256: app.sha256, sourceMapSha256: app.sourceMapSha256 },
        env: app.env, secretEnvKeys: app.secretEnvKeys, target: 'preview', egressHosts: app.egressHosts, baseUrl: app.baseUrl,
        ...(delivery.installToken === undefined ? {} : { installToken: delivery.installToken }),
        kind: delivery.kind, headers: delivery.headers, body: delivery.body,
      }, opts);
    },
    logs(after = 0) {
      return current === null ? [] : node.appLog.read(current.appId, after);
    },
    stop: () => node.stop(),
  };
}
