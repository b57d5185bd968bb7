// The cycle rules of `npm run lint` (scripts/lint-structure.mjs, .dependency-cruiser.cjs) in each of
// the four packages' src trees: a tree that keeps them passes; a file cycle, a folder cycle and a
// parent folder's file importing its own child while the child imports a file of the parent each
// fail, in every package, with the rule they break.
import { afterAll, describe, expect, it } from 'vitest';
import { check, exporting, importing, removeTrees, under } from './structure-check.ts';

afterAll(removeTrees);

const PACKAGES = ['control-plane', 'runtime', 'sandbox-lib', 'cli'] as const;

/** A package tree that keeps the rules: the parent's entry imports its children, the children a low folder. */
const KEPT = {
  'kit/config.ts': exporting('config'),
  'jobs/run.ts': importing('../kit/config.ts', 'config'),
  'jobs/steps/step.ts': importing('../../kit/config.ts', 'config'),
  'jobs/index.ts': importing('./steps/step.ts', 'use'),
  'main.ts': importing('./jobs/run.ts', 'use'),
};
const tree = (pkg: string, files: Record<string, string>) => under(`${pkg}/src`, { ...KEPT, ...files });

describe.each(PACKAGES)('the cycle rules in %s/src', (pkg) => {
  const src = `${pkg}/src`.replace(/[/-]/g, (c) => `\\${c}`);

  it('passes a tree whose folders import one way', async () => {
    const { code, output } = await check(tree(pkg, {}));
    expect(output).toContain('no dependency violations found');
    expect(output).not.toContain('no-own-folder-cycles');
    expect(code).toBe(0);
  });

  it('fails two files that import each other', async () => {
    const { code, output } = await check(tree(pkg, {
      'jobs/a.ts': `import { b } from './b.ts';\nexport const a = () => b;\n`,
      'jobs/b.ts': `import { a } from './a.ts';\nexport const b = () => a;\n`,
    }));
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`error no-file-cycles: ${src}/jobs/[ab]\\.ts → `));
  });

  it('fails two folders that import each other, though no file cycle does', async () => {
    const { code, output } = await check(tree(pkg, {
      'kit/limits.ts': importing('../jobs/run.ts', 'use'),
    }));
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`error no-folder-cycles: ${src}/(kit|jobs)`));
    expect(output).not.toContain('no-file-cycles');
  });

  it("fails a parent folder's file that imports its child while the child imports a file of the parent", async () => {
    const { code, output } = await check(tree(pkg, {
      'jobs/names.ts': exporting('names'),
      'jobs/steps/name.ts': importing('../names.ts', 'names'),
    }));
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`error no-own-folder-cycles: ${src}/jobs ↔ ${src}/jobs/steps `));
    expect(output).toContain(`${pkg}/src/jobs/index.ts → ${pkg}/src/jobs/steps/step.ts`);
    expect(output).toContain(`${pkg}/src/jobs/steps/name.ts → ${pkg}/src/jobs/names.ts`);
    // dependency-cruiser's own folder rule counts jobs/ with jobs/steps/ inside it: it sees no cycle.
    expect(output).not.toContain('no-folder-cycles');
    expect(output).not.toContain('no-file-cycles');
  });

  it('fails the same at the top of the tree: a child importing an entry-level file that imports it', async () => {
    const { code, output } = await check(tree(pkg, {
      'settings.ts': exporting('settings'),
      'jobs/limits.ts': importing('../settings.ts', 'settings'),
    }));
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`error no-own-folder-cycles: ${src} ↔ ${src}/jobs `));
  });
});

describe('the cycle rules across packages', () => {
  it('pass a child that imports a file of its parent when the parent imports no child', async () => {
    const { code, output } = await check(under('sandbox-lib/src', {
      'manifest/rule.ts': exporting('rule'),
      'manifest/rules/scopes.ts': importing('../rule.ts', 'rule'),
      'index.ts': importing('./manifest/rules/scopes.ts', 'use'),
    }));
    expect(output).not.toContain('error');
    expect(code).toBe(0);
  });

  it('fail two packages whose src trees import each other', async () => {
    const { code, output } = await check({
      ...under('sandbox-lib/src', { 'api/x.ts': importing('../../../runtime/src/main.ts', 'use') }),
      ...under('runtime/src', { 'main.ts': importing('../../sandbox-lib/src/api/x.ts', 'use') }),
    });
    expect(code).toBe(1);
    expect(output).toMatch(/error no-file-cycles: (sandbox-lib|runtime)\/src\//);
  });
});
