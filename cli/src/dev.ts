/**
 * @module cli/dev
 * `platform dev`: develop a self-hosted app against the service without exposing it. It syncs the
 * development app (`PUT /v0/apps/dev`, which creates it and its dev install the first time), prints
 * the signing secret the local app verifies deliveries with, then opens the development relay and
 * passes every delivery, interactive and lifecycle, to the app on localhost and its answer back,
 * printing one line per delivery. Ctrl-C stops it; lifecycle deliveries made meanwhile wait and
 * are retried once it runs again.
 *
 *   platform dev [--app app.ts | --manifest manifest.json] [--target http://localhost:8787/platform]
 *                [--base-url https://platform.example.com] [--api-key platkey_…]
 *
 * `PLATFORM_URL` and `PLATFORM_API_KEY` stand in for `--base-url` and `--api-key`.
 */
import { createPlatformClient, relayPath } from '@platform/sandbox-lib';
import { readCliEnv, resolveSession } from './config-store.ts';
import { parseFlags, UsageError } from './args.ts';
import { loadManifest } from './manifest-source.ts';
import { connectRelay, type RelayedDelivery } from './relay-client.ts';

export interface DevOptions {
  baseUrl: string;
  apiKey: string;
  manifest: Record<string, unknown>;
  /** The app's delivery URL; default: the manifest's `endpoint.url` when it is on this machine. */
  target?: string | undefined;
  /** Where lines go (default: stdout). */
  print?: (line: string) => void;
}

export interface DevSession {
  appId: string;
  slug: string;
  installId: string;
  version: number;
  signingSecret: string | null;
  target: string;
  stop(): Promise<void>;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function localTarget(manifest: Record<string, unknown>, explicit: string | undefined): string {
  if (explicit !== undefined) return explicit;
  const url = (manifest.endpoint as { url?: unknown } | undefined)?.url;
  if (typeof url === 'string') {
    const parsed = new URL(url);
    if (LOCAL_HOSTS.has(parsed.hostname)) return url;
  }
  throw new UsageError('Where does the app run? Give --target http://localhost:<port>/<path>, or set the manifest endpoint to a localhost URL');
}

export function describeDelivery(r: RelayedDelivery): string {
  const d = r.delivery;
  const outcome = r.status === null ? `failed: ${r.error}` : String(r.status);
  return `${new Date().toISOString().slice(11, 19)}  ${d.deliveryClass.padEnd(11)} ${d.eventType.padEnd(22)} ${d.deliveryId}  → ${outcome} (${r.durationMs} ms)`;
}

/**
 * Syncs the development app and relays its deliveries until `stop()`.
 * @example
 * const session = await startDev({ baseUrl: 'http://localhost:4000', apiKey, manifest, target: 'http://localhost:8787/platform' });
 * // … deliveries are printed as they pass …
 * await session.stop();
 */
export async function startDev(options: DevOptions): Promise<DevSession> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const target = localTarget(options.manifest, options.target);
  const client = createPlatformClient({ baseUrl: options.baseUrl, token: options.apiKey });
  const synced = await client.apps.syncDev({ manifest: options.manifest }, { reveal: 'signing-secret' });
  print(`${synced.created ? 'Created' : 'Synced'} development app ${synced.slug} (${synced.appId}), version ${synced.version}`);
  if (synced.signingSecret !== undefined) print(`Signing secret (PLATFORM_SIGNING_SECRET of the local app): ${synced.signingSecret}`);
  print(`Playground: ${synced.playgroundUrl}`);

  const wsUrl = `${options.baseUrl.replace(/\/$/, '').replace(/^http/, 'ws')}${relayPath(synced.appId)}`;
  const relay = connectRelay({
    url: wsUrl,
    authorization: `Bearer ${options.apiKey}`,
    target,
    onDelivery: (r) => print(describeDelivery(r)),
    onDisconnect: ({ code, reason, retryInMs }) => print(retryInMs === null
      ? `Relay closed (${code}${reason === '' ? '' : `: ${reason}`})`
      : `Relay disconnected (${code}); reconnecting in ${Math.round(retryInMs / 1000)} s`),
    onReady: () => print(`Relaying deliveries to ${target}`),
  });
  const ready = await relay.ready;
  return {
    appId: synced.appId, slug: synced.slug, installId: ready.installId, version: synced.version,
    signingSecret: synced.signingSecret ?? null, target,
    stop: () => relay.stop(),
  };
}

/** The `dev` command of the CLI: flags and environment in, a session until Ctrl-C. */
export async function devCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  const flags = parseFlags(argv, { app: 'string', manifest: 'string', target: 'string', 'base-url': 'string', 'api-key': 'string' });
  // Flags win; then PLATFORM_URL / PLATFORM_API_KEY; then what `platform login` stored.
  const cliEnv = readCliEnv(env);
  const apiKeyFlag = flags['api-key'];
  const session = await resolveSession({ url: flags['base-url'], env: apiKeyFlag === undefined ? cliEnv : { ...cliEnv, apiKey: apiKeyFlag } });
  const { url: baseUrl, apiKey } = session;
  const manifest = await loadManifest({ manifest: flags.manifest, app: flags.app });
  const dev = await startDev({ baseUrl, apiKey, manifest, target: flags.target });
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void dev.stop().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
