/**
 * @module core/object-store/object-store
 * What the control plane asks of an object store: whole objects put, read, checked and deleted by
 * key. Implemented for S3-compatible stores (`s3.ts`); hosted bundles use it when BUNDLE_STORE=s3.
 */

export interface ObjectStore {
  /** Stores `bytes` under `key`, replacing what was there. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The object's bytes, or null when there is no object under `key`. */
  get(key: string): Promise<Uint8Array | null>;
  has(key: string): Promise<boolean>;
  /** Removes the object; removing one that is not there is no error. */
  delete(key: string): Promise<void>;
}
