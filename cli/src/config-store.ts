/**
 * @module cli/config-store
 * The CLI's configuration, in one place: the environment (`PLATFORM_URL`, `PLATFORM_API_KEY`,
 * `PLATFORM_CONFIG_DIR`) and the credentials `platform login` stored in
 * `<config dir>/credentials.json` (default `~/.config/platform`, or `$XDG_CONFIG_HOME/platform`).
 * No other CLI module reads `process.env`.
 *
 * The file holds a member API key, so it is written with mode 0600 in a 0700 directory, through a
 * temporary file and a rename (a crash never leaves half a key). A stored key is only ever sent to
 * the service it was stored for: with `PLATFORM_URL` (or `--url`) naming another service, the
 * stored key is not used, so pointing the CLI elsewhere cannot leak it.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from './args.ts';
import { CommandError } from './output.ts';

const HttpUrl = z.string().refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, 'must be an http:// or https:// URL');

const CliEnvSchema = z.object({
  PLATFORM_URL: HttpUrl.optional(),
  PLATFORM_API_KEY: z.string().min(1).optional(),
  PLATFORM_CONFIG_DIR: z.string().min(1).optional(),
  XDG_CONFIG_HOME: z.string().min(1).optional(),
});

export interface CliEnv {
  /** Service origin from `PLATFORM_URL`. */
  readonly url: string | undefined;
  /** Credential from `PLATFORM_API_KEY` (a member API key, or a deploy token in CI). */
  readonly apiKey: string | undefined;
  /** Where `credentials.json` lives. */
  readonly configDir: string;
}

/**
 * Reads the CLI's environment once; a malformed value is a usage error naming the variable.
 * @example const env = readCliEnv(); // { url: undefined, apiKey: undefined, configDir: '/home/me/.config/platform' }
 */
export function readCliEnv(env: Readonly<Record<string, string | undefined>> = process.env): CliEnv {
  // Empty values count as unset (`PLATFORM_URL= platform deploy` is a common way to clear one).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = CliEnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${issue.path.join('.')} ${issue.message}`);
  }
  const e = parsed.data;
  return {
    url: e.PLATFORM_URL === undefined ? undefined : normalizeUrl(e.PLATFORM_URL),
    apiKey: e.PLATFORM_API_KEY,
    configDir: e.PLATFORM_CONFIG_DIR ?? join(e.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'platform'),
  };
}

/** The origin the CLI talks to, without a trailing slash (so stored and given URLs compare equal). */
export function normalizeUrl(value: string): string {
  const parsed = HttpUrl.safeParse(value);
  if (!parsed.success) throw new UsageError(`"${value}" is not an http:// or https:// URL`);
  return parsed.data.replace(/\/+$/, '');
}

const StoredSchema = z.object({
  url: z.string(),
  apiKey: z.string(),
  memberId: z.string().optional(),
  workspaceId: z.string().optional(),
  savedAt: z.string().optional(),
});
export type StoredCredentials = z.infer<typeof StoredSchema>;

export const credentialsFile = (configDir: string): string => join(configDir, 'credentials.json');

/**
 * The stored credentials, or null when there are none.
 * @example const stored = await readStoredCredentials(readCliEnv().configDir);
 */
export async function readStoredCredentials(configDir: string): Promise<StoredCredentials | null> {
  let text: string;
  try {
    text = await readFile(credentialsFile(configDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${credentialsFile(configDir)} is not JSON; run platform login again`);
  }
  const parsed = StoredSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${credentialsFile(configDir)} is not a credentials file; run platform login again`);
  return parsed.data;
}

/**
 * Stores credentials readable by the user only.
 * @example await storeCredentials(dir, { url: 'http://localhost:4000', apiKey: 'platkey_…' });
 */
export async function storeCredentials(configDir: string, credentials: StoredCredentials): Promise<string> {
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const file = credentialsFile(configDir);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // `mode` applies only when the file is created; make sure, umask or not.
  await chmod(temp, 0o600);
  await rename(temp, file);
  return file;
}

export interface Session {
  readonly url: string;
  readonly apiKey: string;
  /** Where the credential came from, for messages. */
  readonly source: 'flag' | 'environment' | 'stored';
}

/**
 * The service and credential a command uses: `--url`/`PLATFORM_URL`/the stored URL, and
 * `--key`/`PLATFORM_API_KEY`/the key stored for that same URL.
 * @example const { url, apiKey } = await resolveSession({ url: flags.url, key: flags.key });
 */
export async function resolveSession(options: { url?: string | undefined; key?: string | undefined; env?: CliEnv } = {}): Promise<Session> {
  const env = options.env ?? readCliEnv();
  const stored = await readStoredCredentials(env.configDir);
  const url = options.url !== undefined ? normalizeUrl(options.url) : env.url ?? stored?.url;
  if (url === undefined) throw new CommandError('Which service? Run platform login --url <service URL>, or give --url and --key (or set PLATFORM_URL and PLATFORM_API_KEY)');
  if (options.key !== undefined) return { url, apiKey: options.key, source: 'flag' };
  if (env.apiKey !== undefined) return { url, apiKey: env.apiKey, source: 'environment' };
  if (stored !== null && stored.url === url) return { url, apiKey: stored.apiKey, source: 'stored' };
  throw new CommandError(stored === null
    ? `Not logged in: run platform login --url ${url}, or give --key (or set PLATFORM_API_KEY)`
    : `The stored key is for ${stored.url}, not ${url}: run platform login --url ${url}, or give --key (or set PLATFORM_API_KEY)`);
}
