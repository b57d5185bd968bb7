/**
 * @module fleet/record
 * What a runtime node says about itself in the fleet registry, and where it says it. Shared by the
 * node (which writes it) and the control plane (which reads it), so it is self-contained: it imports
 * nothing else of the runtime and pulls in no isolate code (`@platform/runtime/fleet`).
 *
 * Layout in Redis, every key under the deployment's prefix:
 * - `fleet:node:{id}`: the node's record as JSON, written on every heartbeat with a TTL, so a node
 *   that dies without a word is forgotten once the TTL passes;
 * - `fleet:nodes`: the set of ids that may have a record (readers drop ids whose record is gone);
 * - `fleet:changes`: a channel on which a node announces that it joined, drains or leaves, so readers
 *   look again at once instead of at their next refresh.
 */

export interface FleetNode {
  /** Unique per process: a restarted node is a new node. */
  id: string;
  /** Where control planes reach the node's internal API (`/internal/v1/...`). */
  url: string;
  /** Sandbox workers of the node: the requests it runs at once in parallel. */
  capacity: number;
  /** Requests in flight on the node when the record was written. */
  inFlight: number;
  /** Draining: finishing what it holds, taking nothing new. */
  draining: boolean;
  /** Epoch ms of the process start and of this record. */
  startedAt: number;
  seenAt: number;
}

export interface FleetKeys {
  nodes: string;
  changes: string;
  node(id: string): string;
}

/**
 * @example
 * const keys = fleetKeys('platform:');
 * keys.node('a1'); // 'platform:fleet:node:a1'
 */
export function fleetKeys(prefix: string): FleetKeys {
  return {
    nodes: `${prefix}fleet:nodes`,
    changes: `${prefix}fleet:changes`,
    node: (id) => `${prefix}fleet:node:${id}`,
  };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The record stored under `fleet:node:{id}`, or null when it is missing or not a record. */
export function parseFleetNode(text: string | null | undefined): FleetNode | null {
  if (text == null) return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Record<string, unknown>;
  if (typeof r.id !== 'string' || r.id.length === 0 || typeof r.url !== 'string' || !/^https?:\/\//.test(r.url)) return null;
  if (!isCount(r.capacity) || !isCount(r.inFlight) || typeof r.draining !== 'boolean' || !isCount(r.startedAt) || !isCount(r.seenAt)) return null;
  return { id: r.id, url: r.url.replace(/\/$/, ''), capacity: r.capacity, inFlight: r.inFlight, draining: r.draining, startedAt: r.startedAt, seenAt: r.seenAt };
}
