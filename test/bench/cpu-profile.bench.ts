/**
 * What CPU profiling costs a profiled request (issue 14 item 2): isolated-vm starts V8's profiler
 * on every entry into a profiled isolate and logs the isolate's code first. Measured here as the
 * CPU of an empty entry with and without the profiler open, in an isolate that evaluated the e2e
 * logs app (an SDK app bundled with esbuild, ~1 MB unminified) — the same measure the runtime
 * takes before a profiled request and adds to its budget (runtime/src/sandbox/profile.ts). Only the
 * next request of a version stopped at its budget is profiled, at most once a minute per version;
 * every other request pays nothing. `npm run bench -- cpu-profile` runs this alone.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { loadIvm } from '../../runtime/src/sandbox/ivm.ts';
import type { BenchRow } from './run.ts';

const ROUNDS = 20;

export async function run(): Promise<BenchRow[]> {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/e2e/logs-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  const source = bundled.outputFiles[0]!.text;
  const ivm = loadIvm();
  const isolate = new ivm.Isolate({ memoryLimit: 128 });
  try {
    const context = isolate.createContextSync();
    // The bundle's top level reaches for a few web globals the runtime's guest side provides; stand-ins do here.
    context.evalSync('globalThis.TextEncoder = class { encode() { return new Uint8Array(0); } }; globalThis.TextDecoder = class { decode() { return ""; } };');
    const module = isolate.compileModuleSync(source, { filename: 'app:///bundle.js' });
    module.instantiateSync(context, () => { throw new Error('no imports'); });
    module.evaluateSync();
    const entryCpuMs = (): number => {
      const before = isolate.cpuTime;
      context.evalSync('undefined');
      return Number(isolate.cpuTime - before) / 1e6;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const plain = median(Array.from({ length: ROUNDS }, entryCpuMs));
    isolate.startCpuProfiler('bench');
    const profiled = median(Array.from({ length: ROUNDS }, entryCpuMs));
    await isolate.stopCpuProfiler('bench');
    return [
      { name: 'empty entry into an isolate, CPU', value: plain, unit: 'ms', target: '–', ratio: null },
      { name: 'empty entry under the CPU profiler (added to a profiled request\'s budget per entry)', value: profiled, unit: 'ms', target: '–', ratio: null },
    ];
  } finally {
    isolate.dispose();
  }
}
