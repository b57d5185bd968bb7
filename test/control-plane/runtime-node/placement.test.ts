/**
 * Placement of requests on runtime nodes (core/runtime-node/placement.ts, try-nodes.ts), on a fixed
 * directory and an injected clock: an app version stays on its first node, spreads while many of
 * its requests are in flight, passes over nodes marked down until their time is up (or no other is
 * left) and over draining nodes always; a call moves on only when the node surely did not run it.
 */
import { describe, expect, it } from 'vitest';
import type { FleetNode } from '@platform/runtime/fleet';
import type { NodeDirectory } from '../../../control-plane/src/core/runtime-node/directory.ts';
import { createPlacement } from '../../../control-plane/src/core/runtime-node/placement.ts';
import { rendezvousOrder } from '../../../control-plane/src/core/runtime-node/rendezvous.ts';
import { NoRuntimeNodeError, tryNodes } from '../../../control-plane/src/core/runtime-node/try-nodes.ts';

const fleetNode = (id: string, extra: Partial<FleetNode> = {}): FleetNode =>
  ({ id, url: `http://${id}.test:4001`, capacity: 2, inFlight: 0, draining: false, startedAt: 1, seenAt: 1, ...extra });

function world(list: FleetNode[]) {
  let nodes = list;
  let now = 1_000;
  const directory: NodeDirectory = { nodes: () => nodes, ready: async () => {}, close: async () => {} };
  const placement = createPlacement({ directory, now: () => now, spreadAt: 4, downMs: 2_000 });
  return { placement, set: (next: FleetNode[]) => (nodes = next), tick: (ms: number) => (now += ms) };
}

const KEY = 'app_1@3';

describe('placement', () => {
  it('puts an app version on its rendezvous node first, the others after it', () => {
    const nodes = ['a', 'b', 'c'].map((id) => fleetNode(id));
    const w = world(nodes);
    expect(w.placement.order(KEY).map((n) => n.id)).toEqual(rendezvousOrder(KEY, nodes).map((n) => n.id));
  });

  it('spreads a busy app version to its next node, the less loaded one', () => {
    const nodes = ['a', 'b', 'c'].map((id) => fleetNode(id));
    const w = world(nodes);
    const [first, second] = rendezvousOrder(KEY, nodes);
    const ends = Array.from({ length: 4 }, () => w.placement.begin(first!.id, KEY));
    // Four in flight on the first node: the app may use two nodes, and the second is idle.
    expect(w.placement.order(KEY)[0]!.id).toBe(second!.id);
    for (const end of ends) end();
    expect(w.placement.order(KEY)[0]!.id).toBe(first!.id);
  });

  it('passes over a node marked down until its time is up, and over draining nodes', () => {
    const nodes = ['a', 'b'].map((id) => fleetNode(id));
    const w = world(nodes);
    const [first, second] = rendezvousOrder(KEY, nodes);
    w.placement.markDown(first!.id);
    expect(w.placement.order(KEY).map((n) => n.id)).toEqual([second!.id, first!.id]);
    w.tick(2_001);
    expect(w.placement.order(KEY)[0]!.id).toBe(first!.id);
    w.set(nodes.map((n) => (n.id === first!.id ? { ...n, draining: true } : n)));
    expect(w.placement.order(KEY).map((n) => n.id)).toEqual([second!.id]);
  });
});

describe('tryNodes', () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

  it('moves on from a node that refused the connection or answered 503, and marks it down', async () => {
    const nodes = ['a', 'b', 'c'].map((id) => fleetNode(id));
    const w = world(nodes);
    const order = w.placement.order(KEY).map((n) => n.id);
    const tried: string[] = [];
    const result = await tryNodes(w.placement, KEY, undefined, async (node) => {
      tried.push(node.id);
      if (node.id === order[0]) throw refused();
      if (node.id === order[1]) throw Object.assign(new Error('draining'), { status: 503 });
      return node.id;
    });
    expect(tried).toEqual(order);
    expect(result).toBe(order[2]);
    expect(w.placement.order(KEY)[0]!.id).toBe(order[2]);
  });

  it('moves on from a node that could not get the bundle (404), but not from one that answered otherwise', async () => {
    const w = world(['a', 'b'].map((id) => fleetNode(id)));
    const order = w.placement.order(KEY).map((n) => n.id);
    const tried: string[] = [];
    expect(await tryNodes(w.placement, KEY, undefined, async (node) => {
      tried.push(node.id);
      if (node.id === order[0]) throw Object.assign(new Error('Bundle abc does not exist'), { status: 404 });
      return 'ran';
    })).toBe('ran');
    expect(tried).toEqual(order);
    const invalid = Object.assign(new Error('bundle invalid'), { status: 422 });
    await expect(tryNodes(w.placement, 'other', undefined, async () => {
      throw invalid;
    })).rejects.toBe(invalid);
  });

  it('does not retry a call lost in flight: the node may have run it', async () => {
    const w = world(['a', 'b'].map((id) => fleetNode(id)));
    let calls = 0;
    const lost = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    await expect(tryNodes(w.placement, KEY, undefined, async () => {
      calls++;
      throw lost;
    })).rejects.toBe(lost);
    expect(calls).toBe(1);
  });

  it('tries at most three nodes, and says when there is none', async () => {
    const w = world(['a', 'b', 'c', 'd'].map((id) => fleetNode(id)));
    let calls = 0;
    await expect(tryNodes(w.placement, KEY, undefined, async () => {
      calls++;
      throw refused();
    })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(calls).toBe(3);
    w.set([]);
    await expect(tryNodes(w.placement, KEY, undefined, async () => 1)).rejects.toBeInstanceOf(NoRuntimeNodeError);
  });
});
