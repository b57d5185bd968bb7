// No shared fate (issue #12): a hosted app that exhausts its heap in a way no CPU stop interrupts
// (`Array(1e9).fill(0)` fills inside a V8 builtin) takes down only its own worker, within about a
// second; the other apps' requests that had not entered guest code on that worker run again on a
// healthy worker and succeed; the bomber's version is quarantined, so its next bomb takes down only
// the quarantine worker and fails no other app's request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startRuntime, type TestRuntime } from '../runtime/support/runtime.ts';

const BOMBER = `export default { fetch(request) {
  if (new URL(request.url).pathname === '/bomb') Array(1e9).fill(0);
  return new Response('bomber ok');
} };`;
const VICTIM = (name: string) => `export default { fetch() { return new Response('${name} ok'); } };`;

let rt: TestRuntime;

async function metric(pattern: RegExp): Promise<number> {
  const m = pattern.exec(await (await fetch(rt.metricsUrl)).text());
  return m === null ? 0 : Number(m[1]);
}

/** Keeps `n` requests in flight to each victim while `during` runs; returns every answer. */
async function whileCalling<T>(during: () => Promise<T>, n = 4): Promise<{ result: T; answers: string[] }> {
  let running = true;
  const answers: string[] = [];
  const loops = ['bee', 'sea'].flatMap((slug) => Array.from({ length: n }, async () => {
    while (running) {
      const res = await rt.route(slug, '/').catch((err: unknown) => ({ status: 0, text: async () => String(err) }) as Response);
      answers.push(`${res.status} ${await res.text()}`);
    }
  }));
  try {
    return { result: await during(), answers };
  } finally {
    running = false;
    await Promise.all(loops);
  }
}

beforeAll(async () => {
  // One ordinary worker: every victim request sent while the bomb runs waits on the bomb's worker.
  rt = await startRuntime({ RUNTIME_WORKERS: '1', RUNTIME_SPARE_WORKERS: '1' });
  await rt.deploy('bomber', BOMBER);
  await rt.deploy('bee', VICTIM('bee'));
  await rt.deploy('sea', VICTIM('sea'));
  for (const slug of ['bomber', 'bee', 'sea']) await rt.route(slug, '/');
});
afterAll(() => rt?.stop());

describe('a heap bomb', () => {
  it('ends its worker (not left to hang); victims queued behind it run again elsewhere and succeed', { timeout: 60_000 }, async () => {
    const before = rt.node.supervisor!.load()[0]!.pid;
    const sparePid = await eventually(() => rt.node.supervisor!.processes().find((p) => p.role === 'spare' && p.ready)?.pid ?? undefined, 20_000);
    const { result, answers } = await whileCalling(async () => {
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const res = await rt.route('bomber', '/bomb');
      return { status: res.status, body: await res.json() as { _tag: string }, ms: Date.now() - started };
    });
    expect(result.status).toBe(503);
    expect(['PlatformRuntimeCpuLimitError', 'PlatformRuntimeMemoryLimitError']).toContain(result.body._tag);
    // About a second on a quiet machine; the bound only tells an ended bomb from one left to run
    // (how fast is a bench figure, not a test's).
    expect(result.ms).toBeLessThan(15_000);
    expect(answers.filter((a) => !a.endsWith(' ok'))).toEqual([]);
    expect(answers.length).toBeGreaterThan(10);
    // Some victim requests were waiting on the dying worker and ran again: none failed.
    expect(await metric(/runtime_requests_retried_total (\d+)/)).toBeGreaterThan(0);
    const after = await eventually(() => { const w = rt.node.supervisor!.load()[0]!; return w.ready && w.pid !== before ? w : undefined; });
    expect(after.pid).not.toBe(before);
    // The bomber's version is in quarantine; its author reads why.
    expect(await metric(/runtime_quarantined_versions (\d+)/)).toBe(1);
    // The spare that was already running took the dead worker's place: the victims' requests that
    // ran again waited for no process start.
    expect(after.pid).toBe(sparePid);
    const log = await rt.client.appLogs('app_bomber');
    expect(log.some((l) => l.level === 'limit' && /runs on the quarantine worker/.test(l.message))).toBe(true);
    expect(await (await rt.route('bomber', '/')).text()).toBe('bomber ok');
  });

  it('a second bomb from the quarantined version takes down only the quarantine worker and fails no victim request', { timeout: 60_000 }, async () => {
    const ordinary = rt.node.supervisor!.load()[0]!.pid;
    const { result, answers } = await whileCalling(async () => {
      await new Promise((r) => setTimeout(r, 200));
      return (await rt.route('bomber', '/bomb')).status;
    });
    expect(result).toBe(503);
    expect(answers.filter((a) => !a.endsWith(' ok'))).toEqual([]);
    expect(rt.node.supervisor!.load()[0]!.pid).toBe(ordinary);
    expect(await metric(/runtime_worker_restarts_total\{reason="\w+"\} (\d+)/)).toBeGreaterThan(0);
    expect(await (await rt.route('bomber', '/')).text()).toBe('bomber ok');
  });
});
