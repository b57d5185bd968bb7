// The main entry runs inside V8 isolates without Node APIs: bundling it for a neutral platform
// (no Node built-ins known) must succeed and pull no `node:` module. The Node adapter is the
// control: the same build of its entry fails, so the check can tell the two apart.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../sandbox-lib/', import.meta.url));

const bundle = (entry: string) => build({
  entryPoints: [root + entry],
  bundle: true,
  write: false,
  metafile: true,
  platform: 'neutral',
  format: 'esm',
  mainFields: ['module', 'main'],
  conditions: ['source', 'import', 'default'],
  logLevel: 'silent',
});

describe('the main entry is Web-standard', () => {
  it('bundles for a neutral platform without any node: module', async () => {
    const result = await bundle('src/index.ts');
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes('src/authoring/') )).toBe(true);
    expect(inputs.some((input) => input.includes('src/client/'))).toBe(true);
    expect(inputs.filter((input) => input.startsWith('node:') || input.includes('src/node/'))).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:/);
    expect(code).not.toMatch(/\bprocess\.env\b|\bBuffer\.from\b/);
  });

  it('while the Node adapter does not (the control)', async () => {
    await expect(bundle('src/node/index.ts')).rejects.toThrow(/node:http|node:events/);
  });
});
