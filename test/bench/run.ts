/**
 * Benchmark runner (`npm run bench`): runs every `test/bench/*.bench.ts` module's `run()` in one
 * process, one after another (this machine has 2 cores; benchmarks must not compete), and prints one
 * table of figures with their targets and the ratio measured in this same run.
 * Not part of CI's pass/fail: machines here are shared and noisy.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** Human-readable target, e.g. "≤ 1 ms" or "≥ 1.5× workerd". */
  target: string;
  /** value relative to the target (≥ 1 means the target is met), or null when not comparable. */
  ratio: number | null;
}

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') || /^runtime.*\.ts$/.test(f))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const rows: Array<BenchRow & { suite: string }> = [];
for (const file of files) {
  const suite = file.replace(/(\.bench)?\.ts$/, '');
  process.stdout.write(`running ${suite} …\n`);
  try {
    const mod = (await import(pathToFileURL(dir + file).href)) as { run?: () => Promise<BenchRow[]> };
    if (typeof mod.run !== 'function') continue;
    for (const row of await mod.run()) rows.push({ suite, ...row });
  } catch (error) {
    process.stdout.write(`  ${suite} failed: ${(error as Error).stack ?? String(error)}\n`);
  }
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3));
const table = rows.map((r) => [r.suite, r.name, `${fmt(r.value)} ${r.unit}`, r.target, r.ratio === null ? '–' : `${r.ratio.toFixed(2)}×`, r.ratio === null ? '' : r.ratio >= 1 ? 'met' : 'MISSED']);
const head = ['suite', 'figure', 'measured', 'target', 'ratio', ''];
const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
process.stdout.write('\n' + line(head) + '\n' + widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
for (const r of table) process.stdout.write(line(r) + '\n');
process.exit(0);
