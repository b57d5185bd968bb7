/**
 * @module bundles/store
 * Hosted bundles by sha256: in memory (LRU by bytes), on disk under the data dir, and fetched from
 * the control plane (`GET {CONTROL_PLANE_URL}/internal/v1/bundles/{sha256}` with the shared secret)
 * when neither has them, or pushed by the internal API. Every byte string is checked against its
 * hash before it is kept; concurrent requests for one bundle share one fetch.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS, PlatformError } from '@platform/sdk';

export const SHA256 = /^[0-9a-f]{64}$/;

export interface BundleStoreDeps {
  dataDir: string;
  memoryBytes: number;
  controlPlaneUrl: string | null;
  secret: string;
  fetch?: typeof fetch;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function createBundleStore(deps: BundleStoreDeps) {
  const dir = join(deps.dataDir, 'bundles');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const memory = new Map<string, Uint8Array>();
  let memoryUsed = 0;
  const inFlight = new Map<string, Promise<string>>();
  const doFetch = deps.fetch ?? fetch;
  const prefix = join(dir, '/');
  const pathOf = (sha: string): string => `${prefix}${sha}.js`;

  const remember = (sha: string, bytes: Uint8Array): void => {
    if (memory.has(sha) || bytes.byteLength > deps.memoryBytes) return;
    memory.set(sha, bytes);
    memoryUsed += bytes.byteLength;
    for (const [key, value] of memory) {
      if (memoryUsed <= deps.memoryBytes) break;
      memory.delete(key);
      memoryUsed -= value.byteLength;
    }
  };

  const keep = (sha: string, bytes: Uint8Array): string => {
    if (bytes.byteLength > LIMITS.manifest.hostedBundleBytes) {
      throw new PlatformError('PlatformApiPayloadTooLargeError', `Hosted bundles are limited to ${LIMITS.manifest.hostedBundleBytes} bytes`, { fields: { limit: LIMITS.manifest.hostedBundleBytes } });
    }
    if (sha256Hex(bytes) !== sha) throw new PlatformError('PlatformAppBundleInvalidError', 'The bundle bytes do not match their sha256');
    const path = pathOf(sha);
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, path);
    remember(sha, bytes);
    return path;
  };

  const fromDisk = (sha: string): string | null => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(pathOf(sha));
    } catch {
      return null;
    }
    // A file we did not write whole, or that changed on disk, is not trusted.
    if (sha256Hex(bytes) !== sha) return null;
    remember(sha, bytes);
    return pathOf(sha);
  };

  const fromControlPlane = async (sha: string): Promise<string> => {
    if (deps.controlPlaneUrl === null) throw new PlatformError('PlatformApiNotFoundError', `Bundle ${sha} is not on this node and no control plane is configured`);
    let res: Response;
    try {
      res = await doFetch(`${deps.controlPlaneUrl}/internal/v1/bundles/${sha}`, { headers: { authorization: `Bearer ${deps.secret}` }, signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new PlatformError('PlatformApiServiceUnavailableError', 'The control plane could not be reached for the bundle');
    }
    if (res.status === 404) throw new PlatformError('PlatformApiNotFoundError', `Bundle ${sha} does not exist`);
    if (!res.ok) throw new PlatformError('PlatformApiServiceUnavailableError', `The control plane answered ${res.status} for the bundle`);
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > LIMITS.manifest.hostedBundleBytes) throw new PlatformError('PlatformAppBundleInvalidError', 'The bundle is larger than allowed');
    return keep(sha, new Uint8Array(await res.arrayBuffer()));
  };

  return {
    /** The path of a bundle held in memory (verified), or null: the hot path's way around `ensure`. */
    known(sha: string): string | null {
      const bytes = memory.get(sha);
      if (bytes === undefined) return null;
      memory.delete(sha);
      memory.set(sha, bytes); // most recently used last
      return pathOf(sha);
    },
    /** The path of the verified bundle file, fetching it if needed. */
    async ensure(sha: string): Promise<string> {
      if (!SHA256.test(sha)) throw new PlatformError('PlatformApiInvalidRequestError', 'A bundle sha256 is 64 lower-case hex digits', { fields: { issues: [{ path: ['sha256'], message: 'Invalid sha256' }] } });
      if (memory.has(sha)) {
        const bytes = memory.get(sha)!;
        memory.delete(sha);
        memory.set(sha, bytes); // most recently used last
        return pathOf(sha);
      }
      const pending = inFlight.get(sha);
      if (pending !== undefined) return pending;
      const work = (async () => fromDisk(sha) ?? await fromControlPlane(sha))();
      inFlight.set(sha, work);
      try {
        return await work;
      } finally {
        inFlight.delete(sha);
      }
    },
    /** Stores pushed bytes after checking them against `sha`. */
    put(sha: string, bytes: Uint8Array): string {
      if (!SHA256.test(sha)) throw new PlatformError('PlatformApiInvalidRequestError', 'A bundle sha256 is 64 lower-case hex digits', { fields: { issues: [{ path: ['sha256'], message: 'Invalid sha256' }] } });
      return keep(sha, bytes);
    },
  };
}

export type BundleStore = ReturnType<typeof createBundleStore>;
