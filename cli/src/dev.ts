/**
 * @module cli/dev
 * `platform dev`: develop an app against the service without exposing it. Hosted apps run in a
 * local sandbox (dev-hosted.ts); for a self-hosted app it syncs the
 * development app (`PUT /v0/apps/dev`, which creates it and its dev install the first time), prints
 * the signing secret the local app verifies deliveries with, then opens the development relay and
 * passes every delivery, interactive and lifecycle, to the app on localhost and its answer back,
 * printing one line per delivery. Ctrl-C stops it; lifecycle deliveries made meanwhile wait and
 * are retried once it runs again.
 *
 * Flags are the other commands' (`--url`, `--key`; the app module as the entry argument); the old
 * names `--base-url`, `--api-key`, `--app <module>` and `--target <url>` still work.
 */
import { createPlatformClient, relayPath } from '@platform/sdk';
import { readCliEnv, resolveSession } from './config-store.ts';
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { loadManifest } from './manifest-source.ts';
import { startHostedDev } from './dev-hosted.ts';
import { note, reportingFailures } from './output.ts';
import { connectRelay, type RelayedDelivery } from './relay-client.ts';

export const DEV_USAGE = `Usage: platform dev [entry | --manifest <file.json>] [--endpoint <local delivery URL>] [--port <port>]
                    [--url <service URL>] [--key <member API key>]

Syncs your development app (created the first time, with its dev install), prints the signing secret
its deliveries are signed with, then relays every delivery of the dev install and its answer back,
one line per delivery, until Ctrl-C. The manifest comes from the app module (default: app.ts,
app.mjs, app.js) or --manifest.

Self-hosted apps: deliveries go to the app on this machine: --endpoint, else the manifest's endpoint
when it is a localhost URL.
Hosted apps: the bundle runs here in the production sandbox (the same isolates, globals, CPU budget
and outbound allow-list; the development app's preview variables, plus .dev.vars), rebuilt and
reloaded when a source changes; routes are served on --port (default 8787) and deliveries run there.

Old names still accepted: --base-url (--url), --api-key (--key), --app <module> (the entry),
--target (--endpoint).`;

const OPTIONS = {
  manifest: { type: 'string' },
  endpoint: { type: 'string', aliases: ['target'] },
  port: { type: 'string' },
  // Before `dev` took its module as the entry argument, like build and deploy.
  app: { type: 'string' },
  url: { ...SERVICE_OPTIONS.url, aliases: ['base-url'] },
  key: { ...SERVICE_OPTIONS.key, aliases: ['api-key'] },
} as const;

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
  throw new UsageError('Where does the app run? Give --endpoint http://localhost:<port>/<path>, or set the manifest endpoint to a localhost URL');
}

export function describeDelivery(r: RelayedDelivery): string {
  const d = r.delivery;
  const outcome = r.status === null ? `failed: ${r.error}` : String(r.status);
  return `${new Date().toISOString().slice(11, 19)}  ${d.deliveryClass.padEnd(11)} ${d.eventType.padEnd(22)} ${d.deliveryId}  → ${outcome} (${r.durationMs} ms)`;
}

/** `--port`: a TCP port, default 8787 (wrangler's). */
function portOf(value: string | undefined): number {
  if (value === undefined) return 8787;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) throw new UsageError(`--port takes a port number, not "${value}"`);
  return Number(value);
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

/**
 * The `dev` command of the CLI: flags and environment in, a session until Ctrl-C.
 * @example await devCommand(['app.ts', '--endpoint', 'http://localhost:8787/platform']);
 */
export async function devCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  const { flags, positionals, aliasesUsed } = parseCommandArgs(argv, OPTIONS);
  for (const [old, current] of aliasesUsed) note(`Note: ${old} is an old name of ${current}`);
  if (flags.app !== undefined) note('Note: --app <module> is an old form; give the module as the entry argument (platform dev app.ts)');
  const entries = [...positionals, ...(flags.app === undefined ? [] : [flags.app])];
  if (entries.length > 1) throw new UsageError(`platform dev takes one entry, got ${entries.join(' ')}`);
  if (entries.length > 0 && flags.manifest !== undefined) throw new UsageError('Give the app module or --manifest, not both');
  // Flags win; then PLATFORM_URL / PLATFORM_API_KEY; then what `platform login` stored.
  const session = await resolveSession({ url: flags.url, key: flags.key, env: readCliEnv(env) });
  const { url: baseUrl, apiKey } = session;
  const manifest = await loadManifest({ manifest: flags.manifest, app: entries[0] });
  const hosted = manifest.hosting === 'platform';
  if (hosted && flags.manifest !== undefined) throw new UsageError('A hosted app runs from its code: give the app module (platform dev app.ts), not --manifest');
  if (!hosted && flags.port !== undefined) throw new UsageError('--port serves a hosted app\'s routes; a self-hosted app serves its own');
  if (hosted && flags.endpoint !== undefined) throw new UsageError('--endpoint is where a self-hosted app listens; a hosted app runs in the local sandbox (--port)');
  const dev = hosted
    ? await reportingFailures(() => startHostedDev({ baseUrl, apiKey, cwd: process.cwd(), entry: entries[0], port: portOf(flags.port), describe: describeDelivery }))
    : await startDev({ baseUrl, apiKey, manifest, target: flags.endpoint });
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
