// The SDK's type declarations for its published package: tsc writes dist/**/*.d.ts beside the
// JavaScript (sandbox-lib/tsconfig.build.json), then the relative `.ts` specifiers the sources use
// (`allowImportingTsExtensions`) become `.js`, which resolve to the `.d.ts` twins in any project:
// tsc rewrites them in emitted JavaScript only, not in type-only imports of declarations.
// The CLI's one entry (`main`, `COMMANDS`, `VERSION` of src/main.ts) declares only its own types:
// its declaration is written to a scratch folder and copied as dist/cli.d.ts, the rest thrown away.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const RELATIVE_TS = /(from\s+|import\()(['"])(\.\.?\/[^'"]*?)\.ts\2/g;

export function buildDeclarations(repo) {
  const tsc = createRequire(join(repo, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(repo, 'sandbox-lib/tsconfig.build.json')], { stdio: 'inherit' });
  execFileSync(process.execPath, [tsc, '-p', join(repo, 'cli/tsconfig.build.json')], { stdio: 'inherit' });
  copyFileSync(join(repo, 'cli/dist/types/main.d.ts'), join(repo, 'cli/dist/cli.d.ts'));
  rmSync(join(repo, 'cli/dist/types'), { recursive: true, force: true });
  const dist = join(repo, 'sandbox-lib/dist');
  for (const file of readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.d.ts'))) {
    const path = join(dist, file);
    const text = readFileSync(path, 'utf8');
    const rewritten = text.replace(RELATIVE_TS, '$1$2$3.js$2');
    if (rewritten !== text) writeFileSync(path, rewritten);
  }
}
