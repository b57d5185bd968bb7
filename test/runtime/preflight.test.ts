import { describe, expect, it } from 'vitest';
import { assertSafeToolchain, toolchainProblems } from '../../runtime/src/sandbox/preflight.ts';

describe('toolchain preflight', () => {
  it('accepts Node 24 with isolated-vm 7.0.1 and --no-node-snapshot', () => {
    expect(toolchainProblems('v24.21.0', '7.0.1', ['--no-node-snapshot'])).toEqual([]);
  });
  it.each([
    ['v20.20.2', '7.0.1', ['--no-node-snapshot'], /Node v20\.20\.2 is too old/],
    ['v24.21.0', '7.0.0', ['--no-node-snapshot'], /isolated-vm 7\.0\.0 is unsafe/],
    ['v24.21.0', '6.0.2', ['--no-node-snapshot'], /GHSA-864f-rcv7-6rh4/],
    ['v24.21.0', null, ['--no-node-snapshot'], /not installed/],
    ['v24.21.0', '7.0.1', [], /--no-node-snapshot/],
  ] as const)('refuses node %s with isolated-vm %s', (node, ivm, argv, reason) => {
    const problems = toolchainProblems(node, ivm, argv);
    expect(problems.join('\n')).toMatch(reason);
  });
  it('passes in the test processes themselves, on the patched build (a runtime node and the dev sandbox alike)', () => {
    expect(assertSafeToolchain()).toBe('patched');
    expect(assertSafeToolchain('development')).toBe('patched');
  });
});
