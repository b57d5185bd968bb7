// The runtime's structure rules of eslint.config.js, run on small sources placed (by path only, nothing
// is written) in the runtime's tree: supervisor and sandbox meet only in protocol/, and no function in
// its product code is over 100 lines. Each broken source fails with the rule it breaks; the kept one passes.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function messages(filePath: string, code: string): Promise<{ ruleId: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return result!.messages.map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

describe('supervisor and sandbox meet only in protocol/', () => {
  it('passes both sides importing protocol/', async () => {
    expect(await messages('runtime/src/supervisor/fixture.ts', "import { readJournal } from '../protocol/journal.ts';\nexport const r = readJournal;\n")).toEqual([]);
    expect(await messages('runtime/src/sandbox/fixture.ts', "import { createJournal } from '../protocol/journal.ts';\nexport const c = createJournal;\n")).toEqual([]);
  });

  it('fails the supervisor importing the sandbox', async () => {
    const found = await messages('runtime/src/supervisor/fixture.ts', "import type { Slot } from '../sandbox/slot.ts';\nexport type S = Slot;\n");
    expect(found).toEqual([expect.objectContaining({ ruleId: 'no-restricted-imports', message: expect.stringContaining('meet only in runtime/src/protocol/') })]);
  });

  it('fails the sandbox importing the supervisor', async () => {
    const found = await messages('runtime/src/sandbox/fixture.ts', "import type { Pending } from '../supervisor/pending.ts';\nexport type P = Pending;\n");
    expect(found).toEqual([expect.objectContaining({ ruleId: 'no-restricted-imports', message: expect.stringContaining('meet only in runtime/src/protocol/') })]);
  });

  it('keeps the runtime-wide rules on both sides', async () => {
    const found = await messages('runtime/src/sandbox/fixture.ts', "import { x } from '../../../control-plane/src/app.ts';\nexport const y = x;\n");
    expect(found).toEqual([expect.objectContaining({ ruleId: 'no-restricted-imports', message: expect.stringContaining('never imports the control plane') })]);
  });
});

describe('no function over 100 lines in the runtime', () => {
  const fn = (lines: number) => `export function long(): number {\n  let n = 0;\n${'  n++;\n'.repeat(lines - 4)}  return n;\n}\n`;

  it('passes a function of 100 lines, blank lines and comments not counted', async () => {
    const withExtras = fn(100).replace('  let n = 0;\n', '  let n = 0;\n\n  // why\n\n');
    expect(await messages('runtime/src/sandbox/fixture.ts', withExtras)).toEqual([]);
  });

  it('fails a function of 101 lines', async () => {
    expect(await messages('runtime/src/sandbox/fixture.ts', fn(101))).toEqual([expect.objectContaining({ ruleId: 'max-lines-per-function' })]);
  });
});
