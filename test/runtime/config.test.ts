// Configuration: parsed once from the environment, defaults from the spec's limits, clear errors.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@platform/sdk';
import { CONFIG_TABLE, loadConfig } from '@platform/runtime';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({ RUNTIME_SECRET: 'x'.repeat(16) });
    expect(c.port).toBe(4001);
    expect(c.host).toBe('127.0.0.1');
    expect(c.publicUrl).toBe('http://127.0.0.1:4001');
    expect(c.cpuMs).toEqual({ request: LIMITS.hosted.cpuMsPerRequest, mcp: LIMITS.hosted.cpuMsPerMcpRequest });
    expect(c.worker.isolateMemoryMb).toBe(128);
    expect(c.worker.allowWasm).toBe(false);
    expect(c.controlPlaneUrl).toBeNull();
    expect(c.egress.testLoopbackHosts).toEqual([]);
  });

  it('reads the data dir from DATA_DIR (as the control plane passes it) or RUNTIME_DATA_DIR', () => {
    expect(loadConfig({ RUNTIME_SECRET: 'x'.repeat(16), DATA_DIR: '/tmp/d' }).dataDir).toBe('/tmp/d/runtime');
    expect(loadConfig({ RUNTIME_SECRET: 'x'.repeat(16), DATA_DIR: '/tmp/d', RUNTIME_DATA_DIR: '/tmp/r' }).dataDir).toBe('/tmp/r');
  });

  it('normalizes lists and domains', () => {
    const c = loadConfig({ RUNTIME_SECRET: 'x'.repeat(16), RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: ' A.test., b.test ', RUNTIME_HOSTED_APP_DOMAIN: 'Apps.Example.', CONTROL_PLANE_URL: 'http://cp:4000/' });
    expect(c.egress.testLoopbackHosts).toEqual(['a.test', 'b.test']);
    expect(c.hostedAppDomain).toBe('apps.example');
    expect(c.controlPlaneUrl).toBe('http://cp:4000');
  });

  it('refuses a missing or short secret and bad numbers, naming each variable', () => {
    expect(() => loadConfig({})).toThrow(/RUNTIME_SECRET/);
    expect(() => loadConfig({ RUNTIME_SECRET: 'short' })).toThrow(/at least 16 characters/);
    expect(() => loadConfig({ RUNTIME_SECRET: 'x'.repeat(16), RUNTIME_PORT: 'http', RUNTIME_ISOLATE_MEMORY_MB: '2' })).toThrow(/RUNTIME_PORT[\s\S]*RUNTIME_ISOLATE_MEMORY_MB/);
  });

  it('documents every variable it reads', () => {
    const names = CONFIG_TABLE.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of ['RUNTIME_PORT', 'RUNTIME_HOST', 'RUNTIME_SECRET', 'CONTROL_PLANE_URL', 'RUNTIME_DATA_DIR', 'RUNTIME_CPU_MS', 'RUNTIME_ALLOW_WASM', 'RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS']) expect(names).toContain(name);
    for (const row of CONFIG_TABLE) expect(row.description.length).toBeGreaterThan(10);
  });
});
