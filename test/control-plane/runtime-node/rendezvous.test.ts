/**
 * Rendezvous order of app versions over runtime nodes (core/runtime-node/rendezvous.ts): every
 * control plane agrees, a node joining or leaving moves only the keys it takes or held, and keys
 * spread over nodes in proportion to their capacity.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rendezvousOrder } from '../../../control-plane/src/core/runtime-node/rendezvous.ts';

const node = (id: string, capacity = 2) => ({ id, capacity });
const ids = fc.uniqueArray(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { minLength: 1, maxLength: 8 });
const keys = Array.from({ length: 4000 }, (_, i) => `app_${i.toString(36)}@${1 + (i % 5)}`);

describe('rendezvous order', () => {
  it('is the same whatever order the nodes are listed in, and lists every node once', () => {
    fc.assert(fc.property(ids, fc.string(), (list, key) => {
      const nodes = list.map((id) => node(id));
      const a = rendezvousOrder(key, nodes).map((n) => n.id);
      const b = rendezvousOrder(key, [...nodes].reverse()).map((n) => n.id);
      expect(a).toEqual(b);
      expect([...a].sort()).toEqual([...list].sort());
    }));
  });

  it('moves only the keys of a node that leaves, and only to where they were second', () => {
    fc.assert(fc.property(ids.filter((l) => l.length >= 2), fc.nat(), (list, pick) => {
      const nodes = list.map((id) => node(id));
      const gone = nodes[pick % nodes.length]!;
      const rest = nodes.filter((n) => n !== gone);
      for (const key of keys.slice(0, 200)) {
        const before = rendezvousOrder(key, nodes);
        const after = rendezvousOrder(key, rest);
        if (before[0] !== gone) expect(after[0]).toBe(before[0]);
        else expect(after[0]).toBe(before[1]);
      }
    }), { numRuns: 30 });
  });

  it('gives a node that joins only keys it now comes first for', () => {
    const nodes = ['a', 'b', 'c'].map((id) => node(id));
    const joined = [...nodes, node('d')];
    let moved = 0;
    for (const key of keys) {
      const before = rendezvousOrder(key, nodes)[0]!;
      const after = rendezvousOrder(key, joined)[0]!;
      if (after.id !== before.id) {
        expect(after.id).toBe('d');
        moved++;
      }
    }
    // About a quarter of the keys move to the fourth node; none move between the others.
    expect(moved / keys.length).toBeGreaterThan(0.2);
    expect(moved / keys.length).toBeLessThan(0.3);
  });

  it('spreads keys in proportion to capacity', () => {
    const nodes = [node('small', 1), node('big', 3)];
    const first = keys.filter((key) => rendezvousOrder(key, nodes)[0]!.id === 'big').length / keys.length;
    expect(first).toBeGreaterThan(0.7);
    expect(first).toBeLessThan(0.8);
  });
});
