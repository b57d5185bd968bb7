/**
 * An app built in a folder inside the repository (as the README's "Your first hosted app" did before
 * `platform init`; an author may still try it), whose `.platform/bundle.js` is the CLI's output. `npm test` starts with
 * `eslint .`, so that output must be ignored while the author's own `app.ts` is still linted.
 * Built here the same way, in a throwaway folder at the repository root; the control lints the
 * bundle with ignores off and must find problems, so the test can tell the two apart.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO, runCli } from './helpers.ts';

let dir: string;
beforeAll(async () => {
  // At the root, like my-first-app: @platform/sdk and zod resolve from the repository.
  dir = await mkdtemp(join(REPO, 'first-app-lint-'));
  await cp(join(FIXTURES, 'hello/app.ts'), join(dir, 'app.ts'));
  const built = await runCli(['build'], { cwd: dir });
  expect(built.code, built.stderr).toBe(0);
});
afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('lint after the README first-app steps', () => {
  it('ignores the CLI output in .platform/ and still lints the app', async () => {
    const eslint = new ESLint({ cwd: REPO });
    expect(await eslint.isPathIgnored(join(dir, '.platform/bundle.js'))).toBe(true);
    const results = await eslint.lintFiles([dir]);
    expect(results.map((r) => r.filePath)).toEqual([join(dir, 'app.ts')]);
    expect(results.flatMap((r) => r.messages)).toEqual([]);
  });

  it("lets the author's own console.log be (no-console holds for the platform's product code only)", async () => {
    const app = join(dir, 'app.ts');
    const source = await readFile(app, 'utf8');
    await writeFile(app, `${source}\nconsole.log('hello from my app');\n`);
    try {
      const [result] = await new ESLint({ cwd: REPO }).lintFiles([app]);
      expect(result!.messages).toEqual([]);
      // The control: the same line in the control plane's code is refused.
      const [product] = await new ESLint({ cwd: REPO }).lintText("console.log('x');\n", { filePath: join(REPO, 'control-plane/src/core/x.ts') });
      expect(product!.messages.map((m) => m.ruleId)).toContain('no-console');
    } finally {
      await writeFile(app, source);
    }
  });

  it('would fail on the bundle if it were linted (the control)', async () => {
    const [result] = await new ESLint({ cwd: REPO, ignore: false }).lintFiles([join(dir, '.platform/bundle.js')]);
    expect(result!.errorCount).toBeGreaterThan(0);
  });
});
