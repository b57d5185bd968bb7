/**
 * @module cli/rollback
 * `platform rollback [N] [--app <id|slug>] [--json]`: production back to an earlier production
 * version (`POST /v0/apps/{app_id}/rollback`); without N, the one before the live one. The service
 * records a new version copying N's manifest and bundle, so it is validated and rolled out like
 * any publish: installs whose consented access it widens keep their version until an admin approves.
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { describeVersion } from './deploy.ts';
import { print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient } from './service.ts';
import { versionNumber } from './versions.ts';

export const ROLLBACK_USAGE = `Usage: platform rollback [N] [--app <app id or slug>] [--json]
                         [--url <service URL>] [--key <API key>]

Serves an earlier production version again: version N, else the production version before the
live one (platform versions lists them). The service records a new production version copying
N's manifest and bundle; installs move to it unless it adds access they have not approved (then
they keep their version until a workspace admin approves, as after any publish).`;

const OPTIONS = { app: { type: 'string' }, json: { type: 'boolean' }, ...SERVICE_OPTIONS } as const;

/**
 * @example await rollbackCommand(['3']);
 */
export async function rollbackCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, OPTIONS);
  if (positionals.length > 1) throw new UsageError(`platform rollback takes one version number, got ${positionals.join(' ')}`);
  const version = positionals[0] === undefined ? undefined : versionNumber(positionals[0], 'platform rollback');
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  await reportingFailures(async () => {
    const app = await resolveApp({ cwd: process.cwd(), session, service, app: flags.app });
    const record = await service.rollback(app.appId, version);
    if (flags.json) return print(JSON.stringify(record, null, 2));
    const slug = app.slug ?? app.appId;
    const lines = describeVersion(record, slug);
    if (record.created && record.rollbackOf != null) lines[0] = `Rolled ${slug} (${record.appId}) back to version ${record.rollbackOf}: production is now version ${record.version}, a copy of it`;
    for (const line of lines) print(line);
  });
}
