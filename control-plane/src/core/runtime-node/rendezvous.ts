/**
 * @module core/runtime-node/rendezvous
 * Rendezvous (highest random weight) hashing: every node gets a score for a key, and the key's
 * nodes are the nodes in score order. Adding or removing a node moves only the keys whose first
 * node it is or becomes, so an app's warm isolates stay where they are while the fleet changes.
 * Scores are weighted by capacity (`capacity / -ln(u)`, u uniform in (0, 1) from the hash): a node
 * with twice the workers is first for about twice the keys.
 */

/** A 32-bit hash of a string: FNV-1a over UTF-16 code units, then murmur3's finalizer to spread it. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The node's weighted score for the key: higher is earlier. */
export function rendezvousScore(nodeId: string, key: string, capacity: number): number {
  // (h + 0.5) / 2^32 is in (0, 1), never 0 or 1, so the logarithm is finite and negative.
  const u = (hash32(`${nodeId}\u0000${key}`) + 0.5) / 4_294_967_296;
  return Math.max(1, capacity) / -Math.log(u);
}

/**
 * The nodes in the key's order (a new array; ties broken by id so every control plane agrees).
 *
 * @example
 * rendezvousOrder('app_1@3', nodes)[0]; // the node holding app_1's version 3 warm
 */
export function rendezvousOrder<N extends { id: string; capacity: number }>(key: string, nodes: readonly N[]): N[] {
  return nodes
    .map((node) => ({ node, score: rendezvousScore(node.id, key, node.capacity) }))
    .sort((a, b) => b.score - a.score || (a.node.id < b.node.id ? -1 : 1))
    .map((s) => s.node);
}
