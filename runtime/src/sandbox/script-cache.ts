/**
 * @module sandbox/script-cache
 * Produces the code cache of a bundle's script form (bundle-script.ts) in a throwaway isolate with
 * no context: only compiling happens, no code runs, and nothing is left behind in an isolate that
 * will serve requests. The cache is this process's own product; V8 checks it again (source length,
 * V8 version and flags) each time it is consumed.
 */
import type { BundleScript } from './bundle-script.ts';
import type { ExternalCopy, Ivm } from './ivm.ts';
import { BUNDLE_FILE } from './slot.ts';

/** Rejects with the compile error when the script form (or its `arguments` probe) does not compile. */
export async function produceScriptCache(ivm: Ivm, script: BundleScript, memoryLimitMb: number): Promise<ExternalCopy<ArrayBuffer>> {
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb });
  try {
    if (script.argumentsProbe !== null) (await isolate.compileScript(script.argumentsProbe, { filename: BUNDLE_FILE })).release();
    const compiled = await isolate.compileScript(script.code, { filename: BUNDLE_FILE, lineOffset: script.lineOffset, produceCachedData: true });
    const cachedData = (compiled as unknown as { cachedData?: ExternalCopy<ArrayBuffer> }).cachedData;
    compiled.release();
    if (cachedData === undefined) throw new Error('V8 produced no code cache');
    return cachedData;
  } finally {
    isolate.dispose();
  }
}
