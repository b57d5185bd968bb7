// No shared memory for guests: SharedArrayBuffer is not a global, and no other route reaches one
// (typed arrays, structuredClone, and with RUNTIME_ALLOW_WASM shared WebAssembly memories however
// they are asked for). Shared memory is what turns a second agent into a high-resolution timer
// (Spectre-style reads) and what wasm's and Atomics' blocking waits need; isolated-vm would also
// share, not copy, its bytes with the host. Atomics.wait stays absent either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, startRuntime, whileServing, type TestRuntime } from '../runtime/support/runtime.ts';

let plain: TestRuntime;
let withWasm: TestRuntime;

beforeAll(async () => {
  [plain, withWasm] = await Promise.all([startRuntime({ RUNTIME_WORKERS: '1' }), startRuntime({ RUNTIME_WORKERS: '1', RUNTIME_ALLOW_WASM: 'true' })]);
  for (const rt of [plain, withWasm]) {
    await rt.deploy('hostile', fixture('hostile'));
    await rt.deploy('neighbour', fixture('neighbour'));
  }
});
afterAll(async () => {
  await Promise.all([plain?.stop(), withWasm?.stop()]);
});

async function probes(rt: TestRuntime): Promise<Record<string, unknown>> {
  const { result, served, failed } = await whileServing(rt, 'neighbour', async () => {
    const res = await rt.route('hostile', '/shared-memory');
    expect(res.status).toBe(200);
    return await res.json() as Record<string, unknown>;
  });
  expect(failed).toEqual([]);
  expect(served).toBeGreaterThan(0);
  return result;
}

const common = {
  typeof: 'undefined',
  inGlobal: false,
  viaFunction: 'undefined',
  ownNames: [],
  typedArrayBuffer: 'ArrayBuffer',
  resizableBuffer: 'ArrayBuffer',
  cloned: false,
  atomicsWait: 'undefined',
  atomicsWaitAsync: 'undefined',
};

describe('SharedArrayBuffer', () => {
  it('is undefined in guests, and typed arrays and structuredClone give plain ArrayBuffers', async () => {
    expect(await probes(plain)).toEqual({ ...common, wasm: 'undefined' });
  });

  it('cannot be reached through WebAssembly when wasm is allowed, while unshared wasm memory still works', async () => {
    expect(await probes(withWasm)).toEqual({
      ...common,
      wasm: 'object',
      unsharedMemory: '[object ArrayBuffer]',
      unsharedModule: '[object ArrayBuffer]',
      unsharedInstantiate: '[object ArrayBuffer]',
      sharedMemory: 'threw TypeError',
      // `shared` is read once, as false: the memory made is not shared, whatever a second read says.
      sharedMemoryFlippingGetter: false,
      sharedMemoryViaPrototype: 'threw TypeError',
      sharedMemoryViaReflect: 'threw TypeError',
      sharedModule: 'threw CompileError',
      sharedModuleBuffer: 'threw CompileError',
      sharedModuleDataView: 'threw CompileError',
      sharedModuleSecondMemory: 'threw CompileError',
      sharedModuleViaPrototype: 'threw CompileError',
      sharedModuleSubclass: 'threw CompileError',
      sharedModuleLyingView: 'threw CompileError',
      sharedCompile: 'threw CompileError',
      sharedInstantiate: 'threw CompileError',
      sharedInstantiateDisguised: 'threw CompileError',
      importsShared: 'threw LinkError',
      streaming: ['undefined', 'undefined'],
      bufferCtorAfterWasm: 'function',
      // Errors from inside the engine's wasm API hand no function or receiver to prepareStackTrace.
      framesModule: [],
      framesMemory: [],
      framesInstance: [],
      framesCompile: [],
      framesInstantiate: [],
    });
  });
});
