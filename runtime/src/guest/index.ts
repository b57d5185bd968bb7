/**
 * @module guest
 * The guest runtime: evaluated in every fresh context before the app's bundle. `setup` installs
 * the web globals and the capabilities, removes what the platform does not offer, and returns the
 * entry points the host keeps (as references the guest never sees).
 */
import { connect, deliver, type HostPost, type HostSync } from './bridge.ts';
import { GUEST_CAPABILITIES } from './capabilities/registry.ts';
import { structuredClone } from './clone.ts';
import { bindModule, dispatch, readManifest } from './dispatch.ts';
import { TextDecoder, TextEncoder, atob, btoa } from './encoding.ts';
import { describeError } from './errors.ts';
import { AbortController, AbortSignal, DOMException, Event, EventTarget, setReportError } from './events.ts';

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
  setReportError((err) => hostPost('console', 'line', 'error', `Uncaught ${describeError(err).message}`));

  // WebAssembly memory is allocated outside the isolate heap and escapes its memory limit.
  if (!options.allowWasm) Reflect.deleteProperty(globalThis, 'WebAssembly');
  // A blocked Atomics.wait burns no CPU yet holds the worker's executor; finalization callbacks run
  // outside any request, where no budget applies. Neither is offered.
  Reflect.deleteProperty(Atomics, 'wait');
  Reflect.deleteProperty(Atomics, 'waitAsync');
  Reflect.deleteProperty(globalThis, 'FinalizationRegistry');

  return { dispatch, deliver, bindModule, readManifest };
}
