/**
 * @module cli/dev-hosted
 * `platform dev` on a hosted app (`hosting: 'platform'`), like `wrangler dev`: the bundle runs on
 * this machine in the production sandbox (a runtime node of its own, `@platform/runtime/dev`:
 * isolated-vm isolates with the production globals, the CPU budget of each request, the egress
 * allow-list of the manifest, the environment of the development app's preview target plus
 * `.dev.vars`). esbuild watches the sources; each build is read in the sandbox (its manifest),
 * synced as the development app's preview (`PUT /v0/apps/dev`) and served from then on; a build
 * that fails keeps the previous one serving; an edit of `.dev.vars` serves the current build again
 * with the new environment. Routes are served on a local port; the dev install's
 * deliveries come through the development relay and run in the same sandbox, with the install
 * token added to the app's own `/v0` calls. Console output of the app is printed as it comes.
 *
 * The runtime is imported only here, on first use: it needs Node 24 with `--no-node-snapshot`
 * (the `platform` bin runs with it), while every other command works on any Node.
 */
import { watch } from 'node:fs';
import { join, resolve } from 'node:path';
import { context, type BuildResult, type Plugin } from 'esbuild';
import { LIMITS, createPlatformClient, relayPath, type RelayDelivery } from '@platform/sdk';
import type { DevRuntime } from '@platform/runtime/dev';
import { DEFAULT_OUTFILE, esbuildOptions, formatMessage, uploadedSourceMap } from './bundle.ts';
import { DEV_VARS_FILE, devEnvironment } from './dev-env.ts';
import { errorLines } from './logs-output.ts';
import { describeManifestError } from './manifest-summary.ts';
import { CommandError, formatBytes } from './output.ts';
import { findEntry } from './project.ts';
import { checkManifestLocally } from './read-manifest.ts';
import { connectRelay, type RelayClient, type RelayedDelivery } from './relay-client.ts';
import { createServiceClient } from './service.ts';

/** How often the app's console output is looked for (lines are kept in the node until read). */
const LOG_POLL_MS = 200;
const INVOCATIONS = new Set(['command.run', 'messageAction.run']);

export interface HostedDevOptions {
  baseUrl: string;
  apiKey: string;
  cwd: string;
  entry?: string | undefined;
  /** Local port of the app's routes (0: any free port). */
  port: number;
  minify?: boolean | undefined;
  print?: (line: string) => void;
  /** The relay's line per delivery. */
  describe(relayed: RelayedDelivery): string;
  /** Tests only: the runtime's TEST ONLY loopback hosts, and a smaller CPU budget. */
  runtime?: { testLoopbackHosts?: string[]; cpuMs?: number };
}

export interface HostedDevSession {
  appId: string;
  slug: string;
  installId: string;
  version: number;
  signingSecret: string | null;
  /** The local origin; routes at `/apps/{slug}/…` and on `http://{slug}.localhost:{port}`. */
  url: string;
  stop(): Promise<void>;
}

interface Synced { appId: string; slug: string; version: number; signingSecret: string | null }

function kindOf(d: RelayDelivery): 'lifecycle' | 'command' | 'interactive' {
  if (d.deliveryClass === 'lifecycle') return 'lifecycle';
  return INVOCATIONS.has(d.eventType) ? 'command' : 'interactive';
}

/** Runs a relayed delivery in the local sandbox; a guest that threw or hit a limit rejects (a relay failure). */
async function runDelivery(runtime: DevRuntime, d: RelayDelivery): Promise<{ status: number; body: string }> {
  const result = await runtime.deliver({ kind: kindOf(d), headers: d.headers, body: d.body, installToken: d.installToken }, { signal: AbortSignal.timeout(d.timeoutMs) });
  if (result.outcome !== 'ok') throw new Error(`${result.outcome}: ${result.error?._tag ?? ''} ${result.error?.message ?? ''}`.trim());
  return { status: result.status, body: result.text() };
}

/**
 * @example
 * const dev = await startHostedDev({ baseUrl, apiKey, cwd: process.cwd(), port: 8787, describe: describeDelivery });
 * // … edit app.ts: the next request runs the new build …
 * await dev.stop();
 */
export async function startHostedDev(o: HostedDevOptions): Promise<HostedDevSession> {
  const print = o.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const entry = findEntry(o.entry, o.cwd);
  const outfile = resolve(o.cwd, DEFAULT_OUTFILE);
  const client = createPlatformClient({ baseUrl: o.baseUrl, token: o.apiKey });
  const service = createServiceClient({ url: o.baseUrl, apiKey: o.apiKey });
  // The runtime is TypeScript run by Node 24 (and isolated-vm needs it): say so instead of a loader error.
  if (Number(process.versions.node.split('.')[0]) < 24) {
    throw new CommandError(`platform dev runs a hosted app in the runtime's sandbox, which needs Node 24 (this is ${process.version}): run it with npx from the repository, whose node_modules has Node 24`);
  }
  const { startDevRuntime, APPROXIMATE_CPU_NOTE } = await import('@platform/runtime/dev');
  const runtime = await startDevRuntime({ port: o.port, dataDir: join(o.cwd, '.platform', 'dev-runtime'), ...o.runtime });
  if (runtime.cpuBudget === 'approximate') print(`Note: ${APPROXIMATE_CPU_NOTE}`);

  /** Reads, syncs and serves one build; answers null (and says why) when it cannot. */
  const serve = async (code: Uint8Array, sourceMap: Uint8Array | undefined): Promise<Synced | null> => {
    if (code.byteLength > LIMITS.manifest.hostedBundleBytes) {
      print(`The bundle is ${formatBytes(code.byteLength)}; hosted bundles are at most ${formatBytes(LIMITS.manifest.hostedBundleBytes)}`);
      return null;
    }
    try {
      // With the map, a bundle that fails to load names the line of the app's file that threw.
      const computed = await runtime.manifest(code, sourceMap) as Record<string, unknown>;
      const check = checkManifestLocally(computed);
      if (!check.valid) throw new Error(`The manifest is invalid: ${describeManifestError(check.error)}`);
      const synced = await client.apps.syncDev({ manifest: computed }, { reveal: 'signing-secret' });
      const environment = await devEnvironment(service, synced.appId, o.cwd);
      for (const key of environment.missing) print(`Note: ${key} is secret on the service (its value never leaves it); give it a value in .dev.vars to use it here`);
      const egressHosts = Array.isArray(check.manifest.egressHosts) ? check.manifest.egressHosts as string[] : [];
      await runtime.load({ appId: synced.appId, slug: synced.slug, version: synced.version, code, sourceMap, env: environment.env, secretEnvKeys: environment.secretEnvKeys, egressHosts, baseUrl: o.baseUrl });
      return { appId: synced.appId, slug: synced.slug, version: synced.version, signingSecret: synced.signingSecret ?? null };
    } catch (err) {
      print(`Not reloaded: ${(err as Error).message}`);
      return null;
    }
  };

  let current: Synced | null = null;
  /** The build being served, so a `.dev.vars` edit can serve it again with the new environment. */
  let built: { code: Uint8Array; sourceMap: Uint8Array | undefined } | null = null;
  let first: { resolve(s: Synced | null): void } | null = null;
  const firstServed = new Promise<Synced | null>((r) => { first = { resolve: r }; });
  let chain = Promise.resolve();
  const onBuilt = (result: BuildResult) => {
    chain = chain.then(async () => {
      const code = result.outputFiles?.find((f) => f.path === outfile)?.contents;
      const map = result.outputFiles?.find((f) => f.path === `${outfile}.map`)?.text;
      let served: Synced | null = null;
      if (result.errors.length > 0 || code === undefined) print(`Build failed:\n${result.errors.map(formatMessage).join('\n')}`);
      else {
        const sourceMap = map === undefined ? undefined : uploadedSourceMap(map, { cwd: o.cwd, outfile });
        served = await serve(code, sourceMap);
        if (served !== null) built = { code, sourceMap };
      }
      if (served !== null) {
        if (current !== null) print(`Reloaded ${entry}: version ${served.version} (${formatBytes(code!.byteLength)})`);
        current = served;
      }
      first?.resolve(served);
      first = null;
    });
  };
  // An editor's save can be several events; one reload queued at a time covers them all.
  let envReloadQueued = false;
  const onDevVarsChanged = () => {
    if (envReloadQueued) return;
    envReloadQueued = true;
    chain = chain.then(async () => {
      envReloadQueued = false;
      if (built === null) return;
      const served = await serve(built.code, built.sourceMap);
      if (served === null) return;
      current = served;
      print(`Reloaded ${DEV_VARS_FILE}: version ${served.version} serves with the new environment`);
    });
  };
  // The folder is watched, not the file: .dev.vars may not exist yet, and editors replace files on save.
  const devVarsWatcher = watch(o.cwd, (_event, name) => { if (name === DEV_VARS_FILE) onDevVarsChanged(); });
  const reloader: Plugin = { name: 'platform-dev-reload', setup: (b) => { b.onEnd(onBuilt); } };
  const watcher = await context({ ...esbuildOptions({ cwd: o.cwd, entry, outfile, minify: o.minify !== false }), plugins: [reloader] });
  await watcher.watch();
  const served = await firstServed;
  if (served === null) {
    devVarsWatcher.close();
    await watcher.dispose();
    await runtime.stop();
    throw new Error('The app did not build or load; fix it and run platform dev again');
  }

  print(`Synced development app ${served.slug} (${served.appId}), version ${served.version}`);
  if (served.signingSecret !== null) print(`Signing secret (the dev install's deliveries are signed with it): ${served.signingSecret}`);
  print(`Serving ${entry} in the local sandbox at ${runtime.url}/apps/${served.slug}/ and http://${served.slug}.localhost:${new URL(runtime.url).port}/`);

  let after = 0;
  const logTimer = setInterval(() => {
    for (const line of runtime.logs(after)) {
      after = line.seq;
      print(`  ${line.level.padEnd(5)} ${line.message}${line.deliveryId === null ? '' : `  (${line.deliveryId})`}`);
      // The stack, mapped through the build's source map: the app's files, lines and functions.
      if (line.error !== undefined) for (const text of errorLines(line.error, line.message)) print(`        ${text}`);
    }
  }, LOG_POLL_MS);
  logTimer.unref();

  let relay: RelayClient | null = null;
  const stop = async () => {
    clearInterval(logTimer);
    devVarsWatcher.close();
    await relay?.stop();
    await watcher.dispose();
    await chain;
    await runtime.stop();
  };
  try {
    relay = connectRelay({
      url: `${o.baseUrl.replace(/\/$/, '').replace(/^http/, 'ws')}${relayPath(served.appId)}`,
      authorization: `Bearer ${o.apiKey}`,
      target: runtime.url,
      handle: (d) => runDelivery(runtime, d),
      onDelivery: (r) => print(o.describe(r)),
      onReady: () => print('Relaying the dev install\'s deliveries to the local sandbox'),
    });
    const ready = await relay.ready;
    return { ...served, installId: ready.installId, url: runtime.url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
