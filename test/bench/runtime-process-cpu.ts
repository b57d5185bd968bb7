/**
 * CPU each process of a running node spends, read from /proc around a load window (no `run()`:
 * the bench runner skips this file). A process tree (the node and its children: the supervisor,
 * sandbox workers, a control plane's runtime child) is named by what each process runs, and the
 * load generator (this bench process) is read with `process.cpuUsage()`. Linux only; elsewhere
 * the rows say the figure is not measured.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { BenchRow } from './runtime-support.ts';

/** USER_HZ, the unit of utime/stime in /proc/<pid>/stat: 100 on every Linux ABI Node runs on. */
const TICKS_PER_SECOND = 100;

function childrenOf(pid: number): number[] {
  try {
    const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return tasks === '' ? [] : tasks.split(/\s+/).map(Number);
  } catch {
    return [];
  }
}

/** `root` and every process below it. */
function tree(root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...childrenOf(out[i]!));
  return out;
}

/** CPU milliseconds (user + system, every thread) of `pid` so far, null once it is gone. */
function cpuMsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
  } catch {
    return null;
  }
}

/** What a process of the platform is, from its command line. */
function labelOf(pid: number): string {
  let cmd = '';
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return `pid ${pid}`;
  }
  if (cmd.includes('main-all.ts')) return 'control plane (npm start)';
  if (cmd.includes('runtime/src/main.ts')) return 'runtime supervisor';
  if (cmd.includes('sandbox-worker') || cmd.includes('worker-main')) return 'sandbox worker';
  return cmd.split(' ')[0]?.split('/').pop() ?? `pid ${pid}`;
}

export interface CpuWindow {
  /** Ends the window: CPU µs per request of each process (workers one row each), and the load generator's. */
  end(requests: number): Array<{ label: string; usPerRequest: number }>;
}

/** Starts a window over the process tree of `root` (read again at the end: workers may have started). */
export function cpuWindow(root: number): CpuWindow {
  const before = new Map(tree(root).map((pid) => [pid, cpuMsOf(pid) ?? 0]));
  const self = process.cpuUsage();
  return {
    end(requests) {
      const selfUs = process.cpuUsage(self);
      const rows = tree(root).map((pid) => {
        const used = (cpuMsOf(pid) ?? 0) - (before.get(pid) ?? 0);
        return { label: labelOf(pid), usPerRequest: (used * 1000) / Math.max(1, requests) };
      });
      const workers = rows.filter((r) => r.label === 'sandbox worker').sort((a, b) => b.usPerRequest - a.usPerRequest);
      workers.forEach((w, i) => (w.label = `sandbox worker ${i + 1}`));
      // Processes that spent nothing in the window (a spare worker, esbuild's idle service) are left out.
      const busy = rows.filter((r) => r.usPerRequest > 0);
      const total = busy.reduce((sum, r) => sum + r.usPerRequest, 0);
      return [...busy, { label: 'all server processes', usPerRequest: total }, { label: 'load generator (bench process)', usPerRequest: (selfUs.user + selfUs.system) / Math.max(1, requests) }];
    },
  };
}

/** Bench rows for a window's figures, named after the row they belong to. */
export function cpuRows(row: string, figures: Array<{ label: string; usPerRequest: number }>): BenchRow[] {
  return figures.map((f) => ({ name: `${row}: CPU per request, ${f.label}`, value: f.usPerRequest, unit: 'µs', target: 'info', ratio: null }));
}

/** The machine's 1-minute load average now (taken before a row's load starts). */
export function loadNow(): number {
  return loadavg()[0]!;
}

/** The load average taken before `row`'s figures, as a row of its own. */
export function loadRow(row: string, value: number): BenchRow {
  return { name: `load average (1 min) before ${row}`, value, unit: '', target: 'info (quiet: < 0.3)', ratio: null };
}
