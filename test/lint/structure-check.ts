// Runs the structure check of `npm run lint` (scripts/lint-structure.mjs, .dependency-cruiser.cjs)
// on a small tree written to a fresh directory: `files` maps paths such as
// `control-plane/src/core/db.ts` or `sandbox-lib/src/api/x.ts` to their source.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/lint-structure.mjs', import.meta.url));
const dirs: string[] = [];

/** Removes every tree written so far (call from afterAll). */
export async function removeTrees(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export async function check(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'structure-lint-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT], { cwd: dir },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, output: stdout + stderr }));
  });
}

export const exporting = (name: string) => `export const ${name} = 1;\n`;
export const importing = (from: string, name: string) => `import { ${name} } from '${from}';\nexport const use = ${name};\n`;
/** Prefixes every path of `files` with `prefix`. */
export const under = (prefix: string, files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([path, text]) => [`${prefix}/${path}`, text]));
