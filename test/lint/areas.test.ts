// The control plane's area rule of `npm run lint` (.dependency-cruiser.cjs, docs/architecture.md) run on small trees
// that keep it or break it: each broken tree fails with the rule it breaks, the kept one passes.
import { afterAll, describe, expect, it } from 'vitest';
import { check as checkTree, exporting, importing, removeTrees, under } from './structure-check.ts';

afterAll(removeTrees);

/** Runs the lint's check on `files` placed under control-plane/src/. */
const check = (files: Record<string, string>) => checkTree(under('control-plane/src', files));

/** A tree that keeps every rule: each area imports only areas below it, the root wires them. */
const KEPT = {
  'core/db/db.ts': exporting('db'),
  'workspace/members/store.ts': importing('../../core/db/db.ts', 'db'),
  'apps/installs/store.ts': importing('../../workspace/members/store.ts', 'use'),
  'deliveries/pipeline/pipeline.ts': importing('../../apps/installs/store.ts', 'use'),
  'messaging/references/resolve.ts': importing('../../deliveries/pipeline/pipeline.ts', 'use'),
  'blocks/interactions/service.ts': importing('../../messaging/references/resolve.ts', 'use'),
  'wiring/blocks.ts': importing('../blocks/interactions/service.ts', 'use'),
  'console/routes.ts': importing('../core/db/db.ts', 'db'),
  'app.ts': `${importing('./wiring/blocks.ts', 'use')}import { use as consoleUse } from './console/routes.ts';\nexport const c = consoleUse;\n`,
};

describe('the area rule', () => {
  it('passes a tree whose areas import one way and whose root wires them', async () => {
    const { code, output } = await check(KEPT);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it('fails the console importing a feature area, and a feature area importing the console', async () => {
    const up = await check({ ...KEPT, 'console/routes.ts': importing('../workspace/members/store.ts', 'use') });
    expect(up.code).toBeGreaterThan(0);
    expect(up.output).toMatch(/error area-console: control-plane\/src\/console\/routes\.ts → control-plane\/src\/workspace\/members\/store\.ts/);
    const into = await check({ ...KEPT, 'console/routes.ts': exporting('use'), 'blocks/interactions/service.ts': importing('../../console/routes.ts', 'use') });
    expect(into.code).toBeGreaterThan(0);
    expect(into.output).toMatch(/error not-into-console: control-plane\/src\/blocks\/interactions\/service\.ts → control-plane\/src\/console\/routes\.ts/);
  });

  it('fails an area that imports a higher one', async () => {
    const { code, output } = await check({ ...KEPT, 'core/db/db.ts': importing('../../blocks/interactions/service.ts', 'use') });
    expect(code).toBeGreaterThan(0);
    expect(output).toMatch(/error area-core: control-plane\/src\/core\/db\/db\.ts → control-plane\/src\/blocks\/interactions\/service\.ts/);
  });

  it('fails a feature folder that imports the wiring', async () => {
    const { code, output } = await check({ ...KEPT, 'apps/installs/routes.ts': importing('../../wiring/blocks.ts', 'use') });
    expect(code).toBeGreaterThan(0);
    expect(output).toMatch(/error area-apps: control-plane\/src\/apps\/installs\/routes\.ts → control-plane\/src\/wiring\/blocks\.ts/);
  });

  it('fails two folders of one area that import each other, though no file cycle does', async () => {
    const { code, output } = await check({
      ...KEPT,
      'workspace/circles/store.ts': exporting('circle'),
      'workspace/circles/service.ts': importing('../members/store.ts', 'use'),
      'workspace/members/service.ts': importing('../circles/store.ts', 'circle'),
    });
    expect(code).toBeGreaterThan(0);
    expect(output).toMatch(/error no-folder-cycles: control-plane\/src\/workspace\/(circles|members)/);
    expect(output).not.toContain('no-file-cycles');
  });

  it('fails two files that import each other', async () => {
    const { code, output } = await check({
      ...KEPT,
      'workspace/members/a.ts': `import { b } from './b.ts';\nexport const a = () => b;\n`,
      'workspace/members/b.ts': `import { a } from './a.ts';\nexport const b = () => a;\n`,
    });
    expect(code).toBeGreaterThan(0);
    expect(output).toMatch(/error no-file-cycles: control-plane\/src\/workspace\/members\/[ab]\.ts → /);
  });
});
