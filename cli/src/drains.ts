/**
 * @module cli/drains
 * `platform drains add|list|remove|test|rotate|enable`: the app's log drains
 * (`/v0/apps/{app_id}/log-drains`), HTTPS endpoints that receive the app's log lines in signed
 * batches. The signing secret is printed once, when a drain is added or its secret rotated.
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { CommandError, print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient, type LogDrain } from './service.ts';

export const DRAINS_USAGE = `Usage: platform drains add URL [--app APP] [--json]
       platform drains list [--app APP] [--json]
       platform drains remove DRAIN_ID [--app APP]
       platform drains test DRAIN_ID [--app APP] [--json]
       platform drains rotate DRAIN_ID [--app APP] [--json]
       platform drains enable DRAIN_ID [--app APP] [--json]

A log drain is an https:// endpoint that receives every log line of the app, oldest first, as POSTs
of JSON batches (at most 500 lines and 1 MiB, about a second after the first new line), signed as
deliveries are (Standard Webhooks headers: verify them with verifyDelivery of @platform/sdk). A 2xx
acknowledges; failures are retried with backoff, and a drain failing for 24 hours is disabled and
the app's owner mailed (enable brings it back where it stopped). At most 3 drains an app.

  add URL      add a drain; prints its signing secret, shown only this once
  list         the drains, their state and last outcome
  remove ID    remove a drain
  test ID      send it one signed batch with a made-up line now, and say how it went
  rotate ID    a new signing secret (printed once); the old one also signs for 24 hours
  enable ID    enable a disabled drain

The app is --app, else the one platform.json records. Also --url <service URL> and --key <API key>.`;

const OPTIONS = { app: { type: 'string' }, json: { type: 'boolean' }, ...SERVICE_OPTIONS } as const;
const ACTIONS = ['add', 'list', 'remove', 'test', 'rotate', 'enable'];

function describeDrain(d: LogDrain): string[] {
  const last = d.lastDeliveredAt === null ? 'nothing delivered yet' : `last delivered ${d.lastDeliveredAt}`;
  const failing = d.failures === 0 ? '' : ` · ${d.failures} failure${d.failures === 1 ? '' : 's'} since ${d.failingSince} (${d.lastError ?? ''})`;
  return [
    `${d.id}  ${d.state.padEnd(8)} ${d.url}`,
    `           ${last}${failing}`,
    ...(d.disabledReason === null ? [] : [`           disabled: ${d.disabledReason}`]),
  ];
}

/**
 * @example await drainsCommand(['add', 'https://logs.example.com/in']);
 */
export async function drainsCommand(argv: readonly string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action === undefined || action === 'help') return print(DRAINS_USAGE);
  if (!ACTIONS.includes(action)) throw new UsageError(`Unknown drains action "${action}": ${ACTIONS.join(', ')}`);
  const { positionals, flags } = parseCommandArgs(rest, OPTIONS);
  const wanted = action === 'list' ? 0 : 1;
  if (positionals.length !== wanted) throw new UsageError(`platform drains ${action} takes ${wanted === 0 ? 'no arguments' : action === 'add' ? 'one URL' : 'one drain id'}`);
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  const out = (value: unknown, lines: () => string[]) => {
    if (flags.json) return print(JSON.stringify(value, null, 2));
    for (const line of lines()) print(line);
  };
  await reportingFailures(async () => {
    const { appId } = await resolveApp({ cwd: process.cwd(), session, service, app: flags.app });
    const arg = positionals[0]!;
    switch (action) {
      case 'list': {
        const items = await service.listLogDrains(appId);
        return out({ items }, () => (items.length === 0 ? [`No log drains for ${appId}`] : items.flatMap(describeDrain)));
      }
      case 'add':
      case 'rotate': {
        const done = action === 'add' ? await service.addLogDrain(appId, arg) : await service.logDrainAction(appId, arg, 'rotate-secret');
        return out(done, () => [
          `${action === 'add' ? 'Added log drain' : 'New signing secret for'} ${done.drain.id} → ${done.drain.url}`,
          `Signing secret (shown only now): ${done.secret}`,
          ...(action === 'rotate' ? ['The previous secret also signs batches for 24 hours.'] : []),
        ]);
      }
      case 'remove':
        await service.removeLogDrain(appId, arg);
        return print(`Removed log drain ${arg}`);
      case 'test': {
        const result = await service.logDrainAction(appId, arg, 'test');
        if (!result.delivered && !flags.json) throw new CommandError(`The test batch was not delivered: ${result.error}`);
        return out(result, () => [`Delivered a test batch (HTTP ${result.status}, ${Math.round(result.durationMs)} ms)`]);
      }
      default: {
        const drain = await service.logDrainAction(appId, arg, 'enable');
        return out(drain, () => [`Enabled log drain ${drain.id}: it resumes after the last line it delivered`]);
      }
    }
  });
}
