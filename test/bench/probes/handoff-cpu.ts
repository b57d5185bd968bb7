// Probe (issue 24, item 2): server CPU per warm trivial route with and without connection hand-off.
// A runtime node in this process (2 workers, no spare), the load in a child process
// (handoff-load.cjs), so this process's own CPU is the supervisor's alone. Run interleaved, e.g.
//   for i in 1 2 3; do for m in off ingress; do node --no-node-snapshot --conditions=source \
//     test/bench/probes/handoff-cpu.ts $m 10000; done; done
// Prints µs of CPU per request: each worker (/proc/<pid>/stat), the supervisor (process.cpuUsage),
// their total, and the 1-minute load average before the window.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startRuntime } from '../../runtime/support/runtime.ts';

const mode = process.argv[2] ?? 'off';
const total = Number(process.argv[3] ?? 10_000);
const CONNECTIONS = 10;

const load = (port: number, n: number): Promise<unknown> => new Promise((resolve) => {
  spawn(process.execPath, [new URL('./handoff-load.cjs', import.meta.url).pathname, String(port), String(n), String(CONNECTIONS)], { stdio: 'inherit' }).once('exit', resolve);
});
/** User + system CPU of a process, in clock ticks (USER_HZ 100). */
const ticks = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

const rt = await startRuntime({ RUNTIME_WORKERS: '2', RUNTIME_SPARE_WORKERS: '0', ...(mode === 'ingress' ? { RUNTIME_HANDOFF: 'ingress' } : {}) });
try {
  await rt.deploy('hot', `export default { fetch() { return new Response('ok'); } };`);
  const port = Number(new URL(rt.url).port);
  await load(port, 2_000);
  const pids = rt.node.supervisor!.load().flatMap((w) => (w.pid === null ? [] : [w.pid]));
  const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  const before = pids.map(ticks);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await load(port, total);
  const seconds = (performance.now() - started) / 1000;
  const workers = pids.map((pid, i) => Math.round(((ticks(pid) - before[i]!) * 10_000) / total));
  const self = process.cpuUsage(cpu);
  const supervisor = Math.round((self.user + self.system) / total);
  const sum = workers.reduce((a, b) => a + b, 0);
  console.log(JSON.stringify({ mode, loadAverage, rps: Math.round(total / seconds), workers, supervisor, total: supervisor + sum }));
} finally {
  await rt.stop();
}
