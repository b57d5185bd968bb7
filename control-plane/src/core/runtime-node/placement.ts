/**
 * @module core/runtime-node/placement
 * Which runtime node gets a hosted app's request. Each app version has its nodes in rendezvous order
 * (`rendezvous.ts`), so its isolates are warm on its first node; while many of its requests are in
 * flight from this control plane it spreads over its next nodes too (one more node per `spreadAt`
 * requests in flight), to the least loaded of those. The order handed back is the order to try:
 * when a node cannot be reached, or refuses a request before the app ran, the caller marks it down
 * and tries the next; a node marked down is tried again after `downMs`, and in the meantime only
 * when no other node is left. Draining nodes get nothing new.
 */
import type { FleetNode } from '@platform/runtime/fleet';
import type { NodeDirectory } from './directory.ts';
import { rendezvousOrder } from './rendezvous.ts';

export interface Placement {
  /** The nodes to try for `key`, in order. Empty when the fleet has no node that takes work. */
  order(key: string): FleetNode[];
  /** Counts a request of `key` on the node; call what it returns when the request has ended. */
  begin(nodeId: string, key: string): () => void;
  /** The node could not be reached or refused work: try others first for a while. */
  markDown(nodeId: string): void;
}

export interface PlacementDeps {
  directory: NodeDirectory;
  now: () => number;
  /** Requests of one app version in flight from here before it spreads to one more node (default 16). */
  spreadAt?: number;
  /** How long a node marked down is passed over (default 2000 ms). */
  downMs?: number;
}

const bump = (counts: Map<string, number>, key: string, by: number): void => {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
};

/**
 * @example
 * const placement = createPlacement({ directory, now: Date.now });
 * for (const node of placement.order('app_1@3')) { const end = placement.begin(node.id, 'app_1@3'); try { … } finally { end(); } }
 */
export function createPlacement(deps: PlacementDeps): Placement {
  const spreadAt = deps.spreadAt ?? 16;
  const downMs = deps.downMs ?? 2000;
  const byNode = new Map<string, number>();
  const byKey = new Map<string, number>();
  const downUntil = new Map<string, number>();

  const isDown = (id: string, now: number): boolean => {
    const until = downUntil.get(id);
    if (until === undefined) return false;
    if (until > now) return true;
    downUntil.delete(id);
    return false;
  };
  /**
   * Requests in flight on the node per worker: ours, counted now, or what the node last reported
   * (everyone's, up to a heartbeat old) when that is more.
   */
  const load = (node: FleetNode): number => Math.max(byNode.get(node.id) ?? 0, node.inFlight) / Math.max(1, node.capacity);

  return {
    order(key) {
      const now = deps.now();
      const live: FleetNode[] = [];
      const down: FleetNode[] = [];
      for (const node of deps.directory.nodes()) {
        if (node.draining) continue;
        (isDown(node.id, now) ? down : live).push(node);
      }
      const ranked = rendezvousOrder(key, live);
      const width = Math.min(ranked.length, 1 + Math.floor((byKey.get(key) ?? 0) / spreadAt));
      let best = 0;
      for (let i = 1; i < width; i++) if (load(ranked[i]!) < load(ranked[best]!)) best = i;
      if (best > 0) ranked.unshift(...ranked.splice(best, 1));
      return [...ranked, ...rendezvousOrder(key, down)];
    },
    begin(nodeId, key) {
      bump(byNode, nodeId, 1);
      bump(byKey, key, 1);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        bump(byNode, nodeId, -1);
        bump(byKey, key, -1);
      };
    },
    markDown(nodeId) {
      downUntil.set(nodeId, deps.now() + downMs);
    },
  };
}
