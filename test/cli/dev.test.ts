/**
 * The pieces of `platform dev` around the relay (the relay itself: test/control-plane/lifecycle/relay.test.ts): flags, where
 * the manifest comes from, and the command table.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../cli/src/args.ts';
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

  it('takes --url and --key like the other commands, and its old flag names still', async () => {
    const PLATFORM_CONFIG_DIR = join(dir, 'no-login');
    const notes = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      // Nothing listens on port 1: getting as far as the network means the flags were taken.
      for (const argv of [
        ['--url', 'http://127.0.0.1:1', '--key', 'platkey_x'],
        ['--base-url', 'http://127.0.0.1:1', '--api-key', 'platkey_x'],
      ]) {
        await expect(devCommand([...argv, '--manifest', join(dir, 'manifest.json'), '--endpoint', 'http://localhost:9/p'], { PLATFORM_CONFIG_DIR }))
          .rejects.toThrow('/v0/apps/dev failed');
      }
      expect(notes.mock.calls.map((c) => String(c[0])).join('')).toContain('Note: --base-url is an old name of --url');
      await expect(devCommand(['--url', 'http://127.0.0.1:1', '--base-url', 'http://127.0.0.1:2', '--key', 'k'], { PLATFORM_CONFIG_DIR }))
        .rejects.toThrow('--url and --base-url are the same option; give one');
      // The module as the entry argument (like build and deploy), or the old --app.
      await expect(devCommand([join(dir, 'app.mjs'), '--app', join(dir, 'app.mjs')], { PLATFORM_CONFIG_DIR })).rejects.toThrow('takes one entry');
    } finally {
      notes.mockRestore();
    }
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
