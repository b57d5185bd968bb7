/**
 * @module sandbox/ivm
 * Loads isolated-vm (a native CommonJS addon) into a sandbox worker process. Only worker processes
 * load it; the supervisor never does, so a V8 fault in an isolate cannot take the HTTP front down.
 */
import { createRequire } from 'node:module';
import type IvmModule from 'isolated-vm';

export type Ivm = typeof IvmModule;
export type Isolate = IvmModule.Isolate;
export type Context = IvmModule.Context;
export type Reference<T = unknown> = IvmModule.Reference<T>;
export type Module = IvmModule.Module;
export type ExternalCopy<T = unknown> = IvmModule.ExternalCopy<T>;

export function loadIvm(): Ivm {
  const require = createRequire(import.meta.url);
  return require('isolated-vm') as Ivm;
}
