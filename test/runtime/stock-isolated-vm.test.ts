/**
 * `platform dev` without a compiler (issue 20, item 4): which isolated-vm a process runs guest code
 * on (sandbox/ivm-build.ts), and the stock binary's approximate CPU budget. A runtime node refuses
 * to start without the patched build; the development sandbox falls back to the stock binary,
 * where a runaway loop is still stopped (at its budget in wall time) and honest code still runs.
 */
import { describe, expect, it } from 'vitest';
import { selectIsolatedVm } from '../../runtime/src/config/ivm-build.ts';
import { buildGuestSource } from '../../runtime/src/sandbox/guest-source.ts';
import { loadIvm } from '../../runtime/src/sandbox/ivm.ts';
import { runSlice } from '../../runtime/src/sandbox/slice.ts';
import { createBlankSlot } from '../../runtime/src/sandbox/slot.ts';

describe('which isolated-vm runs guest code', () => {
  it.each([
    ['a runtime node with the patched build', 'production', null, { build: 'patched' }],
    ['the development sandbox with the patched build', 'development', null, { build: 'patched' }],
    ['the development sandbox without it', 'development', 'not built', { build: 'stock' }],
    ['a runtime node without it: refused with the reason', 'production', 'not built', { refused: 'not built' }],
  ] as const)('%s', (_name, sandbox, patchedProblem, choice) => {
    expect(selectIsolatedVm({ sandbox, patchedProblem })).toEqual(choice);
  });
});

describe('the stock binary\'s approximate budget', () => {
  const slotOf = async () => {
    const ivm = loadIvm('stock');
    const slot = createBlankSlot(ivm, await buildGuestSource(), { memoryLimitMb: 64, allowWasm: false, onCatastrophicError: () => {} });
    // The stock binary has no CPU-limit method: that is how runSlice tells the builds apart.
    expect(typeof (slot.isolate as { setCpuTimeLimit?: unknown }).setCpuTimeLimit).toBe('undefined');
    return slot;
  };

  it('stops a runaway loop at about its budget, as a CPU stop with the guest\'s stack', async () => {
    const slot = await slotOf();
    try {
      const module = slot.compileModule('export function spin() { for (;;) {} }\nspin();\n');
      const started = performance.now();
      const result = runSlice(slot.isolate, { usedNs: 0, limitNs: 50e6 }, () => module.evaluate());
      const took = performance.now() - started;
      expect(result.kind).toBe('cpu');
      expect(result.kind === 'cpu' ? result.stack : null).toMatch(/at spin \(/);
      // Wall time: at least the budget, and not unbounded (a generous bound for a loaded machine).
      expect(took).toBeGreaterThanOrEqual(45);
      expect(took).toBeLessThan(5_000);
    } finally {
      slot.isolate.dispose();
    }
  });

  it('runs code within its budget', async () => {
    const slot = await slotOf();
    try {
      const module = slot.compileModule('let n = 0; for (let i = 0; i < 1000; i++) n += i;\nexport default n;\n');
      expect(runSlice(slot.isolate, { usedNs: 0, limitNs: 1_000e6 }, () => module.evaluate())).toEqual({ kind: 'ok' });
    } finally {
      slot.isolate.dispose();
    }
  });
});
