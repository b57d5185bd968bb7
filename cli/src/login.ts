/**
 * @module cli/login
 * `platform login --url <service> [--key platkey_…]`: checks a member API key with
 * `GET /v0/whoami` and stores it for later commands (config-store.ts). Without `--key` the key is
 * read from a prompt with the echo off, or from stdin when it is piped.
 */
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { readCliEnv, readStoredCredentials, storeCredentials, normalizeUrl } from './config-store.ts';
import { CommandError, print, reportingFailures } from './output.ts';
import { readSecret } from './prompt.ts';
import { createServiceClient } from './service.ts';

export const LOGIN_USAGE = `Usage: platform login --url <service URL> [--key <member API key>]

Checks the key with the service and stores it in the CLI's config directory (mode 0600).
Without --key, the key is read from a prompt, or from stdin when piped.`;

const KIND_NAMES: Record<string, string> = {
  install: 'an install token', interaction: 'an interaction token', deploy: 'a deploy token', agent: 'an agent builder token', client: 'client credentials',
};

/**
 * @example await loginCommand(['--url', 'http://localhost:4000', '--key', 'platkey_…']);
 */
export async function loginCommand(argv: readonly string[]): Promise<void> {
  const { flags, positionals } = parseCommandArgs(argv, SERVICE_OPTIONS);
  if (positionals.length > 0) throw new UsageError(`platform login takes no arguments, got ${positionals.join(' ')}`);
  const env = readCliEnv();
  const stored = await readStoredCredentials(env.configDir);
  const given = flags.url ?? env.url ?? stored?.url;
  if (given === undefined) throw new UsageError('Which service? Give --url, for example --url http://localhost:4000');
  const url = normalizeUrl(given);
  const apiKey = flags.key ?? await readSecret(`Member API key for ${url}: `);
  if (apiKey === '') throw new UsageError('No key given: pass --key, type it at the prompt, or pipe it into stdin');

  await reportingFailures(async () => {
    const service = createServiceClient({ url, apiKey });
    const who = await service.whoami();
    if (who.kind !== 'member') {
      throw new CommandError(`That is ${KIND_NAMES[who.kind] ?? who.kind}, not a member API key (platkey_…). CI can use a deploy token through PLATFORM_API_KEY without logging in.`);
    }
    const me = await service.me();
    const file = await storeCredentials(env.configDir, {
      url, apiKey, memberId: who.memberId, workspaceId: who.workspaceId, savedAt: new Date().toISOString(),
    });
    print(`Logged in to ${url} as ${me.member.name} (${me.member.role}) in ${me.workspace.name} (${me.workspace.id})`);
    print(`Key stored in ${file}`);
    if (env.apiKey !== undefined) print('Note: PLATFORM_API_KEY is set and is used instead of the stored key while it is.');
  }, (err) => err.tag === 'PlatformAppTokenInvalidError' || err.tag === 'PlatformAppTokenMissingError'
    ? `The service did not accept that key. Member API keys start with platkey_ (npm start writes the demo ones to .data/credentials.json).`
    : undefined);
}
