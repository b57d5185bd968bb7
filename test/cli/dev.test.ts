/**
 * The pieces of `platform dev` around the relay (the relay itself: test/control-plane/lifecycle/relay.test.ts): flags, where
 * the manifest comes from, and the command table.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseFlags, UsageError } from '../../cli/src/args.ts';
import { devCommand } from '../../cli/src/dev.ts';
import { COMMANDS, main } from '../../cli/src/main.ts';
import { loadManifest } from '../../cli/src/manifest-source.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-cli-'));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ schemaVersion: 1, name: 'From JSON', slug: 'from-json' }));
  await writeFile(join(dir, 'app.mjs'), 'export default { manifest: { schemaVersion: 1, name: "From code", slug: "from-code" }, fetch() {} };\n');
  await writeFile(join(dir, 'list.json'), '[1, 2]');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('platform dev', () => {
  it('reads flags strictly', () => {
    const spec = { manifest: 'string', once: 'boolean' } as const;
    expect(parseFlags(['--manifest', 'a.json', '--once'], spec)).toEqual({ manifest: 'a.json', once: true });
    expect(parseFlags(['--manifest=b.json'], spec)).toEqual({ manifest: 'b.json' });
    expect(() => parseFlags(['--manfest', 'a.json'], spec)).toThrow(UsageError);
    expect(() => parseFlags(['--manifest'], spec)).toThrow('--manifest needs a value');
    expect(() => parseFlags(['--once=yes'], spec)).toThrow(UsageError);
    expect(() => parseFlags(['stray'], spec)).toThrow(UsageError);
  });

  it('reads the manifest from a JSON file or from the app module\'s computed manifest', async () => {
    expect(await loadManifest({ manifest: 'manifest.json', cwd: dir })).toMatchObject({ slug: 'from-json' });
    expect(await loadManifest({ cwd: dir })).toMatchObject({ slug: 'from-code' });
    await expect(loadManifest({ manifest: 'list.json', cwd: dir })).rejects.toThrow(UsageError);
    await expect(loadManifest({ cwd: tmpdir() + '/definitely-empty-' + Date.now() })).rejects.toThrow('No app found');
  });

  it('needs a service and a credential', async () => {
    // An empty config dir: nothing stored by `platform login`.
    const PLATFORM_CONFIG_DIR = join(dir, 'no-login');
    await expect(devCommand(['--manifest', join(dir, 'manifest.json')], { PLATFORM_CONFIG_DIR })).rejects.toThrow('Which service?');
    await expect(devCommand(['--manifest', join(dir, 'manifest.json')], { PLATFORM_CONFIG_DIR, PLATFORM_URL: 'http://127.0.0.1:1' })).rejects.toThrow('PLATFORM_API_KEY');
  });

  it('is one row of the command table; unknown commands and bad flags exit 2', async () => {
    expect(Object.keys(COMMANDS)).toContain('dev');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await main(['nope'])).toBe(2);
      expect(await main(['dev', '--wat'])).toBe(2);
      expect(await main([])).toBe(0);
      expect(errors.mock.calls.map((c) => String(c[0])).join('\n')).toContain('Unknown command "nope"');
    } finally {
      errors.mockRestore();
    }
  });
});
