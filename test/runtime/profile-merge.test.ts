/**
 * The `.cpuprofile` of a request from isolated-vm's profiles, one per entry into the isolate: one
 * `(root)`, each entry's tree below it with fresh ids, samples in time order with deltas between
 * them, hit counts from the samples, lines and columns from 0 as DevTools reads them.
 */
import { describe, expect, it } from 'vitest';
import { mergeProfiles } from '../../runtime/src/sandbox/profile.ts';
import { deliveryLabel, routeLabel } from '../../runtime/src/logs/request-label.ts';

const frame = (functionName: string, lineNumber = 0, url = 'app:///bundle.js') => ({ functionName, url, scriptId: 4, lineNumber, columnNumber: 3 });

/** An entry's profile as isolated-vm gives it: `timeDeltas` are offsets from its own start. */
const entry = (startTime: number, fn: string, offsets: number[]) => ({
  startTime,
  endTime: startTime + 100,
  nodes: [
    { id: 1, hitCount: 0, children: [2], callFrame: frame('(root)', 0, '') },
    { id: 2, hitCount: 0, children: [3], callFrame: frame('fetch', 10) },
    { id: 3, hitCount: 0, children: [], callFrame: frame(fn, 20) },
  ],
  samples: offsets.map((_, i) => (i % 2 === 0 ? 3 : 2)),
  timeDeltas: offsets,
});

describe('mergeProfiles', () => {
  it('puts every entry under one root, in time order, with deltas between samples', () => {
    const merged = mergeProfiles([entry(1_000, 'first', [10, 30]), entry(5_000, 'second', [5])])!;
    expect(merged.startTime).toBe(1_000);
    expect(merged.endTime).toBe(5_100);
    const byId = new Map(merged.nodes.map((n) => [n.id, n]));
    const root = merged.nodes[0]!;
    expect(root.callFrame.functionName).toBe('(root)');
    expect(root.children.map((c) => byId.get(c)!.callFrame.functionName)).toEqual(['fetch', 'fetch']);
    expect(new Set(merged.nodes.map((n) => n.id)).size).toBe(merged.nodes.length);
    expect(merged.samples.map((s) => byId.get(s)!.callFrame.functionName)).toEqual(['first', 'fetch', 'second']);
    expect(merged.timeDeltas).toEqual([10, 20, 3_975]);
    expect(merged.nodes.reduce((n, node) => n + node.hitCount, 0)).toBe(3);
    expect(byId.get(merged.samples[0]!)!.callFrame).toEqual({ functionName: 'first', url: 'app:///bundle.js', scriptId: '4', lineNumber: 19, columnNumber: 2 });
  });

  it('answers null when no entry was profiled', () => {
    expect(mergeProfiles([])).toBeNull();
  });
});

describe('request labels', () => {
  it('names a route by method and path, cut at 200 characters', () => {
    expect(routeLabel('GET', '/items/7')).toBe('GET /items/7');
    expect(routeLabel('POST', `/${'a'.repeat(300)}`)).toHaveLength(201);
  });

  it('names a delivery by its type and an MCP request by its method, from the first bytes only', () => {
    expect(deliveryLabel('lifecycle', '{"id":"dlv_1","type":"post.created","data":{}}')).toBe('post.created');
    expect(deliveryLabel('interactive', Buffer.from('{"id":"dlv_2","type":"block.action"}'))).toBe('block.action');
    expect(deliveryLabel('mcp', '{"jsonrpc":"2.0","id":1,"method":"tools/call"}')).toBe('mcp tools/call');
    expect(deliveryLabel('lifecycle', `{"pad":"${'x'.repeat(600)}","type":"late"}`)).toBe('lifecycle');
    expect(deliveryLabel('command', null)).toBe('command');
  });
});
