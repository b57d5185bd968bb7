/**
 * @module cli/queue
 * `platform queue send <json> [--delay <s>] [--key <k>] [--install <id>]`: a message to an install's
 * queue as its author (the development install unless one is named; `platform dev` relays its
 * delivery to the local app). `platform queue depth`: messages waiting and the oldest one's age per
 * install. `platform queue dead`: dead letters (newest 20), sent again from the Deliveries page.
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { print, reportingFailures } from './output.ts';
import { resolveApp } from './project.ts';
import { createServiceClient } from './service.ts';

export const QUEUE_USAGE = `Usage: platform queue send <JSON body> [--delay <seconds>] [--dedupe-key <key>] [--install <install id>]
       platform queue depth [--json]
       platform queue dead [--json]
                         [--app <app id or slug>] [--url <service URL>] [--key <API key>]

"send" puts a message on the queue of the development install (or --install) as if the app had
sent it (ctx.queue.send): it arrives as a queue.message delivery after --delay seconds (at most 7
days); a --dedupe-key sent in the last 24 hours is not sent again. "depth" shows each install's
waiting messages and the age of the oldest; "dead" the messages that used their attempts (send
them again from the console's Deliveries page). The app is --app, else the one platform.json records.`;

const OPTIONS = {
  app: { type: 'string' }, install: { type: 'string' }, delay: { type: 'string' }, 'dedupe-key': { type: 'string' }, json: { type: 'boolean' }, ...SERVICE_OPTIONS,
} as const;

function parseBody(text: string | undefined): unknown {
  if (text === undefined) throw new UsageError('platform queue send takes the message body as JSON, for example \'{"remind":"mem_1"}\'');
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`The message body is not JSON: ${text.slice(0, 80)}`);
  }
}

function parseDelay(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,7}$/.test(text)) throw new UsageError(`--delay takes whole seconds, not "${text}"`);
  return Number(text);
}

/**
 * @example await queueCommand(['send', '{"n":1}', '--delay', '60']);
 */
export async function queueCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, OPTIONS);
  const [action, body, ...extra] = positionals;
  if (action !== 'send' && action !== 'depth' && action !== 'dead') throw new UsageError('platform queue takes send, depth or dead');
  if (extra.length > 0 || (action !== 'send' && body !== undefined)) throw new UsageError('Too many arguments');
  const message = action === 'send' ? { body: parseBody(body), ...(flags.delay === undefined ? {} : { delaySeconds: parseDelay(flags.delay)! }), ...(flags['dedupe-key'] === undefined ? {} : { key: flags['dedupe-key'] }) } : null;
  const session = await resolveSession({ url: flags.url, key: flags.key });
  const service = createServiceClient({ url: session.url, apiKey: session.apiKey });
  await reportingFailures(async () => {
    const { appId } = await resolveApp({ cwd: process.cwd(), session, service, app: flags.app });
    if (message !== null) {
      const [sent] = (await service.sendQueueMessages(appId, [message], flags.install)).messages;
      if (flags.json) return print(JSON.stringify(sent, null, 2));
      return print(sent!.deduplicated ? `Not sent again: the key names ${sent!.id} (due ${sent!.deliverAt})` : `Sent ${sent!.id}, due ${sent!.deliverAt}`);
    }
    const overview = await service.queueOverview(appId);
    if (flags.json) return print(JSON.stringify(action === 'dead' ? { items: overview.deadLetters } : { items: overview.items }, null, 2));
    if (action === 'depth') {
      if (overview.items.length === 0) return print(`${appId} has no queue messages on any install`);
      for (const q of overview.items) {
        print(`${q.installKind.padEnd(9)} ${q.installId}  ${q.depth} waiting${q.oldestAgeSeconds === null ? '' : `, oldest ${q.oldestAgeSeconds} s`}, ${q.deadLetters} dead`);
      }
      return;
    }
    if (overview.deadLetters.length === 0) return print(`${appId} has no dead letters`);
    for (const d of overview.deadLetters) print(`${d.id}  ${d.installId}  sent ${d.createdAt}, ${d.attempts} attempts: ${d.lastError ?? 'no error kept'}`);
  });
}
