// Isolate pools: one request per isolate, so a version grows under concurrency up to the pool cap;
// warm isolates are reused; idle ones are disposed; past the worker's heap budget the least
// recently used idle ones give way. Observed through the node's own metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, fixture, startRuntime, type TestRuntime } from './support/runtime.ts';

async function metric(rt: TestRuntime, pattern: RegExp): Promise<number> {
  const m = pattern.exec(await (await fetch(rt.metricsUrl)).text());
  return m === null ? 0 : Number(m[1]);
}
const coldStarts = (rt: TestRuntime, app: string) => metric(rt, new RegExp(`runtime_cold_starts_total\\{app="${app}"\\} (\\d+)`));

describe('growing and reusing', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startRuntime({ RUNTIME_WORKERS: '1', RUNTIME_POOL_MAX: '2', RUNTIME_ISOLATE_IDLE_MS: '1000' });
    await rt.deploy('slow', fixture('slow'));
  });
  afterAll(() => rt?.stop());

  it('starts a second isolate for a concurrent request, then reuses both warm', async () => {
    await Promise.all([rt.route('slow', '/?ms=200'), rt.route('slow', '/?ms=200')]);
    expect(await coldStarts(rt, 'app_slow')).toBe(2);
    await Promise.all([rt.route('slow', '/?ms=50'), rt.route('slow', '/?ms=50')]);
    expect(await coldStarts(rt, 'app_slow')).toBe(2);
  });

  it('queues past the pool cap instead of starting more isolates', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => rt.route('slow', '/?ms=100')));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await coldStarts(rt, 'app_slow')).toBe(2);
  });

  it('disposes idle isolates, so the next request starts cold', async () => {
    // The worker reports live isolates every 2 s; with the pool swept only the spare remains.
    await eventually(async () => ((await metric(rt, /runtime_isolates_live\{worker="0"\} (\d+)/)) === 1 ? true : undefined), 15_000);
    await rt.route('slow', '/');
    expect(await coldStarts(rt, 'app_slow')).toBe(3);
  });

  it('records CPU per request by app and kind, and cold start durations', async () => {
    expect(await metric(rt, /runtime_request_cpu_seconds_count\{app="app_slow",kind="route"\} (\d+)/)).toBeGreaterThan(5);
    expect(await metric(rt, /runtime_requests_total\{app="app_slow",kind="route",outcome="ok"\} (\d+)/)).toBeGreaterThan(5);
    expect(await metric(rt, /runtime_cold_start_seconds_count (\d+)/)).toBe(3);
  });
});

describe('the worker heap budget', () => {
  let rt: TestRuntime;
  const heavy = (tag: string) => `const ballast = Array.from({ length: 400000 }, (_, i) => ({ i, tag: ${JSON.stringify(tag)} }));
export default { fetch() { return new Response(String(ballast.length)); } };`;
  beforeAll(async () => {
    rt = await startRuntime({ RUNTIME_WORKERS: '1', RUNTIME_WORKER_ISOLATE_BUDGET_MB: '40' });
    for (const name of ['one', 'two', 'three']) await rt.deploy(name, heavy(name));
  });
  afterAll(() => rt?.stop());

  it('evicts the least recently used idle isolates when their heaps pass the budget', async () => {
    for (const name of ['one', 'two', 'three']) expect(await (await rt.route(name, '/')).text()).toBe('400000');
    // Each holds roughly 20 MB: 'one', least recently used, had to go; 'three' is still warm.
    await rt.route('three', '/');
    expect(await coldStarts(rt, 'app_three')).toBe(1);
    await rt.route('one', '/');
    expect(await coldStarts(rt, 'app_one')).toBe(2);
  });
});
