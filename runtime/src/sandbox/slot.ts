/**
 * @module sandbox/slot
 * One isolate with one context, the guest runtime set up in it, and (once loaded) one app
 * version's bundle. The host keeps the References to the guest runtime's entry points; the guest
 * only ever receives copies. A slot runs one request at a time.
 */
import type { BodyKind, HeaderBlock, RequestKind } from '../shared/bridge.ts';
import type { BundleScript } from './bundle-script.ts';
import { createBridge, type BridgeTarget, type SlotHandler } from './host-bridge.ts';
import type { Context, ExternalCopy, Isolate, Ivm, Reference } from './ivm.ts';
import { stockTimeout } from './slice.ts';

/** A compiled bundle: `evaluate` runs its top level, `bind` hands its exports to the guest runtime. */
export interface LoadedBundle {
  evaluate: () => void;
  bind: () => string | null;
}

export type KillReason = 'cpu' | 'deadline' | 'evicted' | 'idle' | 'startup' | 'shutdown' | 'profiled';

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
  /** Starts a request in the guest (synchronously: its microtasks run before this returns). */
  dispatch(request: DispatchArgs): void;
  /** Hands an operation's result (timer, fetch) to the guest. */
  deliver(opId: number, ok: boolean, value: unknown): void;
  /** `error` (on failure): what the manifest's code threw, copied out of the guest (untrusted). */
  readManifest(): { ok: true; json: string } | { ok: false; message: string; error?: unknown };
  /** Enters the isolate and runs nothing of the guest's (measures what an entry costs the host, e.g. under the profiler). */
  emptyEntry(): void;
  /** Compiles and links the bundle as a module (host work); evaluation and binding run as slices. */
  compileModule(source: string): LoadedBundle;
  /** Compiles the bundle's script form with this process's code cache for it (bundle-script.ts). */
  compileScript(script: BundleScript, cachedData: ExternalCopy<ArrayBuffer>): LoadedBundle & { cachedDataRejected: boolean };
  /**
   * Replaces the guest-runtime code cache with one taken from this isolate after it served a
   * request, so that it holds the request and response code too (a fresh isolate's first dispatch
   * then compiles less). Host work, no guest code runs: V8 finds the guest runtime already compiled
   * in this isolate and serializes its functions' bytecode, which comes from our source only.
   */
  refreshGuestCache(): void;
  measureHeap(now: number): number;
  dispose(reason: KillReason): void;
}

/** One request as `dispatch` passes it: primitives only (see shared/bridge.ts). */
export interface DispatchArgs {
  method: string;
  url: string;
  headers: HeaderBlock;
  body: string | null;
  bodyKind: BodyKind;
  kind: RequestKind;
  requestId: string;
  deliveryId: string | null;
  envId: number;
  env: Record<string, string>;
}

const GUEST_FILE = 'platform:///guest-runtime.js';
export const BUNDLE_FILE = 'app:///bundle.js';

/**
 * Compiled guest-runtime code cache, produced by this process: first right after its first
 * compile (top-level code only: V8 compiles functions when first called, and isolated-vm can only
 * produce a cache while compiling), then once more by `refreshGuestCache`.
 */
let guestCache: ExternalCopy<ArrayBuffer> | undefined;

export function createBlankSlot(ivm: Ivm, guestSource: string, options: SlotOptions): Slot {
  const isolate = new ivm.Isolate({ memoryLimit: options.memoryLimitMb, onCatastrophicError: options.onCatastrophicError });
  let context: Context;
  const refs: Reference<unknown>[] = [];
  const keep = <T>(r: Reference<T>): Reference<T> => { refs.push(r as Reference<unknown>); return r; };
  const target: BridgeTarget = { handler: null };
  let api: { dispatch: Reference; deliver: Reference; bindModule: Reference; readManifest: Reference };
  try {
    context = isolate.createContextSync();
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

  // The env id this isolate's guest runtime holds: the env object crosses only when it changes.
  let envId = -1;
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
    dispatch(r) {
      const args: unknown[] = [r.method, r.url, r.headers, r.body, r.bodyKind, r.kind, r.requestId, r.deliveryId, r.envId];
      if (r.envId !== envId) {
        args.push(new ivm.ExternalCopy(r.env).copyInto({ release: true }));
        envId = r.envId;
      }
      api.dispatch.applySync(undefined, args, { ...stockTimeout(isolate) });
    },
    deliver: (opId, ok, value) => { api.deliver.applySync(undefined, [opId, ok, value], { arguments: { copy: true }, ...stockTimeout(isolate) }); },
    readManifest: () => api.readManifest.applySync(undefined, [], { result: { copy: true }, ...stockTimeout(isolate) }) as ReturnType<Slot['readManifest']>,
    emptyEntry: () => { context.evalSync('undefined', { ...stockTimeout(isolate) }); },
    compileModule(source) {
      // isolated-vm 7.0.1 compiles modules without V8's code cache, whatever `cachedData` says: none
      // is produced or passed (bundle-script.ts is how bundles get cached code).
      const module = isolate.compileModuleSync(source, { filename: BUNDLE_FILE });
      module.instantiateSync(context, (specifier: string) => {
        throw new Error(`import "${specifier.slice(0, 200)}" cannot be resolved: hosted bundles must be self-contained`);
      });
      return {
        evaluate: () => { module.evaluateSync({ ...stockTimeout(isolate) }); },
        bind: () => api.bindModule.applySync(undefined, [module.namespace.derefInto()], { result: { copy: true }, ...stockTimeout(isolate) }) as string | null,
      };
    },
    compileScript(script, cachedData) {
      const compiled = isolate.compileScriptSync(script.code, { filename: BUNDLE_FILE, lineOffset: script.lineOffset, cachedData });
      const cachedDataRejected = (compiled as unknown as { cachedDataRejected?: boolean }).cachedDataRejected === true;
      // Running the script only creates the wrapper's two functions; no bundle code runs yet.
      const pair = compiled.runSync(context, { reference: true }) as Reference<unknown[]>;
      const run = pair.getSync(0, { reference: true }) as Reference;
      const namespace = pair.getSync(1, { reference: true }) as Reference;
      pair.release();
      compiled.release();
      return {
        cachedDataRejected,
        // The call's promise is dropped unhandled on purpose: a rejection during evaluation then
        // fails this call through isolated-vm's unhandled-rejection check, as a module's would.
        evaluate: () => { (run.applySync(undefined, [], { result: { reference: true }, ...stockTimeout(isolate) }) as Reference).release(); },
        // The namespace object stays reachable only from the wrapper's own scope, under a name the
        // bundle does not contain (bundle-script.ts refuses bundles that do), and it holds nothing
        // but getters over the bundle's own bindings: nothing of the host reaches the guest.
        bind: () => {
          const ns = namespace.applySync(undefined, [], { result: { reference: true }, ...stockTimeout(isolate) }) as Reference;
          run.release();
          namespace.release();
          return api.bindModule.applySync(undefined, [ns.derefInto()], { result: { copy: true }, ...stockTimeout(isolate) }) as string | null;
        },
      };
    },
    refreshGuestCache() {
      if (isolate.isDisposed) return;
      const script = isolate.compileScriptSync(guestSource, { filename: GUEST_FILE, produceCachedData: true });
      const produced = (script as unknown as { cachedData?: ExternalCopy<ArrayBuffer> }).cachedData;
      script.release();
      if (produced !== undefined) guestCache = produced;
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
