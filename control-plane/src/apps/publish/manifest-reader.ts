/**
 * @module apps/publish/manifest-reader
 * The manifest a hosted bundle's code computes. Reading it means running untrusted code, so it
 * happens on a runtime node, in a fresh isolate under a CPU budget; the control plane only sees
 * the JSON answer (which it then validates like any manifest). `ManifestReader` is the seam; the
 * runtime-backed implementation lives in manifest-reader-runtime.ts.
 */
export interface BundleRef {
  appId: string;
  sha256: string;
  bytes: Uint8Array;
  /** The source map uploaded with the bundle: a load failure's frames then name the author's files. */
  sourceMap?: Uint8Array;
}

export interface ManifestReader {
  /**
   * Evaluates the stored bundle and answers its default export's `manifest` (unvalidated JSON).
   * Throws a `PlatformError`: `PlatformAppBundleInvalidError` (422) when the code does not load or
   * has no manifest, the runtime's CPU or memory limit tags, or `PlatformApiServiceUnavailableError`
   * when no runtime node answers.
   */
  read(bundle: BundleRef): Promise<unknown>;
}
