/**
 * @module cli/deploy
 * `platform deploy [entry] [--production] [--app <id|slug>] [--create]`: builds the app, finds
 * (or creates) it on the service, and records a version of the target (`preview` unless
 * `--production`). Hosted apps upload their bundle (`POST /v0/apps/{app_id}/versions`, streamed
 * with a progress bar; the service reads the manifest from the code); self-hosted apps sync
 * their manifest (`PUT /v0/apps/{app_id}/manifest`). `--manifest <file.json>` syncs a manifest
 * file instead of building. `--rollout <percent>` (with `--production`) moves only that share of
 * the installs to the new version (docs/decisions/rollouts.md; `platform rollout`). The app's icon file is uploaded first (cli/icon.ts) and the version names
 * its asset id. Prints the version record (`--json`: the record alone, as JSON).
 */
import { LIMITS, createPlatformClient } from '@platform/sdk';
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { buildApp, MINIFY_OPTIONS, minifyFrom } from './build.ts';
import { resolveSession } from './config-store.ts';
import { uploadAppIcon } from './icon.ts';
import { loadManifest } from './manifest-source.ts';
import { describeManifestError, summarizeManifest } from './manifest-summary.ts';
import { formatBytes, note, print, reportingFailures } from './output.ts';
import { countingStream, createProgressBar } from './progress.ts';
import { resolveApp, type AppIdentity } from './project.ts';
import { checkManifestLocally } from './read-manifest.ts';
import { createServiceClient, type Target, type VersionRecord } from './service.ts';
import { uploadBody } from './upload-body.ts';

export const DEPLOY_USAGE = `Usage: platform deploy [entry] [--production [--rollout <percent>]] [--app <app id or slug>] [--create]
                       [--outfile <file>] [--no-minify] [--manifest <file.json>] [--json]
                       [--url <service URL>] [--key <API key>]

Builds the app and records a version: a preview, or production with --production. Hosted apps
upload their bundle; self-hosted apps (hosting: 'self') sync their manifest. The app is --app,
else the one platform.json records, else yours with the manifest's slug (--create makes it).
--rollout 10 moves a stable tenth of the installs (1-99 %) instead of all: platform rollout
status|advance|promote|abort follows it, and the platform aborts it by itself when the new
version fails more than the old.`;

const OPTIONS = {
  production: { type: 'boolean' }, rollout: { type: 'string' }, app: { type: 'string' }, create: { type: 'boolean' }, outfile: { type: 'string' },
  ...MINIFY_OPTIONS, manifest: { type: 'string' }, json: { type: 'boolean' }, ...SERVICE_OPTIONS,
} as const;

function identityOf(manifest: Record<string, unknown>): AppIdentity {
  const endpoint = manifest.endpoint as { url?: unknown } | undefined;
  return {
    name: String(manifest.name),
    slug: String(manifest.slug),
    hosting: manifest.hosting === 'self' ? 'self' : 'platform',
    endpoint: typeof endpoint?.url === 'string' ? { url: endpoint.url } : undefined,
  };
}

/** The lines describing a recorded (or unchanged) version. */
export function describeVersion(record: VersionRecord, slug: string): string[] {
  const lines = record.created
    ? [`Deployed ${slug} (${record.appId}) to ${record.target}: version ${record.version}`]
    : [`Unchanged: version ${record.version} of ${slug} (${record.appId}) is already this ${record.target} (nothing new recorded)`];
  lines.push(`  created    ${record.createdAt}`);
  lines.push(`  manifest   sha256 ${record.manifestSha256}`);
  if (record.bundle !== undefined) lines.push(`  bundle     sha256 ${record.bundle.sha256} (${formatBytes(record.bundle.bytes)})`);
  if (record.bundle?.sourceMap) lines.push(`  source map sha256 ${record.bundle.sourceMap.sha256} (${formatBytes(record.bundle.sourceMap.bytes)}): stacks name the app's files`);
  for (const added of record.added) lines.push(`  adds       ${added.kind} ${added.detail}`);
  if (record.added.length > 0 && record.target === 'production') {
    lines.push('  Workspaces that installed an earlier version keep it until an admin approves what this one adds.');
  }
  if (record.bundle !== undefined && record.target === 'production') lines.push(`  routes     served by the runtime nodes under /apps/${slug}/`);
  return lines;
}

function hintFor(target: Target) {
  return (err: { tag: string; body: unknown }): string | undefined => {
    const reason = (err.body as { reason?: unknown } | undefined)?.reason;
    if (reason === 'env-missing') return `Set the variable for ${target} first: platform env set KEY=VALUE --target ${target}`;
    if (reason === 'slug-mismatch') return 'The app you deploy to has another slug: check --app or platform.json.';
    if (err.tag === 'PlatformAppNotFoundError') return 'No such app, or your key may not deploy it: check --app or platform.json.';
    return undefined;
  };
}

/**
 * @example await deployCommand(['--production']);
 */
export async function deployCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, OPTIONS);
  if (positionals.length > 1) throw new UsageError(`platform deploy takes one entry, got ${positionals.join(' ')}`);
  if (flags.manifest !== undefined && (positionals.length > 0 || flags.outfile !== undefined || flags.minify || flags['no-minify'])) {
    throw new UsageError('--manifest syncs a manifest file; it takes no entry, --outfile or --(no-)minify');
  }
  const rollout = rolloutShare(flags.rollout, flags.production === true);
  const cwd = process.cwd();
  const target: Target = flags.production ? 'production' : 'preview';
  // With --json stdout carries the record alone; the report goes to stderr.
  const say = flags.json ? note : print;
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  // The key first: a wrong one is refused now, not after the build and the upload.
  await reportingFailures(() => service.whoami(), hintFor(target));

  let manifest: Record<string, unknown>;
  let code: Uint8Array | null = null;
  let sourceMap: Uint8Array | null = null;
  if (flags.manifest !== undefined) {
    manifest = await loadManifest({ manifest: flags.manifest, cwd });
    say(`Read ${flags.manifest}`);
    for (const line of summarizeManifest(manifest)) say(line);
    const check = checkManifestLocally(manifest);
    if (!check.valid) throw new Error(`The manifest is invalid: ${describeManifestError(check.error)}`);
  } else {
    const built = await buildApp({ entry: positionals[0], outfile: flags.outfile, minify: minifyFrom(flags), cwd, say });
    manifest = built.computed;
    code = built.bundle.code;
    sourceMap = built.bundle.sourceMap;
    if (sourceMap.byteLength > LIMITS.hosted.sourceMapBytes) {
      say(`The source map is ${formatBytes(sourceMap.byteLength)}, more than the ${formatBytes(LIMITS.hosted.sourceMapBytes)} the service keeps: the bundle goes without it, and its stacks name positions in the bundle`);
      sourceMap = null;
    }
  }
  const identity = identityOf(manifest);

  const record = await reportingFailures(async () => {
    const icon = await uploadAppIcon({ dir: cwd, manifest, upload: service.uploadAsset, say });
    if (icon !== null) manifest = { ...manifest, icon };
    // The source map goes with the bundle, so stacks in logs, load errors and profiles name the app's files.
    const upload = identity.hosting === 'platform' && code !== null ? uploadBody(code, sourceMap) : null;
    // Before --create makes an app, the service checks the bundle as the upload will (it loads, its
    // manifest is valid): a bundle it would refuse leaves no app behind.
    const beforeCreate = upload === null ? undefined : async () => {
      await service.checkBundle(upload.bytes as Uint8Array<ArrayBuffer>, upload.contentType, icon);
      say('Checked the bundle with the service: it loads and its manifest is valid');
    };
    const app = await resolveApp({ cwd, session, service, app: flags.app, identity, create: flags.create, beforeCreate });
    if (upload !== null) {
      const { bytes, contentType } = upload;
      const bar = createProgressBar({ label: `Uploading to ${target}`, total: bytes.byteLength });
      const body = countingStream(bytes, (sent) => bar.update(sent));
      return await service.uploadBundle(app.appId, target, body, bytes.byteLength, contentType, icon, rollout).finally(() => bar.done());
    }
    if (rollout !== null) return service.syncManifestRollout(app.appId, manifest, rollout);
    const client = createPlatformClient({ baseUrl: session.url, token: session.apiKey });
    return (await client.apps.syncManifest(app.appId, { manifest, target })) as VersionRecord;
  }, hintFor(target));

  if (flags.json) return print(JSON.stringify(record, null, 2));
  for (const line of describeVersion(record, identity.slug)) print(line);
  if (rollout !== null && record.created) print(`  rollout    ${rollout} % of the installs run it; platform rollout status shows how it fares`);
}

/** `--rollout <percent>`: a whole share from 1 to 99, of a production deploy only. */
function rolloutShare(raw: string | undefined, production: boolean): number | null {
  if (raw === undefined) return null;
  if (!production) throw new UsageError('--rollout rolls out a production version: add --production');
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 99) throw new UsageError(`--rollout takes a whole percent from 1 to 99, got ${raw}`);
  return n;
}
