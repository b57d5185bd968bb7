/**
 * @module core/runtime-node/try-nodes
 * Runs a call on the placement's nodes for a key, in order, until one takes it. Only a node that
 * surely did not run the call is passed over (and marked down): it could not be reached, or it
 * refused the request before running it (a 503: draining, or no worker ready; a 404: it could not
 * get the bundle, which another node may hold or fetch). A node lost while the
 * call was in flight may have run it, so that error is thrown, not retried: the caller knows whether
 * running twice is safe (lifecycle deliveries are retried by the outbox under the same `webhook-id`).
 */
import type { FleetNode } from '@platform/runtime/fleet';
import type { Placement } from './placement.ts';

/** Tries per call: the key's node and two more. */
const MAX_TRIES = 3;

/** Connection errors that mean the request never reached a node. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** The node did not run the call. */
export function neverRan(err: unknown): boolean {
  const e = err as { status?: unknown; code?: unknown; cause?: { code?: unknown } } | null;
  if (e === null || typeof e !== 'object') return false;
  if (e.status === 503 || e.status === 404) return true;
  return NOT_CONNECTED.has(String(e.code)) || NOT_CONNECTED.has(String(e.cause?.code));
}

/** Thrown when the fleet has no node that takes work. */
export class NoRuntimeNodeError extends Error {
  readonly code = 'ENONODE';
  constructor() {
    super('no runtime node takes work');
  }
}

/**
 * @example
 * const result = await tryNodes(placement, `${appId}@${version}`, signal, async (node) => (await clientFor(node)).deliver(request, { signal }));
 */
export async function tryNodes<T>(placement: Placement, key: string, signal: AbortSignal | undefined, call: (node: FleetNode) => Promise<T>): Promise<T> {
  const nodes = placement.order(key);
  if (nodes.length === 0) throw new NoRuntimeNodeError();
  let last: unknown;
  for (const node of nodes.slice(0, MAX_TRIES)) {
    const end = placement.begin(node.id, key);
    try {
      return await call(node);
    } catch (err) {
      if (signal?.aborted === true || !neverRan(err)) throw err;
      placement.markDown(node.id);
      last = err;
    } finally {
      end();
    }
  }
  throw last;
}
