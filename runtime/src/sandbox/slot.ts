/**
 * @module sandbox/slot
 * One isolate with one context, the guest runtime set up in it, and (once loaded) one app
 * version's bundle. The host keeps the References to the guest runtime's entry points; the guest
 * only ever receives copies. A slot runs one request at a time.
 */
import { createBridge, type BridgeTarget, type SlotHandler } from './host-bridge.ts';
import type { Context, ExternalCopy, Isolate, Ivm, Reference } from './ivm.ts';

export type KillReason = 'cpu' | 'deadline' | 'evicted' | 'idle' | 'startup' | 'shutdown';

export interface SlotOptions {
  memoryLimitMb: number;
  allowWasm: boolean;
  onCatastrophicError: (message: string) => void;
}

export interface Slot extends BridgeTarget {
  readonly isolate: Isolate;
  handler: SlotHandler | null;
  /** Version key once a bundle is loaded. */
  key: string | null;
  lastUsed: number;
  heapBytes: number;
  heapCheckedAt: number;
  killReason: KillReason | null;
  readonly disposed: boolean;
  dispatch(init: unknown, env: unknown, info: unknown): Promise<unknown>;
  deliver(opId: number, ok: boolean, value: unknown): Promise<unknown>;
  readManifest(): Promise<{ ok: true; json: string } | { ok: false; message: string }>;
  /** Compiles and links the bundle (host work); returns the module evaluation to run as a slice. */
  compile(source: string, cachedData: ExternalCopy<ArrayBuffer> | undefined): { evaluate: () => Promise<unknown>; bind: () => Promise<string | null>; cachedData: ExternalCopy<ArrayBuffer> | undefined };
  measureHeap(now: number): number;
  dispose(reason: KillReason): void;
}

const GUEST_FILE = 'platform:///guest-runtime.js';
export const BUNDLE_FILE = 'app:///bundle.js';

/** Compiled guest-runtime code cache, produced by this process on its first slot. */
let guestCache: ExternalCopy<ArrayBuffer> | undefined;

export function createBlankSlot(ivm: Ivm, guestSource: string, options: SlotOptions): Slot {
  const isolate = new ivm.Isolate({ memoryLimit: options.memoryLimitMb, inspector: true, onCatastrophicError: options.onCatastrophicError });
  let context: Context;
  const refs: Reference<unknown>[] = [];
  const keep = <T>(r: Reference<T>): Reference<T> => { refs.push(r as Reference<unknown>); return r; };
  const target: BridgeTarget = { handler: null };
  let api: { dispatch: Reference; deliver: Reference; bindModule: Reference; readManifest: Reference };
  try {
    context = isolate.createContextSync({ inspector: true });
    const script = isolate.compileScriptSync(guestSource, { filename: GUEST_FILE, ...(guestCache === undefined ? { produceCachedData: true } : { cachedData: guestCache }) });
    if (guestCache === undefined) guestCache = (script as unknown as { cachedData?: ExternalCopy<ArrayBuffer> }).cachedData;
    const exportsRef = script.runSync(context, { reference: true }) as Reference<{ setup: unknown }>;
    const setupRef = exportsRef.getSync('setup', { reference: true }) as Reference;
    const bridge = createBridge(ivm, target);
    const apiRef = setupRef.applySync(undefined, [bridge.sync, bridge.post, new ivm.ExternalCopy({ allowWasm: options.allowWasm }).copyInto()], { result: { reference: true } }) as Reference<Record<string, unknown>>;
    const get = (name: string): Reference => keep(apiRef.getSync(name, { reference: true }) as Reference);
    api = { dispatch: get('dispatch'), deliver: get('deliver'), bindModule: get('bindModule'), readManifest: get('readManifest') };
    for (const r of [exportsRef, setupRef, apiRef]) r.release();
    script.release();
  } catch (err) {
    isolate.dispose();
    throw err;
  }

  const slot: Slot = {
    isolate,
    get handler() { return target.handler; },
    set handler(h) { target.handler = h; },
    key: null,
    lastUsed: 0,
    heapBytes: 0,
    heapCheckedAt: 0,
    killReason: null,
    get disposed() { return isolate.isDisposed; },
    dispatch: (init, env, info) => api.dispatch.apply(undefined, [init, env, info], { arguments: { copy: true } }),
    deliver: (opId, ok, value) => api.deliver.apply(undefined, [opId, ok, value], { arguments: { copy: true } }),
    readManifest: () => api.readManifest.apply(undefined, [], { result: { copy: true } }) as Promise<{ ok: true; json: string } | { ok: false; message: string }>,
    compile(source, cachedData) {
      const module = isolate.compileModuleSync(source, { filename: BUNDLE_FILE, ...(cachedData === undefined ? { produceCachedData: true } : { cachedData }) });
      const produced = (module as unknown as { cachedData?: ExternalCopy<ArrayBuffer> }).cachedData;
      module.instantiateSync(context, (specifier: string) => {
        throw new Error(`import "${specifier.slice(0, 200)}" cannot be resolved: hosted bundles must be self-contained`);
      });
      return {
        cachedData: produced,
        evaluate: () => module.evaluate(),
        bind: () => api.bindModule.apply(undefined, [module.namespace.derefInto()], { result: { copy: true } }) as Promise<string | null>,
      };
    },
    measureHeap(now) {
      if (isolate.isDisposed) return 0;
      const h = isolate.getHeapStatisticsSync();
      slot.heapBytes = h.used_heap_size + h.externally_allocated_size;
      slot.heapCheckedAt = now;
      return slot.heapBytes;
    },
    dispose(reason) {
      if (slot.killReason === null) slot.killReason = reason;
      target.handler = null;
      if (!isolate.isDisposed) isolate.dispose();
    },
  };
  return slot;
}
