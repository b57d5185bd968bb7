// Reading the manifest a bundle's code computes: in a fresh isolate, under a CPU budget, from pushed
// bytes or a known sha256; broken bundles are refused with a reason the author can act on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuntimeClientError } from '@platform/runtime';
import { SECRET, fixture, sha256, startRuntime, whileServing, type TestRuntime } from './support/runtime.ts';

let rt: TestRuntime;

beforeAll(async () => {
  rt = await startRuntime({ RUNTIME_STARTUP_CPU_MS: '150' });
  await rt.deploy('neighbour', fixture('neighbour'));
});
afterAll(() => rt?.stop());

async function refusal(source: string): Promise<{ status: number; tag: string; message: string }> {
  try {
    await rt.client.manifest({ bundle: source });
  } catch (err) {
    if (err instanceof RuntimeClientError) return { status: err.status, tag: err.body!._tag, message: err.body!.message };
    throw err;
  }
  throw new Error('the manifest was read');
}

describe('POST /internal/v1/manifest', () => {
  it('evaluates pushed bytes and answers the computed manifest', async () => {
    const source = fixture('basic');
    const out = await rt.client.manifest({ bundle: source });
    expect(out.sha256).toBe(sha256(source));
    expect(out.manifest).toEqual({ schemaVersion: 1, name: 'Basic', slug: 'basic', egressHosts: ['api.allowed.test'] });
    expect(out.cpuMs).toBeGreaterThan(0);
  });

  it('reads a bundle the node already has by sha256', async () => {
    const sha = await rt.push('export default { manifest: () => ({ computed: 6 * 7 }), fetch() {} }');
    expect((await rt.client.manifest({ sha256: sha })).manifest).toEqual({ computed: 42 });
  });

  it.each([
    ['no default export', 'export const x = 1;', /no default export/],
    ['no fetch handler', 'export default { manifest: {} }', /no fetch/],
    ['no manifest', 'export default { fetch() {} }', /no manifest/],
    ['a throwing top level', 'throw new Error("top level broke"); export default {};', /top level broke/],
    ['an import', 'import fs from "node:fs"; export default { fetch() {}, manifest: {} };', /cannot be resolved: hosted bundles must be self-contained/],
    ['a syntax error', 'export default {', /SyntaxError|Unexpected/],
    ['a manifest that is not JSON', 'export default { fetch() {}, manifest: { n: 1n } }', /BigInt/],
    ['a toJSON that throws', 'export default { fetch() {}, manifest: { toJSON() { throw new Error("no json") } } }', /no json/],
  ])('refuses %s (422)', async (_what, source, reason) => {
    const r = await refusal(source);
    expect(r.status).toBe(422);
    expect(r.tag).toBe('PlatformAppBundleInvalidError');
    expect(r.message).toMatch(reason);
  });

  it.each([
    ['at the top level', 'for (;;) {} export default {};'],
    ['in a toJSON trap', 'export default { fetch() {}, manifest: { toJSON() { for (;;) {} } } }'],
  ])('stops a runaway %s at the CPU budget (503), serving others meanwhile', async (_what, source) => {
    const { result, failed, served } = await whileServing(rt, 'neighbour', () => refusal(source));
    expect(result.status).toBe(503);
    expect(result.tag).toBe('PlatformRuntimeCpuLimitError');
    expect(failed).toEqual([]);
    expect(served).toBeGreaterThan(0);
  });

  it('refuses a body that is neither JSON nor a bundle', async () => {
    const res = await fetch(`${rt.url}/internal/v1/manifest`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}` }, body: 'nope' });
    expect(res.status).toBe(400);
  });
});
