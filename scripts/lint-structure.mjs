// The structure check of `npm run lint`: one dependency-cruiser pass over the four packages' src
// trees (those present in the working directory), judged twice.
//
// 1. The rules of .dependency-cruiser.cjs: the control plane's areas, and no file or folder cycle
//    in any package.
// 2. A folder's own files and its subfolders import one way. dependency-cruiser counts a folder
//    with everything under it, so `console/routes.ts → console/pages/home.ts → console/layout.ts`
//    is no cycle to it: pages/ lies inside console/. Here each file belongs to its own folder only
//    (console/ is routes.ts and layout.ts, console/pages/ is home.ts), and a cycle among those
//    folders is an error, named with the imports that tie it.
//
// `node scripts/lint-structure.mjs [package ...]` checks the packages named (all four by default).
// Exits 1 on any error. test/lint/ runs it on fixture trees (cwd) that break each rule.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path/posix';
import { fileURLToPath } from 'node:url';
import { cruise, format } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const CONFIG = fileURLToPath(new URL('../.dependency-cruiser.cjs', import.meta.url));
const PACKAGES = ['control-plane', 'runtime', 'sandbox-lib', 'cli'];

/** Each file's own folder → the folders its files import (other than itself), with one import as witness. */
export function folderGraph(modules) {
  const graph = new Map();
  for (const module of modules) {
    const from = dirname(module.source);
    for (const dep of module.dependencies) {
      const to = dirname(dep.resolved);
      if (to === from || dep.coreModule || dep.couldNotResolve) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, `${module.source} → ${dep.resolved}`);
    }
  }
  return graph;
}

/** The strongly connected groups of two or more folders (Tarjan), each a list of folder names. */
export function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = [];
    let w;
    do {
      w = stack.pop();
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** One error line per folder cycle, with the imports between its folders. */
export function folderCycleErrors(modules) {
  const graph = folderGraph(modules);
  return cycles(graph).map((group) => {
    const ties = group.flatMap((from) => [...(graph.get(from) ?? [])].filter(([to]) => group.includes(to)).map(([, witness]) => `      ${witness}`));
    return `  error no-own-folder-cycles: ${group.join(' ↔ ')} (a folder's own files and its subfolders import one way)\n${ties.join('\n')}`;
  });
}

async function main() {
  const packages = process.argv.length > 2 ? process.argv.slice(2) : PACKAGES;
  process.env.LINT_PACKAGES = packages.join(',');
  const roots = packages.map((p) => join(p, 'src')).filter((dir) => existsSync(dir));
  const options = await extractDepcruiseOptions(CONFIG);
  const { output } = await cruise(roots, options);
  const report = await format(output, { outputType: 'err' });
  const own = folderCycleErrors(output.modules);
  process.stdout.write(report.output);
  if (own.length > 0) process.stdout.write(`\n${own.join('\n\n')}\n\nx ${own.length} folder cycle(s) among folders' own files\n`);
  process.exitCode = report.exitCode > 0 || own.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
