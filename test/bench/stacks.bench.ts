/**
 * What mapping stacks costs a sandbox worker (runtime/src/stacks/): the README's first app (the SDK
 * and zod, minified) built as `platform deploy` builds it, its uploaded map parsed and decoded the
 * first time one of its stacks is mapped (once per version per worker), then one error's frames
 * mapped (every later stack). Requests that log no error pay nothing. Targets: the first parse well
 * under a second, a stack well under a millisecond (it happens after the request's answer left).
 * `npm run bench -- stacks` runs this alone.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle } from '../../cli/src/bundle.ts';
import { toLogError } from '../../runtime/src/stacks/map.ts';
import { createSourceMaps } from '../../runtime/src/stacks/source-maps.ts';
import type { BenchRow } from './run.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** A stack of ten frames at positions spread over the bundle's first line. */
function stackOver(length: number): string {
  const frames = Array.from({ length: 10 }, (_, i) => `    at f${i} (app:///bundle.js:1:${1 + Math.floor((length / 11) * (i + 1))})`);
  return ['Error: boom', ...frames].join('\n');
}

export async function run(): Promise<BenchRow[]> {
  execFileSync(process.execPath, [join(REPO, 'scripts/build-packages.mjs')], { stdio: 'inherit' });
  const dir = await mkdtemp(join(tmpdir(), 'platform-bench-stacks-'));
  try {
    await cp(join(REPO, 'test/fixtures/cli/hello/app.ts'), join(dir, 'app.ts'));
    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const bundle = await buildBundle({ entry: 'app.ts', cwd: dir });
    const mapPath = join(dir, 'uploaded.map');
    await writeFile(mapPath, bundle.sourceMap);
    const firstLine = new TextDecoder().decode(bundle.code).split('\n')[0]!.length;
    const stack = { name: 'Error', message: 'boom', stack: stackOver(firstLine) };

    // The first stack of a version in a fresh worker: read, parse, decode, map (a few runs, best kept).
    let first = Infinity;
    for (let i = 0; i < 5; i++) {
      const maps = createSourceMaps();
      const t = performance.now();
      const loaded = maps.get(mapPath);
      if (loaded?.ok !== true) throw new Error('the map did not load');
      toLogError(stack, loaded.map);
      first = Math.min(first, performance.now() - t);
    }
    const maps = createSourceMaps();
    const loaded = maps.get(mapPath);
    if (loaded?.ok !== true) throw new Error('the map did not load');
    const n = 2_000;
    const t = performance.now();
    for (let i = 0; i < n; i++) toLogError(stack, loaded.map);
    const perStackUs = ((performance.now() - t) / n) * 1000;
    return [
      { name: `first stack of a version in a worker (map of ${Math.round(bundle.sourceMap.byteLength / 1024)} KB: parse, decode, map 10 frames)`, value: first, unit: 'ms', target: '≤ 250 ms', ratio: 250 / first },
      { name: 'each later stack (10 frames mapped)', value: perStackUs, unit: 'µs', target: '≤ 1000 µs', ratio: 1000 / perStackUs },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
