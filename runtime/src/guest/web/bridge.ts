/**
 * @module guest/web/bridge
 * The guest side of the host boundary. `setup` hands in two host functions; everything the guest
 * runtime asks of the host goes through `callHost` (synchronous, copied result) or `postHost`
 * (fire-and-forget). Asynchronous answers come back through `deliver` with the operation id the
 * guest opened, always as a separate entry into the isolate that the host measures.
 */
export type HostSync = (capability: string, method: string, ...args: unknown[]) => unknown;
export type HostPost = (capability: string, method: string, ...args: unknown[]) => void;
export type OpHandler = (ok: boolean, value: unknown) => void;

let hostSync: HostSync | null = null;
let hostPost: HostPost | null = null;
const pending = new Map<number, OpHandler>();
let nextOpId = 1;

export function connect(sync: HostSync, post: HostPost): void {
  hostSync = sync;
  hostPost = post;
}

export function callHost(capability: string, method: string, ...args: unknown[]): unknown {
  if (hostSync === null) throw new Error('The platform runtime is not connected');
  return hostSync(capability, method, ...args);
}

export function postHost(capability: string, method: string, ...args: unknown[]): void {
  if (hostPost === null) throw new Error('The platform runtime is not connected');
  hostPost(capability, method, ...args);
}

/** Registers a handler for a later `deliver(id, …)` and returns the id to give the host. */
export function openOp(handler: OpHandler): number {
  const id = nextOpId++;
  pending.set(id, handler);
  return id;
}

export function closeOp(id: number): boolean {
  return pending.delete(id);
}

export function hasOp(id: number): boolean {
  return pending.has(id);
}

/** Called by the host. Unknown ids (closed, or from an earlier request) are ignored. */
export function deliver(id: number, ok: boolean, value: unknown): void {
  const handler = pending.get(id);
  if (handler === undefined) return;
  pending.delete(id);
  handler(ok, value);
}

/** Forgets every open operation: the host cancelled them when the request ended. */
export function dropAllOps(): void {
  pending.clear();
}
