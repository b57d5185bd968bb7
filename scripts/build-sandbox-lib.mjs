// Builds @platform/sandbox-lib to plain JavaScript so that `import ... from '@platform/sandbox-lib'`
// works from any Node (the machine's own Node 20 included) right after `npm ci`.
// Our own processes run the TypeScript sources directly (Node 24 strips types, `--conditions=source`).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../sandbox-lib/', import.meta.url));
const entries = [['src/index.ts', 'dist/index.js']];
if (existsSync(root + 'src/cli/main.ts')) entries.push(['src/cli/main.ts', 'dist/cli.js']);
if (existsSync(root + 'src/node/index.ts')) entries.push(['src/node/index.ts', 'dist/node.js']);

for (const [from, to] of entries) {
  await build({
    entryPoints: [root + from],
    outfile: root + to,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}
