// Guest code that never yields or never stops growing: each is stopped with a tagged error (the
// isolate is disposed and replaced), logged for the app's author, and the neighbour app on the same
// single worker is served throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, startRuntime, whileServing, type TestRuntime } from '../runtime/support/runtime.ts';

let rt: TestRuntime;

beforeAll(async () => {
  rt = await startRuntime({ RUNTIME_WORKERS: '1', RUNTIME_ISOLATE_MEMORY_MB: '64' });
  await rt.deploy('hostile', fixture('hostile'));
  await rt.deploy('neighbour', fixture('neighbour'));
});
afterAll(() => rt?.stop());

async function attack(path: string) {
  const { result, served, failed } = await whileServing(rt, 'neighbour', async () => {
    const res = await rt.route('hostile', path);
    return { status: res.status, body: await res.text(), requestId: res.headers.get('x-request-id') };
  });
  expect(failed).toEqual([]);
  expect(served).toBeGreaterThan(0);
  // The app itself is served again right after (a fresh isolate when the old one was disposed).
  expect(await (await rt.route('hostile', '/')).text()).toBe('hostile ok');
  const log = (await rt.client.appLogs('app_hostile')).filter((l) => l.requestId === result.requestId);
  return { ...result, tag: tagOf(result.body), log };
}

function tagOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { _tag?: string })._tag;
  } catch {
    return undefined;
  }
}

describe('CPU runaways', () => {
  it.each([
    ['an infinite loop in synchronous code', '/loop', 'fetch'],
    ['an infinite chain of microtasks', '/loop-microtask', 'again'],
    ['an infinite loop after an await', '/loop-after-await', 'fetch'],
    ['a catastrophic regular expression', '/regex', 'fetch'],
  ])('%s is stopped at the CPU budget with the guest\'s stack', async (_what, path, frame) => {
    const { status, tag, log } = await attack(path);
    expect(status).toBe(503);
    expect(tag).toBe('PlatformRuntimeCpuLimitError');
    const limit = log.find((l) => l.level === 'limit');
    expect(limit?.message).toMatch(/used more than its 50 ms CPU budget and was stopped/);
    // A stack is captured where V8 can interrupt (it may be skipped when the core is contended).
    if (limit?.error !== undefined) expect(limit.error.frames).toContainEqual(expect.objectContaining({ function: frame, file: 'app:///bundle.js' }));
  });
});

describe('blocking and growing', () => {
  it('Atomics.wait is not offered (it would block the worker without using CPU)', async () => {
    const { status, body } = await attack('/atomics-wait');
    expect(status).toBe(200);
    expect(body).toBe('refused: TypeError');
  });

  it('a heap bomb is stopped (V8 collects garbage hard near the heap limit, so the CPU budget usually ends it first)', async () => {
    const { status, tag, log } = await attack('/heap-bomb');
    expect(status).toBe(503);
    expect(['PlatformRuntimeCpuLimitError', 'PlatformRuntimeMemoryLimitError']).toContain(tag);
    expect(log.some((l) => l.level === 'limit')).toBe(true);
  });

  it('an ArrayBuffer bomb is refused by the isolate allocator', async () => {
    const { status, tag } = await attack('/buffer-bomb');
    expect([500, 503]).toContain(status);
    expect(['PlatformRuntimeGuestError', 'PlatformRuntimeMemoryLimitError']).toContain(tag);
  });

  it('deep recursion is a guest error, and the isolate keeps working', async () => {
    const { status, tag, log } = await attack('/recursion');
    expect(status).toBe(500);
    expect(tag).toBe('PlatformRuntimeGuestError');
    expect(log.some((l) => /Maximum call stack size exceeded/.test(l.message))).toBe(true);
  });
});

describe('the isolate memory limit', () => {
  let big: TestRuntime;
  beforeAll(async () => {
    // A CPU budget large enough for the heap to reach its limit first.
    big = await startRuntime({ RUNTIME_WORKERS: '1', RUNTIME_ISOLATE_MEMORY_MB: '32', RUNTIME_CPU_MS: '5000' });
    await big.deploy('hostile', fixture('hostile'));
    await big.deploy('neighbour', fixture('neighbour'));
  });
  afterAll(() => big?.stop());

  it('disposes the isolate of a heap bomb and reports memory_limit; the neighbour is served', async () => {
    const { result, failed, served } = await whileServing(big, 'neighbour', async () => {
      const res = await big.route('hostile', '/heap-bomb');
      return { status: res.status, tag: tagOf(await res.text()), requestId: res.headers.get('x-request-id') };
    });
    expect(failed).toEqual([]);
    expect(served).toBeGreaterThan(0);
    expect(result.status).toBe(503);
    expect(result.tag).toBe('PlatformRuntimeMemoryLimitError');
    const log = (await big.client.appLogs('app_hostile')).filter((l) => l.requestId === result.requestId);
    expect(log.some((l) => l.level === 'limit' && /out of memory/.test(l.message))).toBe(true);
    expect(await (await big.route('hostile', '/')).text()).toBe('hostile ok');
  });
});
