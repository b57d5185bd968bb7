/**
 * @module cli/versions
 * `platform versions [--app <id|slug>] [--limit N] [--json]`: the app's versions, newest first
 * (`GET /v0/apps/{app_id}/versions`): number, target, when, manifest digest, the bundle of a hosted
 * version, and what each adds in access over the production version before it (what installs
 * are asked to approve). The live production version is marked.
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { formatBytes, print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient, type VersionSummary } from './service.ts';

export const VERSIONS_USAGE = `Usage: platform versions [--app <app id or slug>] [--limit <n>] [--json]
                         [--url <service URL>] [--key <API key>]

Lists the app's versions, newest first (20 unless --limit, at most 100): number, target, when it
was recorded, the manifest's sha256, and what each adds in access over the production version
before it. "live" marks the production version the app serves; platform rollback serves an
earlier one again. The app is --app, else the one platform.json records.`;

const OPTIONS = { app: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' }, ...SERVICE_OPTIONS } as const;

/**
 * A version number from the command line.
 * @example versionNumber('3', 'rollback') // 3
 */
export function versionNumber(value: string, what: string): number {
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new UsageError(`${what} takes a version number (1, 2, …), not "${value}"`);
  return Number(value);
}

/** The lines describing one version. */
export function describeSummary(v: VersionSummary): string[] {
  const marks = [v.live ? 'live' : null, v.rollbackOf === null ? null : `rollback of ${v.rollbackOf}`].filter((m) => m !== null);
  const lines = [`${String(v.version).padStart(4)}  ${v.target.padEnd(10)} ${v.createdAt}  ${v.manifestSha256.slice(0, 12)}${marks.length > 0 ? `  (${marks.join(', ')})` : ''}`];
  if (v.bundle !== null) lines.push(`      bundle ${v.bundle.sha256.slice(0, 12)} (${formatBytes(v.bundle.bytes)})`);
  for (const a of v.added) lines.push(`      adds   ${a.kind} ${a.detail}`);
  return lines;
}

/**
 * @example await versionsCommand(['--limit', '5']);
 */
export async function versionsCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, OPTIONS);
  if (positionals.length > 0) throw new UsageError('platform versions takes no arguments');
  const limit = flags.limit === undefined ? undefined : versionNumber(flags.limit, '--limit');
  if (limit !== undefined && limit > 100) throw new UsageError('--limit is at most 100');
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  await reportingFailures(async () => {
    const { appId } = await resolveApp({ cwd: process.cwd(), session, service, app: flags.app });
    const list = await service.listVersions(appId, limit === undefined ? {} : { limit });
    if (flags.json) return print(JSON.stringify(list, null, 2));
    if (list.items.length === 0) return print(`${appId} has no versions yet: platform deploy records one`);
    print(`Versions of ${appId}, newest first:`);
    print(`${'#'.padStart(4)}  ${'target'.padEnd(10)} ${'created'.padEnd(24)}  manifest`);
    for (const v of list.items) for (const line of describeSummary(v)) print(line);
    if (list.nextBefore !== null) print(`(older versions: --limit ${Math.min(100, list.items.length * 2)})`);
  });
}
