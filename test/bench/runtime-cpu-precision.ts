/**
 * CPU-budget precision: how much CPU a runaway loop gets before it is stopped, as the runtime
 * measured it (guest CPU up to the moment its isolate was disposed), p50 and p99 over 100 runs,
 * for the 50 ms budget (an interactive delivery) and the 200 ms budget (an MCP request). Targets:
 * p99 ≤ 55 ms and ≤ 210 ms.
 */
import { type BenchRow, type RuntimeProcess, percentile, sha256Hex, signedDelivery, spawnRuntime } from './runtime-support.ts';

const RUNAWAY = 'export default { fetch() { let x = 0; for (;;) { x = (x * 31 + 7) % 1000003; } } };\n';
const RUNS = 100;

async function runaway(rt: RuntimeProcess, sha: string, kind: 'interactive' | 'mcp'): Promise<number[]> {
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await rt.client.deliver({
      app: { id: `app_runaway_${kind}`, slug: 'runaway', version: 1 }, bundle: { sha256: sha }, target: 'production', baseUrl: 'https://platform.example',
      ...signedDelivery(kind === 'mcp' ? { jsonrpc: '2.0', id: i, method: 'tools/call' } : { id: `dlv_${i}`, data: {} }, kind),
    });
    if (r.outcome !== 'cpu_limit' || r.cpuMs === null) throw new Error(`expected a CPU stop, got ${r.outcome}: ${r.text()}`);
    cpu.push(r.cpuMs);
  }
  return cpu;
}

export async function run(): Promise<BenchRow[]> {
  const rt = await spawnRuntime({ RUNTIME_WORKERS: '1' });
  try {
    const sha = sha256Hex(RUNAWAY);
    await rt.client.putBundle(sha, new TextEncoder().encode(RUNAWAY));
    const fifty = await runaway(rt, sha, 'interactive');
    const twoHundred = await runaway(rt, sha, 'mcp');
    const p99a = percentile(fifty, 99);
    const p99b = percentile(twoHundred, 99);
    return [
      { name: 'runaway CPU at 50 ms budget, p50', value: percentile(fifty, 50), unit: 'ms', target: 'info', ratio: null },
      { name: 'runaway CPU at 50 ms budget, p99', value: p99a, unit: 'ms', target: '≤ 55 ms', ratio: 55 / p99a },
      { name: 'runaway CPU at 200 ms budget (MCP), p50', value: percentile(twoHundred, 50), unit: 'ms', target: 'info', ratio: null },
      { name: 'runaway CPU at 200 ms budget (MCP), p99', value: p99b, unit: 'ms', target: '≤ 210 ms', ratio: 210 / p99b },
    ];
  } finally {
    await rt.stop();
  }
}
