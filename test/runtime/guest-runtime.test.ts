// The web APIs inside an isolate, checked against Node's own implementations over a real request.
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, startRuntime, type TestRuntime } from './support/runtime.ts';

let rt: TestRuntime;
let out: Record<string, any>;

beforeAll(async () => {
  rt = await startRuntime();
  await rt.deploy('webapis', fixture('webapis'));
  await rt.deploy('basic', fixture('basic'), { env: { SECRET_TOKEN: 'hunter2-secret-value' }, secretEnvKeys: ['SECRET_TOKEN'] });
  const res = await rt.route('webapis', '/');
  expect(res.status).toBe(200);
  out = await res.json() as Record<string, any>;
});
afterAll(() => rt?.stop());

describe('guest web APIs', () => {
  it('URL and URLSearchParams follow the WHATWG parser', () => {
    const u = new URL('https://user:pw@Example.COM:8443/a/../b/./c?x=1&y=two+words#frag');
    expect(out.url).toEqual({ href: u.href, origin: u.origin, host: u.host, pathname: u.pathname, search: u.search, hash: u.hash, username: u.username });
    u.searchParams.append('z', 'ä &');
    u.pathname = '/changed path';
    expect(out.urlAfter).toBe(u.href);
    expect(out.relative).toBe(new URL('../up?q', 'https://h.example/a/b/c').href);
    expect(out.canParse).toEqual([false, true]);
    expect(out.params).toEqual({ all: ['1', '3'], str: 'a=1&a=3&b=2', size: 3, fromObject: 'k=v+w' });
  });

  it('TextEncoder/TextDecoder and base64 match Node', () => {
    expect(out.utf8).toEqual([...Buffer.from('héllo €𝄞')]);
    expect(out.decoded).toBe('héllo €𝄞');
    expect(out.fatal).toBe('TypeError');
    expect(out.base64).toEqual([btoa('hello\u00ff'), 'hello']);
  });

  it('structuredClone keeps types and cycles and refuses functions', () => {
    expect(out.clone).toEqual({ sameSelf: true, date: true, map: true, bytes: [1, 2], distinct: true });
    expect(out.cloneFn).toBe('DataCloneError');
  });

  it('AbortController and AbortSignal.timeout work', () => {
    expect(out.abort).toEqual([true, 'AbortError']);
    expect(out.timeoutSignal).toBe('TimeoutError');
  });

  it('crypto digests, HMAC and randomness match the host', () => {
    expect(out.digest).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(out.sha1).toBe(createHash('sha1').update('abc').digest('hex'));
    expect(out.hmac).toBe(createHmac('sha256', 'key').update('data').digest('hex'));
    expect(out.verify).toEqual([true, false]);
    expect(out.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(out.random).toBe(true);
    expect(out.tooMuchRandom).toBe('QuotaExceededError');
  });

  it('Headers, Request and Response behave like the Fetch standard', () => {
    expect(out.headers).toEqual({ get: '1, 2', cookies: ['a=1', 'b=2'], entries: [['set-cookie', 'a=1'], ['set-cookie', 'b=2'], ['x-a', '1, 2']] });
    expect(out.badHeader).toBe('TypeError');
    expect(out.request).toEqual({ method: 'POST', body: 'b', used: false, text: 'b', usedAfter: true });
    expect(out.response).toEqual({ status: 201, ok: true, type: 'application/json', json: { a: 1 } });
    expect(out.redirect).toBe('https://to.example/');
    expect(out.incoming).toEqual({ method: 'GET', hasUrl: true });
    expect(out.names).toEqual({ response: 'Response', request: 'Request', headers: 'Headers' });
  });

  it('offers queueMicrotask and nothing of Node, WebAssembly or blocking waits', () => {
    expect(out.microtask).toBe('ran');
    expect(out.missing).toEqual({ wasm: 'undefined', wait: 'undefined', finalization: 'undefined', process: 'undefined', require: 'undefined' });
  });
});

describe('timers and console', () => {
  it('runs timers after microtasks and never fires a cleared one', async () => {
    const res = await rt.route('basic', '/timer?ms=15');
    expect(await res.json()).toEqual({ order: ['microtask', 'timer'] });
    const logs = await rt.client.appLogs('app_basic');
    expect(logs.some((l) => l.message.includes('cancelled timer fired'))).toBe(false);
  });

  it('captures console output in the app log with the request id, secrets redacted', async () => {
    const res = await rt.route('basic', '/log?who=tester');
    const requestId = res.headers.get('x-request-id');
    const lines = (await rt.client.appLogs('app_basic')).filter((l) => l.requestId === requestId && l.level !== 'request');
    expect(lines.map((l) => l.level)).toEqual(['log', 'warn', 'error']);
    expect(lines[0]!.message).toBe('hello from tester { n: 1 }');
    expect(lines[1]!.message).toBe('the secret is [redacted]');
    expect(lines[2]!.message).toContain('Error: logged error');
    expect(JSON.stringify(lines)).not.toContain('hunter2-secret-value');
  });

  it('answers before waitUntil work finishes and logs that work under the same request', async () => {
    const res = await rt.route('basic', '/wait-until');
    expect(await res.text()).toBe('early');
    const requestId = res.headers.get('x-request-id');
    const line = await (async () => {
      for (let i = 0; i < 200; i++) {
        const found = (await rt.client.appLogs('app_basic')).find((l) => l.requestId === requestId && l.message === 'after the response');
        if (found !== undefined) return found;
        await new Promise((r) => setTimeout(r, 10));
      }
      return undefined;
    })();
    expect(line).toBeDefined();
  });
});
