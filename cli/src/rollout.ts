/**
 * @module cli/rollout
 * `platform rollout status|advance <percent>|promote|abort [--reason <text>] [--app <id|slug>] [--json]`:
 * follows a gradual rollout started by `platform deploy --production --rollout <percent>`
 * (`GET /v0/apps/{app_id}/rollout`, `POST …/rollout/advance|promote|abort`, docs/decisions/rollouts.md).
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient, type RolloutStatus } from './service.ts';

export const ROLLOUT_USAGE = `Usage: platform rollout status|advance <percent>|promote|abort [--reason <text>]
                        [--app <app id or slug>] [--json] [--url <service URL>] [--key <API key>]

Follows the gradual rollout started by platform deploy --production --rollout <percent>:
  status             the share, installs by version, failures of the new and the old version
  advance <percent>  move more installs (those moved stay; the next ones in the same order move)
  promote            move every install (those whose access it widens are asked, as after a publish)
  abort              move every install the rollout moved back to the version it ran (--reason)
The platform aborts a rollout by itself when the new version fails more than the old one.`;

const OPTIONS = { app: { type: 'string' }, reason: { type: 'string' }, json: { type: 'boolean' }, ...SERVICE_OPTIONS } as const;
const ACTIONS = ['status', 'advance', 'promote', 'abort'] as const;
type Action = (typeof ACTIONS)[number];

const rate = (side: { outcomes: number; failures: number }) =>
  `${side.failures} failed of ${side.outcomes}${side.outcomes === 0 ? '' : ` (${Math.round((side.failures / side.outcomes) * 1000) / 10} %)`}`;

/** The lines `platform rollout status` prints. */
export function describeRollout(r: RolloutStatus): string[] {
  const head = r.status === 'running' ? `Version ${r.version} is rolling out to ${r.percent} % of the installs`
    : r.status === 'promoted' ? `Version ${r.version} was promoted: every install may run it`
      : `The rollout of version ${r.version} was aborted by ${r.abortedBy === 'platform' ? 'the platform' : 'the author'}: ${r.reason ?? ''}`;
  const lines = [head, `  started    ${r.startedAt}${r.endedAt === null ? '' : `, ended ${r.endedAt}`}`, `  moved      ${r.installs.moved} installs`];
  for (const v of r.installs.byVersion) lines.push(`  version ${String(v.version).padEnd(3)}${v.installs} installs`);
  lines.push(`  new        ${rate(r.signals.new)}`, `  old        ${rate(r.signals.old)}`);
  if (r.signals.newErrorGroups > 0) lines.push(`  errors     ${r.signals.newErrorGroups} error groups first seen on version ${r.version} (platform errors --version ${r.version})`);
  if (r.status === 'running' && r.verdict.newLower === null) lines.push(`  verdict    waiting for ${r.verdict.minOutcomes} outcomes of the new version`);
  return lines;
}

function parsePercent(raw: string | undefined): number {
  const n = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || n < 1 || n > 100) throw new UsageError(`platform rollout advance takes a whole percent from 1 to 100, got ${raw ?? 'nothing'}`);
  return n;
}

/**
 * @example await rolloutCommand(['advance', '50']);
 */
export async function rolloutCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, OPTIONS);
  const action = positionals[0] as Action | undefined;
  if (action === undefined || !ACTIONS.includes(action)) throw new UsageError(`platform rollout takes status, advance, promote or abort, got ${positionals[0] ?? 'nothing'}`);
  if (positionals.length > (action === 'advance' ? 2 : 1)) throw new UsageError(`platform rollout ${action} takes ${action === 'advance' ? 'one percent' : 'no more arguments'}`);
  if (flags.reason !== undefined && action !== 'abort') throw new UsageError('--reason goes with platform rollout abort');
  const percent = action === 'advance' ? parsePercent(positionals[1]) : undefined;
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  await reportingFailures(async () => {
    const app = await resolveApp({ cwd: process.cwd(), session, service, app: flags.app });
    const result = action === 'status' ? await service.rollout(app.appId)
      : action === 'advance' ? await service.rolloutAction(app.appId, 'advance', { percent })
        : await service.rolloutAction(app.appId, action, action === 'abort' && flags.reason !== undefined ? { reason: flags.reason } : {});
    if (flags.json) return print(JSON.stringify(result, null, 2));
    for (const line of describeRollout(result)) print(line);
  });
}
