// The CPU budget counts CPU, not wall time (DESIGN §4.4, the known isolated-vm trap): a runtime node
// started as `npm start` would (main.ts), pinned with its workers to one core that a busy process
// also wants, runs two ~40 ms requests at once: both pass the 50 ms budget although each takes far
// longer than 50 ms of wall time; a ~60 ms request fails it, with the guest's stack in the app log.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeClient, type RuntimeClient, type RuntimeDeliveryRequest } from '@platform/runtime';
import { SECRET, fixture, sha256, signedHeaders } from './support/runtime.ts';

const MAIN = fileURLToPath(new URL('../../runtime/src/main.ts', import.meta.url));
const CORE = '0';

let node: ChildProcess;
let hog: ChildProcess;
let client: RuntimeClient;
let dataDir: string;
const source = fixture('spin');
const sha = sha256(source);

function delivery(n: number, id: string): RuntimeDeliveryRequest {
  const body = JSON.stringify({ id, type: 'block.action', data: { n } });
  return {
    app: { id: 'app_spin', slug: 'spin', version: 1 }, bundle: { sha256: sha }, target: 'production', baseUrl: 'http://127.0.0.1:9',
    kind: 'interactive', headers: signedHeaders(id, body, 'interactive', 'ins_1'), body,
  };
}

async function cpuOf(n: number, id: string): Promise<number> {
  const r = await client.deliver(delivery(n, id));
  expect(r.outcome).toBe('ok');
  return r.cpuMs!;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'runtime-cpu-'));
  node = spawn('taskset', ['-c', CORE, process.execPath, '--no-node-snapshot', '--conditions=source', MAIN], {
    env: { PATH: process.env.PATH, RUNTIME_SECRET: SECRET, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_WORKERS: '2', RUNTIME_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    node.once('exit', (code) => reject(new Error(`runtime exited with ${code}`)));
    createInterface({ input: node.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as { url?: string };
      if (entry.url !== undefined) resolve(entry.url);
    });
  });
  client = createRuntimeClient({ url, secret: SECRET });
  await client.putBundle(sha, new TextEncoder().encode(source));
  // Two requests at once land on the two workers: warm both so that their JIT state is alike.
  for (let i = 0; i < 4; i++) await Promise.all([cpuOf(2_000_000, `warm-a${i}`), cpuOf(2_000_000, `warm-b${i}`)]);
}, 60_000);

afterAll(async () => {
  hog?.kill('SIGKILL');
  if (node !== undefined && node.exitCode === null) {
    node.kill('SIGTERM');
    await new Promise((r) => node.once('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('CPU budget on one contended core', () => {
  it('passes two ~40 ms requests run at once and stops a ~60 ms one', async () => {
    // Iterations per CPU millisecond, measured through the runtime itself on both workers.
    const probe = 2_000_000;
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) {
      const pair = await Promise.all([cpuOf(probe, `cal-a${i}`), cpuOf(probe, `cal-b${i}`)]);
      samples.push(...pair.map((ms) => probe / ms));
    }
    const perMs = samples.sort((a, b) => a - b)[3]!;

    // Now make the core busy: a process spinning on the same core takes its share of it.
    hog = spawn('taskset', ['-c', CORE, process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' });
    const started = Date.now();
    const [a, b] = await Promise.all([client.deliver(delivery(Math.round(perMs * 40), 'forty-a')), client.deliver(delivery(Math.round(perMs * 40), 'forty-b'))]);
    const wallMs = Date.now() - started;
    for (const r of [a, b]) {
      expect(r.outcome).toBe('ok');
      expect(r.status).toBe(200);
      expect(r.cpuMs!).toBeGreaterThan(30);
      expect(r.cpuMs!).toBeLessThan(50);
    }
    // Three tasks shared one core: wall time of the pair far exceeds one budget. A wall-clock
    // "CPU" meter (isolated-vm's cpuTime as shipped) would have stopped both.
    expect(wallMs).toBeGreaterThan(50);

    hog.kill('SIGKILL');
    const over = await client.deliver(delivery(Math.round(perMs * 60), 'sixty'));
    expect(over.outcome).toBe('cpu_limit');
    expect(over.status).toBe(503);
    expect(over.error).toMatchObject({ _tag: 'PlatformRuntimeCpuLimitError', limitMs: 50 });
    const logs = await client.appLogs('app_spin');
    const limit = logs.find((l) => l.deliveryId === 'sixty' && l.level === 'limit');
    expect(limit?.message).toMatch(/used more than its 50 ms CPU budget and was stopped\./);
    expect(limit?.error?.frames[0]).toMatchObject({ function: 'spin', file: 'app:///bundle.js', line: expect.any(Number), column: expect.any(Number) });
  });
});
