/**
 * The CLI's configuration: the environment read in one place, credentials stored readable by the
 * user only, `PLATFORM_API_KEY`/`PLATFORM_URL` overriding them, and a stored key never used for
 * another service than the one it was stored for.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/src/args.ts';
import { CommandError } from '../../cli/src/output.ts';
import { credentialsFile, readCliEnv, readStoredCredentials, resolveSession, storeCredentials } from '../../cli/src/config-store.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-config-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('readCliEnv', () => {
  it('defaults the config directory to ~/.config/platform, or XDG_CONFIG_HOME, or PLATFORM_CONFIG_DIR', () => {
    expect(readCliEnv({})).toEqual({ url: undefined, apiKey: undefined, configDir: join(homedir(), '.config', 'platform') });
    expect(readCliEnv({ XDG_CONFIG_HOME: '/x' }).configDir).toBe('/x/platform');
    expect(readCliEnv({ XDG_CONFIG_HOME: '/x', PLATFORM_CONFIG_DIR: '/p' }).configDir).toBe('/p');
  });

  it('reads PLATFORM_URL (trailing slash dropped) and PLATFORM_API_KEY; empty means unset; a bad URL is a usage error', () => {
    expect(readCliEnv({ PLATFORM_URL: 'http://localhost:4000/', PLATFORM_API_KEY: 'platkey_x' })).toMatchObject({ url: 'http://localhost:4000', apiKey: 'platkey_x' });
    expect(readCliEnv({ PLATFORM_URL: '', PLATFORM_API_KEY: '' })).toMatchObject({ url: undefined, apiKey: undefined });
    expect(() => readCliEnv({ PLATFORM_URL: 'ftp://example.com' })).toThrow(UsageError);
    expect(() => readCliEnv({ PLATFORM_URL: 'ftp://example.com' })).toThrow(/PLATFORM_URL must be an http/);
  });
});

describe('stored credentials', () => {
  it('are written with mode 0600 in a 0700 directory, and read back', async () => {
    const configDir = join(dir, 'nested', 'platform');
    await storeCredentials(configDir, { url: 'http://localhost:4000', apiKey: 'platkey_secret' });
    expect((await stat(credentialsFile(configDir))).mode & 0o777).toBe(0o600);
    expect((await stat(configDir)).mode & 0o777).toBe(0o700);
    expect(await readStoredCredentials(configDir)).toEqual({ url: 'http://localhost:4000', apiKey: 'platkey_secret' });
  });

  it('stay 0600 when an existing file had wider permissions', async () => {
    await writeFile(credentialsFile(dir), '{}', { mode: 0o644 });
    await storeCredentials(dir, { url: 'http://a', apiKey: 'k' });
    expect((await stat(credentialsFile(dir))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(credentialsFile(dir), 'utf8'))).toEqual({ url: 'http://a', apiKey: 'k' });
  });

  it('are null when absent and an error when not a credentials file', async () => {
    expect(await readStoredCredentials(dir)).toBeNull();
    await writeFile(credentialsFile(dir), '{"url": 1}');
    await expect(readStoredCredentials(dir)).rejects.toThrow(/not a credentials file/);
  });
});

describe('resolveSession', () => {
  const env = (overrides: Record<string, string> = {}) => readCliEnv({ PLATFORM_CONFIG_DIR: dir, ...overrides });

  it('uses the stored URL and key', async () => {
    await storeCredentials(dir, { url: 'http://localhost:4000', apiKey: 'platkey_stored' });
    expect(await resolveSession({ env: env() })).toEqual({ url: 'http://localhost:4000', apiKey: 'platkey_stored', source: 'stored' });
  });

  it('lets PLATFORM_API_KEY and PLATFORM_URL override the stored ones', async () => {
    await storeCredentials(dir, { url: 'http://localhost:4000', apiKey: 'platkey_stored' });
    expect(await resolveSession({ env: env({ PLATFORM_API_KEY: 'platdep_ci' }) })).toEqual({ url: 'http://localhost:4000', apiKey: 'platdep_ci', source: 'environment' });
    expect(await resolveSession({ env: env({ PLATFORM_URL: 'https://other.example', PLATFORM_API_KEY: 'platkey_env' }) }))
      .toEqual({ url: 'https://other.example', apiKey: 'platkey_env', source: 'environment' });
  });

  it('lets --key and --url override both', async () => {
    await storeCredentials(dir, { url: 'http://localhost:4000', apiKey: 'platkey_stored' });
    expect(await resolveSession({ env: env({ PLATFORM_API_KEY: 'platdep_ci' }), key: 'platkey_flag' }))
      .toEqual({ url: 'http://localhost:4000', apiKey: 'platkey_flag', source: 'flag' });
    expect(await resolveSession({ env: env({ PLATFORM_URL: 'https://other.example' }), url: 'https://third.example/', key: 'platkey_flag' }))
      .toEqual({ url: 'https://third.example', apiKey: 'platkey_flag', source: 'flag' });
  });

  it('never sends the stored key to another service', async () => {
    await storeCredentials(dir, { url: 'http://localhost:4000', apiKey: 'platkey_stored' });
    await expect(resolveSession({ env: env({ PLATFORM_URL: 'https://evil.example' }) })).rejects.toThrow(/The stored key is for http:\/\/localhost:4000, not https:\/\/evil\.example/);
    await expect(resolveSession({ env: env(), url: 'https://evil.example/' })).rejects.toThrow(CommandError);
    // The same service spelled with a trailing slash is the same service.
    expect((await resolveSession({ env: env(), url: 'http://localhost:4000/' })).apiKey).toBe('platkey_stored');
  });

  it('asks for a login when nothing is configured', async () => {
    await expect(resolveSession({ env: env() })).rejects.toThrow(/Which service\? Run platform login --url/);
    await expect(resolveSession({ env: env({ PLATFORM_URL: 'http://localhost:4000' }) })).rejects.toThrow(/Not logged in: run platform login --url http:\/\/localhost:4000/);
  });
});
