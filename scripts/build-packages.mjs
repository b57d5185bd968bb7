// Builds our packages to plain JavaScript so that they work from any Node (the machine's own
// Node 20 included) right after `npm ci`: `@platform/sandbox-lib` for `import ... from
// '@platform/sandbox-lib'` in app projects, and `@platform/cli` for the `platform` bin.
// Our own processes run the TypeScript sources directly (Node 24 strips types, `--conditions=source`).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));
const targets = [
  ['sandbox-lib/', [['src/index.ts', 'dist/index.js'], ['src/node/index.ts', 'dist/node.js']]],
  // The container image has no CLI (it runs the servers); build it where it is.
  ['cli/', [['src/main.ts', 'dist/cli.js']]],
];

for (const [dir, entries] of targets) {
  for (const [from, to] of entries) {
    if (!existsSync(repo + dir + from)) continue;
    await build({
      entryPoints: [repo + dir + from],
      outfile: repo + dir + to,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Dependencies (sandbox-lib for the CLI included) are imported at run time, not copied in.
      packages: 'external',
      sourcemap: true,
      logLevel: 'warning',
    });
  }
}
