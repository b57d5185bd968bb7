/**
 * @module cli/replay
 * `platform replay <deliveryId> [--version N] [--app <id|slug>] [--json]`: runs a recorded
 * delivery (lifecycle, or interactive) again against a version of the app, the latest preview
 * unless `--version`, and prints the recorded answer beside the new one
 * (`POST /v0/apps/{app_id}/deliveries/{delivery_id}/replay`). The replay's tokens are read-only:
 * every `/v0` write the app makes during it is refused with `PlatformReplayReadOnlyError`, so
 * nothing in the workspace changes. For a hosted app, what it logged while replaying follows,
 * each error with its frames in the app's files (the version's source map), read from its log
 * lines of the replay (`GET …/logs/stream?delivery={replayId}`), waited for at most 10 s.
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { diffLines, jsonDiff } from './json-diff.ts';
import { deliveryLines } from './logs-client.ts';
import { colourWanted, createPrinter, type LogLine } from './logs-output.ts';
import { note, print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient, type ReplayAnswer, type ReplayResult } from './service.ts';
import { versionNumber } from './versions.ts';

export const REPLAY_USAGE = `Usage: platform replay <delivery id> [--version <n>] [--app <app id or slug>] [--json]
                       [--url <service URL>] [--key <API key>]

Runs a recorded delivery (a lifecycle event, or an interactive delivery: a click, a render, a
command…) again against a version of the app, the latest preview unless --version, and prints the
recorded answer beside the new one. The replay's tokens are read-only: the app's /v0 reads work,
every write is refused with PlatformReplayReadOnlyError, and its answer is not applied, so nothing
in the workspace changes. Delivery ids are on the app's Deliveries page. The app is --app, else
the one platform.json records.`;

const OPTIONS = { version: { type: 'string' }, app: { type: 'string' }, json: { type: 'boolean' }, ...SERVICE_OPTIONS } as const;

/** Longest answer printed in full; `--json` has all that was kept. */
const SHOWN_CHARS = 2_000;
/** How long the app's log lines of a replay are waited for (a node ships them within about a second). */
const LINES_WAIT_MS = 10_000;

function answerLines(label: string, a: ReplayAnswer, extra: string): string[] {
  const head = a.status === null ? `failed${a.error === null ? '' : `: ${a.error}`}` : `${a.status}${a.error === null ? '' : ` (${a.error})`}`;
  const lines = [`${label.padEnd(9)} ${head}${extra}`];
  if (a.response !== null && a.response !== '') {
    const cut = a.response.length > SHOWN_CHARS || a.responseTruncated;
    for (const line of a.response.slice(0, SHOWN_CHARS).split('\n')) lines.push(`  ${line}`);
    if (cut) lines.push('  … (cut; --json has what was kept)');
  }
  return lines;
}

/** Differences listed under two answers that differ; the rest are counted. */
const SHOWN_DIFFERENCES = 20;

const parsedJson = (text: string | null): { ok: true; value: unknown } | { ok: false } => {
  if (text === null || text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

/** Where two answers differ: the status, then each JSON path (or, for text, the first character that differs). */
export function answerDifferences(recorded: ReplayAnswer, replayed: ReplayAnswer): string[] {
  const lines: string[] = [];
  if (recorded.status !== replayed.status) lines.push(`status: ${recorded.status ?? 'failed'} → ${replayed.status ?? 'failed'}`);
  if (recorded.response === replayed.response) return lines;
  const [a, b] = [parsedJson(recorded.response), parsedJson(replayed.response)];
  if (a.ok && b.ok) return [...lines, ...diffLines(jsonDiff(a.value, b.value, SHOWN_DIFFERENCES))];
  const [x, y] = [recorded.response ?? '', replayed.response ?? ''];
  let at = 0;
  while (at < x.length && at < y.length && x[at] === y[at]) at++;
  const around = (text: string) => JSON.stringify(text.slice(at, at + 40));
  return [...lines, `body: from character ${at + 1}: ${around(x)} → ${around(y)}`];
}

/** The lines describing a replay: what it ran, the recorded answer and the new one, and where they differ. */
export function describeReplay(r: ReplayResult): string[] {
  const differences = answerDifferences(r.recorded, r.replayed);
  return [
    `Replayed ${r.deliveryId} (${r.class} ${r.type}, install ${r.installId}) against version ${r.version} as ${r.replayId}, read-only`,
    ...answerLines('recorded', r.recorded, `${r.recorded.version === null ? '' : `  (version ${r.recorded.version})`}${r.recorded.attempt === null ? '' : `  attempt ${r.recorded.attempt}`}`),
    ...answerLines('replayed', r.replayed, `  (version ${r.version}, ${r.replayed.durationMs} ms)`),
    ...(differences.length === 0 ? ['The answers are the same.'] : ['The answers differ (recorded → replayed):', ...differences.map((d) => `  ${d}`)]),
  ];
}

/**
 * @example await replayCommand(['dlv_…', '--version', '4']);
 */
export async function replayCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, OPTIONS);
  if (positionals.length !== 1) throw new UsageError('platform replay takes one delivery id');
  const version = flags.version === undefined ? undefined : versionNumber(flags.version, '--version');
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  await reportingFailures(async () => {
    const { appId } = await resolveApp({ cwd: process.cwd(), session, service, app: flags.app });
    const result = await service.replay(appId, positionals[0]!, version);
    // A runtime node ran it: what the app logged meanwhile (its errors' stacks among it) is in its log lines.
    const logs: LogLine[] | null = result.hosting === 'platform'
      ? await deliveryLines(session, appId, result.replayId, AbortSignal.timeout(LINES_WAIT_MS)).catch(() => null)
      : null;
    if (flags.json) return print(JSON.stringify(logs === null ? result : { ...result, logs }, null, 2));
    for (const line of describeReplay(result)) print(line);
    if (logs === null || logs.length === 0) {
      if (result.hosting === 'platform') note(`The app's log lines of the replay did not arrive in time: platform logs --delivery ${result.replayId}`);
      return;
    }
    print('What the app logged while replaying:');
    const printer = createPrinter({ colour: colourWanted(process.stdout), json: false, width: process.stdout.isTTY ? process.stdout.columns ?? 120 : null, baseUrl: session.url });
    for (const line of logs) printer.line(line);
  });
}
