// Escaping the isolate: no path from guest code to process, require or any isolated-vm object;
// traps in returned values and thrown values reach nothing of the host. Throughout, the node keeps
// serving a neighbour app on the same (single) worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogError } from '@platform/sdk';
import { fixture, startRuntime, whileServing, type TestRuntime } from '../runtime/support/runtime.ts';

let rt: TestRuntime;

beforeAll(async () => {
  rt = await startRuntime({ RUNTIME_WORKERS: '1' });
  await rt.deploy('hostile', fixture('hostile'));
  await rt.deploy('neighbour', fixture('neighbour'));
});
afterAll(() => rt?.stop());

async function attack(path: string): Promise<{ status: number; body: string; requestId: string | null }> {
  const { result, served, failed } = await whileServing(rt, 'neighbour', async () => {
    const res = await rt.route('hostile', path);
    return { status: res.status, body: await res.text(), requestId: res.headers.get('x-request-id') };
  });
  expect(failed).toEqual([]);
  expect(served).toBeGreaterThan(0);
  return result;
}

async function logOf(requestId: string | null): Promise<Array<{ level: string; message: string; error?: LogError }>> {
  return (await rt.client.appLogs('app_hostile')).filter((l) => l.requestId === requestId);
}

describe('constructor walks and reachable objects', () => {
  it('finds no process, require, module loader or isolated-vm object', async () => {
    const { status, body } = await attack('/walk');
    expect(status).toBe(200);
    const out = JSON.parse(body);
    expect(out.attempts).toEqual({
      functionCtor: 'undefined/undefined',
      globalViaFunction: true,
      fetchCtor: 'undefined',
      responseCtor: 'undefined',
      errorCtor: 'undefined',
      importMeta: 'object',
    });
    expect(out.dynamicImport).toMatch(/^refused/);
    expect(out.reach.visited).toBeGreaterThan(100);
    expect(out.reach.found).toEqual([]);
    // Call sites expose no host receivers or functions (the guest runtime is strict code).
    expect(out.frames.length).toBeGreaterThan(0);
    for (const frame of out.frames) expect([frame.self, frame.fn]).toEqual(['undefined', 'undefined']);
    expect(out.globals).not.toContain('WebAssembly');
    expect(out.globals).not.toContain('SharedArrayBuffer');
    expect(out.globals.filter((g: string) => /ivm|isolated|__platform/i.test(g))).toEqual([]);
  });
});

describe('traps in returned values', () => {
  it.each(['/getter-response', '/proxy-response'])('%s is refused: only a real Response is read', async (path) => {
    const { status, body } = await attack(path);
    expect(status).toBe(500);
    expect(JSON.parse(body)._tag).toBe('PlatformRuntimeGuestError');
  });

  it('a Response subclass is read from its private state: its trapping getters never run', async () => {
    const { status, body } = await attack('/subclass-response');
    expect(status).toBe(201);
    expect(body).toBe('sneaky body');
  });
});

describe('thrown values', () => {
  it('throw null is a guest error', async () => {
    const { status, body, requestId } = await attack('/throw-null');
    expect(status).toBe(500);
    expect(JSON.parse(body)._tag).toBe('PlatformRuntimeGuestError');
    expect((await logOf(requestId)).some((l) => l.level === 'error' && l.message === 'null')).toBe(true);
  });

  it('a huge message is cut before it leaves the isolate', async () => {
    const { status, body, requestId } = await attack('/throw-huge');
    expect(status, body).toBe(500);
    const lines = await logOf(requestId);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l.message.length).toBeLessThan(12_000);
  });

  it('a forged stack stays the app\'s own text: logged for the author, never in the answer', async () => {
    const { status, body, requestId } = await attack('/throw-forged');
    expect(status).toBe(500);
    expect(body).not.toContain('supervisor');
    expect(JSON.parse(body)).toEqual({ _tag: 'PlatformRuntimeGuestError', message: 'The app threw an error while handling the request; see the app log', path: [] });
    // The line's error is the thrown object's name and message; its stack text, forged frames and all,
    // is parsed as the app's own frames (nothing of it is trusted, nothing of it reaches the answer).
    const line = (await logOf(requestId)).find((l) => l.level === 'error');
    expect(line?.message).toBe('Error: forged');
    expect(line?.error).toEqual({ name: 'Error', message: 'forged', frames: [{ function: 'supervisor', file: '/work/main/runtime/src/supervisor/supervisor.ts', line: 1, column: 1, raw: null }] });
  });

  it('thrown proxies and getters that trap or spin do not escape their request', async () => {
    expect((await attack('/throw-trap')).status).toBe(500);
    const spinning = await attack('/throw-getter');
    expect(spinning.status).toBe(503);
    expect(JSON.parse(spinning.body)._tag).toBe('PlatformRuntimeCpuLimitError');
  });
});
