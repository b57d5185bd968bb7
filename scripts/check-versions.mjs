// The packages move together: the root and every workspace carry one version, and each workspace
// depends on the others at exactly that version (`@platform/cli` 0.3.0 runs with `@platform/sdk`
// 0.3.0, the SDK whose contract it was built and tested with; `platform init` writes the same range).
// Run by `npm run lint` and `npm run pack`; exits 1 naming every difference.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));
const read = (dir) => JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8'));

/** Every difference from the root's version, as sentences (empty when they agree). */
export function versionProblems(root, workspaces) {
  const problems = [];
  const names = new Set(workspaces.map(([, pkg]) => pkg.name));
  for (const [dir, pkg] of workspaces) {
    if (pkg.version !== root.version) problems.push(`${dir}/package.json (${pkg.name}) is at ${pkg.version}, the root at ${root.version}`);
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const [dep, range] of Object.entries(pkg[field] ?? {})) {
        if (names.has(dep) && range !== root.version) problems.push(`${dir}/package.json ${field} has ${dep}@${range}; the packages move together: ${root.version}`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = read('.');
  const problems = versionProblems(root, root.workspaces.map((dir) => [dir, read(dir)]));
  if (problems.length > 0) {
    console.error(`The package versions differ:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
}
