// A request under the CPU profiler is stopped within the same bound as any other (issue 26): a
// runtime node started as `npm start` would (main.ts, two workers), both cores kept busy by two other
// processes, a version whose isolate holds much compiled code (what V8's profiler logs on every entry
// into the isolate: ~7 ms a later entry, twice that the first). Each version's first runaway is stopped
// at its 50 ms budget; the next request of the version runs under the profiler (supervisor/profiles.ts),
// is stopped too, and its profile rides on its limit line. Both stops count the guest's CPU: at or just
// past 50 ms, not 50 plus what the profiler cost (67–77 ms before the fix, 84 ms in the attack run).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeClient, type RuntimeClient, type RuntimeDeliveryRequest } from '@platform/runtime';
import type { AppLogEntry } from '../../runtime/src/logs/app-log.ts';
import { SECRET, fixture, sha256, signedHeaders, startServer, type TestServer } from './support/runtime.ts';

const MAIN = fileURLToPath(new URL('../../runtime/src/main.ts', import.meta.url));
const VERSIONS = 8;

// Many small functions, each run once at the top level: the isolate holds much compiled code.
const padding = Array.from({ length: 3000 }, (_, i) => `function f${i}(a) { return a * ${i} + ${i % 7}; } f${i}(${i});`).join('\n');
const source = `${padding}\n${fixture('spin')}`;
const sha = sha256(source);

let node: ChildProcess;
const hogs: ChildProcess[] = [];
let client: RuntimeClient;
let dataDir: string;
let controlPlane: TestServer;
const shipped: Array<AppLogEntry & { profile?: string }> = [];

function delivery(id: string, version: number): RuntimeDeliveryRequest {
  const body = JSON.stringify({ id, type: 'block.action', data: { n: 1e12 } });
  return {
    app: { id: 'app_spin', slug: 'spin', version }, bundle: { sha256: sha }, target: 'production', baseUrl: 'http://127.0.0.1:9',
    kind: 'interactive', headers: signedHeaders(id, body, 'interactive', 'ins_1'), body,
  };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'runtime-profiled-'));
  // A stand-in control plane that records the shipped log lines (profiles ride on them).
  controlPlane = await startServer((req, res, body) => {
    if (req.url === '/internal/v1/logs') {
      shipped.push(...(JSON.parse(body) as { lines: typeof shipped }).lines);
      return void res.writeHead(204).end();
    }
    res.writeHead(404).end();
  });
  node = spawn(process.execPath, ['--no-node-snapshot', '--conditions=source', MAIN], {
    env: {
      PATH: process.env.PATH, RUNTIME_SECRET: SECRET, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_WORKERS: '2', RUNTIME_DATA_DIR: dataDir,
      CONTROL_PLANE_URL: controlPlane.url, RUNTIME_LOG_FLUSH_MS: '20', LOG_LEVEL: 'info',
    },
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
}, 60_000);

afterAll(async () => {
  for (const hog of hogs) hog.kill('SIGKILL');
  if (node !== undefined && node.exitCode === null) {
    node.kill('SIGTERM');
    await new Promise((r) => node.once('exit', r));
  }
  await controlPlane?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a profiled request on two busy cores', () => {
  it('is stopped at its 50 ms budget of the guest\'s CPU, as the unprofiled one before it', { timeout: 120_000 }, async () => {
    for (let i = 0; i < 2; i++) hogs.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    const plain: number[] = [];
    const profiled: number[] = [];
    for (let version = 1; version <= VERSIONS; version++) {
      const first = await client.deliver(delivery(`plain-${version}`, version));
      const second = await client.deliver(delivery(`profiled-${version}`, version));
      for (const r of [first, second]) expect(r.outcome).toBe('cpu_limit');
      plain.push(first.cpuMs!);
      profiled.push(second.cpuMs!);
    }
    // Every profiled request was profiled: its profile is on its limit line, and shows the guest spinning.
    await expect.poll(() => shipped.filter((l) => l.level === 'limit' && l.profile !== undefined).length, { timeout: 10_000 }).toBe(VERSIONS);
    for (const line of shipped.filter((l) => l.profile !== undefined)) {
      expect(line.deliveryId).toMatch(/^profiled-/);
      const profile = JSON.parse(line.profile!) as { nodes: Array<{ callFrame: { functionName: string } }> };
      expect(profile.nodes.some((n) => n.callFrame.functionName === 'spin')).toBe(true);
    }
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    for (const stops of [plain, profiled]) {
      // Never before the budget; at most one stop of eight past 55 ms (p99 ≤ 55 is the bench's
      // figure, on a quiet machine), and none near twice the budget.
      expect(sorted(stops)[0]).toBeGreaterThanOrEqual(50);
      expect(sorted(stops)[VERSIONS - 2], JSON.stringify({ plain, profiled })).toBeLessThanOrEqual(55);
      expect(sorted(stops)[VERSIONS - 1]).toBeLessThan(100);
    }
  });
});
