/** The packages move together: scripts/check-versions.mjs names every version that differs. */
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without declarations
import { versionProblems } from '../../scripts/check-versions.mjs';

const check = versionProblems as (root: { version: string }, workspaces: Array<[string, Record<string, unknown>]>) => string[];

describe('check-versions', () => {
  it('passes when every package and every internal dependency carries the root version', () => {
    expect(check({ version: '0.2.0' }, [
      ['sandbox-lib', { name: '@platform/sdk', version: '0.2.0', dependencies: { zod: '^4.0.0' } }],
      ['cli', { name: '@platform/cli', version: '0.2.0', dependencies: { '@platform/sdk': '0.2.0' } }],
    ])).toEqual([]);
  });

  it('names a package whose version moved alone, and a dependency on another version', () => {
    expect(check({ version: '0.2.0' }, [
      ['sandbox-lib', { name: '@platform/sdk', version: '0.3.0' }],
      ['cli', { name: '@platform/cli', version: '0.2.0', dependencies: { '@platform/sdk': '^0.1.0' } }],
    ])).toEqual([
      'sandbox-lib/package.json (@platform/sdk) is at 0.3.0, the root at 0.2.0',
      'cli/package.json dependencies has @platform/sdk@^0.1.0; the packages move together: 0.2.0',
    ]);
  });
});
