/**
 * @module guest
 * The guest runtime: evaluated in every fresh context before the app's bundle. `setup` installs
 * the web globals and the capabilities, removes what the platform does not offer, and returns the
 * entry points the host keeps (as references the guest never sees).
 */
import { connect, deliver, type HostPost, type HostSync } from './web/bridge.ts';
import { GUEST_CAPABILITIES } from './capabilities/registry.ts';
import { structuredClone } from './web/clone.ts';
import { bindModule, dispatch, postErrorLine, readManifest } from './dispatch.ts';
import { TextDecoder, TextEncoder, atob, btoa } from './web/encoding.ts';
import { AbortController, AbortSignal, DOMException, Event, EventTarget, setReportError } from './web/events.ts';

export interface SetupOptions {
  allowWasm: boolean;
}

function define(name: string, value: unknown): void {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

export function setup(hostSync: HostSync, hostPost: HostPost, options: SetupOptions) {
  connect(hostSync, hostPost);
  const primitives: Record<string, unknown> = {
    TextEncoder, TextDecoder, atob, btoa, structuredClone,
    DOMException, Event, EventTarget, AbortController, AbortSignal,
  };
  for (const name of Object.keys(primitives)) define(name, primitives[name]);
  define('self', globalThis);
  for (const capability of GUEST_CAPABILITIES) capability.install(define);
  setReportError((err) => postErrorLine('Uncaught ', err));

  // WebAssembly memory is allocated outside the isolate heap and escapes its memory limit.
  if (!options.allowWasm) Reflect.deleteProperty(globalThis, 'WebAssembly');
  // A blocked Atomics.wait burns no CPU yet holds the worker's executor; finalization callbacks run
  // outside any request, where no budget applies. Neither is offered.
  Reflect.deleteProperty(Atomics, 'wait');
  Reflect.deleteProperty(Atomics, 'waitAsync');
  Reflect.deleteProperty(globalThis, 'FinalizationRegistry');
  removeSharedMemory();

  return { dispatch, deliver, bindModule, readManifest };
}

/**
 * No shared memory for guests: no `SharedArrayBuffer` global, and no other way to one.
 * - Shared memory is what turns any second agent writing a counter into a clock far finer than the
 *   coarse `Date.now()` guests get: the timer that Spectre-style reads of memory they must not see
 *   depend on (browsers give it only to cross-origin-isolated pages for that reason).
 * - It is what blocking waits need: `Atomics.wait` (removed above) and wasm's
 *   `memory.atomic.wait32/64`, which trap on unshared memory. A blocked guest burns no CPU, so its
 *   budget never stops it, yet it holds the worker's executor for every app on that worker.
 * - isolated-vm shares, rather than copies, a SharedArrayBuffer's memory when one crosses the
 *   boundary, so host code could read bytes the guest is still changing, in memory that can outlive
 *   the isolate.
 * Other routes, each closed: typed arrays and `structuredClone` (ours) only make ArrayBuffers; with
 * wasm allowed, `new WebAssembly.Memory({ shared: true })`, and modules that define a shared memory,
 * however they are compiled (Module, compile, instantiate; the original constructors are not left
 * reachable through a prototype's `constructor`). A module that imports a shared memory cannot be
 * linked, since no shared memory can be made to give it.
 */
function removeSharedMemory(): void {
  Reflect.deleteProperty(globalThis, 'SharedArrayBuffer');
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (wasm !== undefined) refuseSharedWasmMemory(wasm);
}

interface WasmApi {
  Memory: new (descriptor: unknown) => object;
  Module: new (bytes: unknown) => object;
  Instance: new (module: object, imports?: unknown) => object;
  CompileError: new (message: string) => Error;
}

/**
 * Refuses a module whose memory section (id 5) defines a shared memory: bit 1 of a memory's limits
 * flags. The bytes are V8's to judge otherwise; what cannot be read here is refused too. `b` is a
 * copy made by the caller, and nothing here reads a global a guest could have changed.
 */
function refuseSharedMemories(b: Uint8Array, CompileError: WasmApi['CompileError']): void {
  const unreadable = (): Error => new CompileError('The WebAssembly module could not be read');
  let i = 8; // magic and version
  const leb = (maxBytes: number): number => {
    let value = 0;
    for (let n = 0; n < maxBytes && i < b.length; n++) {
      const byte = b[i++]!;
      value += (byte & 0x7f) * 2 ** (7 * n);
      if ((byte & 0x80) === 0) return value;
    }
    throw unreadable();
  };
  while (i < b.length) {
    const id = b[i++];
    const size = leb(5);
    const end = i + size;
    if (id === 5) {
      for (let count = leb(5); count > 0; count--) {
        const flags = leb(5);
        // Bit 0: a maximum follows; 1: shared; 2: 64-bit limits; 3: a page size follows.
        if ((flags & 0x2) !== 0) throw new CompileError('WebAssembly modules with shared memory are not available');
        if (flags > 0xf) throw unreadable();
        leb(10);
        if ((flags & 0x1) !== 0) leb(10);
        if ((flags & 0x8) !== 0) leb(5);
      }
    }
    i = end;
  }
}

function refuseSharedWasmMemory(wasm: WasmApi): void {
  // Everything used when a guest calls in is captured now, before any guest code can change it.
  const { Memory: NativeMemory, Module: NativeModule, CompileError } = wasm;
  const { apply, construct, getOwnPropertyDescriptor, ownKeys } = Reflect;
  const { isView } = ArrayBuffer;
  const rejected = Promise.reject.bind(Promise);
  const resolved = Promise.resolve.bind(Promise) as (value: unknown) => Promise<unknown>;
  const U8 = Uint8Array;
  const getter = (proto: object, name: string): (() => unknown) => getOwnPropertyDescriptor(proto, name)!.get!;
  const typedArray = Object.getPrototypeOf(U8.prototype) as object;
  const viewOf = { buffer: getter(typedArray, 'buffer'), byteOffset: getter(typedArray, 'byteOffset'), byteLength: getter(typedArray, 'byteLength') };
  const dataViewOf = { buffer: getter(DataView.prototype, 'buffer'), byteOffset: getter(DataView.prototype, 'byteOffset'), byteLength: getter(DataView.prototype, 'byteLength') };
  const arrayBufferLength = getter(ArrayBuffer.prototype, 'byteLength');
  const copyInto = getOwnPropertyDescriptor(typedArray, 'set')!.value as (source: Uint8Array) => void;

  // A copy of the bytes of a BufferSource, read from its internal slots (own properties and
  // prototypes cannot lie to it), so the bytes checked are the bytes compiled; null for anything else.
  const bytesOf = (source: unknown): Uint8Array | null => {
    let window: Uint8Array;
    if (isView(source)) {
      let of = viewOf;
      try { apply(of.buffer, source, []); } catch { of = dataViewOf; }
      window = new U8(apply(of.buffer, source, []) as ArrayBuffer, apply(of.byteOffset, source, []) as number, apply(of.byteLength, source, []) as number);
    } else {
      try { apply(arrayBufferLength, source, []); } catch { return null; }
      window = new U8(source as ArrayBuffer);
    }
    const copy = new U8(window.length);
    apply(copyInto, copy, [window]);
    return copy;
  };

  const checked = (source: unknown): unknown => {
    const bytes = bytesOf(source);
    if (bytes === null) return source; // a compiled Module (made here, so checked), or V8 refuses it
    if (bytes.length >= 8) refuseSharedMemories(bytes, CompileError);
    return bytes;
  };

  const SafeModule = function Module(bytes: unknown): object {
    if (new.target === undefined) throw new TypeError("WebAssembly.Module must be invoked with 'new'");
    return construct(NativeModule, [checked(bytes)], new.target) as object;
  };
  const SafeMemory = function Memory(descriptor: unknown): object {
    if (new.target === undefined) throw new TypeError("WebAssembly.Memory must be invoked with 'new'");
    if (typeof descriptor !== 'object' || descriptor === null) return construct(NativeMemory, [descriptor], new.target) as object;
    // Each field read once, into a plain object: a getter cannot answer one way here and another to V8.
    const d = descriptor as Record<string, unknown>;
    if (d.shared) throw new TypeError('Shared WebAssembly memory is not available');
    const plain = { initial: d.initial, minimum: d.minimum, maximum: d.maximum, address: d.address, index: d.index, shared: false };
    return construct(NativeMemory, [plain], new.target) as object;
  };
  for (const [Safe, Native] of [[SafeModule, NativeModule], [SafeMemory, NativeMemory]] as const) {
    for (const key of ownKeys(Native)) {
      if (key !== 'length' && key !== 'name') Object.defineProperty(Safe, key, getOwnPropertyDescriptor(Native, key)!);
    }
    Object.defineProperty(Native.prototype as object, 'constructor', { value: Safe, writable: true, configurable: true, enumerable: false });
  }
  // The asynchronous compiles run synchronously, settling a promise: guest code runs only in the
  // host's synchronous entries, which never run V8's background-compile completion tasks (the promise
  // of a native `WebAssembly.compile` would never settle), and a continuation run outside an entry
  // would escape the request's CPU budget. Compiling here is the guest's own CPU, as it should be.
  const { Instance: NativeInstance } = wasm;
  // A compiled module by its internal slot (Module.exports throws for anything else), not by a
  // prototype the guest can set on any object.
  const moduleExports = (NativeModule as unknown as { exports: (m: unknown) => unknown }).exports;
  const isModule = (value: unknown): boolean => {
    try { moduleExports(value); return true; } catch { return false; }
  };
  const methods = {
    compile(bytes: unknown): Promise<object> {
      try { return resolved(construct(NativeModule, [checked(bytes)]) as object) as Promise<object>; } catch (err) { return rejected(err); }
    },
    instantiate(source: unknown, imports?: unknown): Promise<unknown> {
      try {
        if (isModule(source)) return resolved(construct(NativeInstance, [source, imports]));
        const module = construct(NativeModule, [checked(source)]) as object;
        return resolved({ module, instance: construct(NativeInstance, [module, imports]) });
      } catch (err) {
        return rejected(err);
      }
    },
  };
  const replace = (name: string, value: unknown): void => {
    Object.defineProperty(wasm, name, { value, writable: true, configurable: true, enumerable: false });
  };
  replace('Module', SafeModule);
  replace('Memory', SafeMemory);
  replace('compile', methods.compile);
  replace('instantiate', methods.instantiate);
  // Streaming compiles take a Response the guest builds; they are not offered.
  Reflect.deleteProperty(wasm, 'compileStreaming');
  Reflect.deleteProperty(wasm, 'instantiateStreaming');
}
