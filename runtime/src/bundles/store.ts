/**
 * @module bundles/store
 * Hosted bundles, and their source maps, by sha256: in memory (LRU by bytes; bundles only), on disk
 * under the data dir, and fetched from the control plane (`GET {CONTROL_PLANE_URL}/internal/v1/
 * bundles/{sha256}`, `…/source-maps/{sha256}`, with the shared secret) when neither has them, or
 * pushed by the internal API. Every byte string is checked against its hash before it is kept;
 * concurrent requests for one object share one fetch. A source map is only read by the sandbox
 * workers (sandbox/stacks.ts), from its file.
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

/** What is stored: where on disk, how large it may be, where the control plane serves it. */
interface Kind {
  /** `bundle`, `source map`: in messages. */
  label: string;
  dir: string;
  ext: string;
  maxBytes: number;
  /** Path under the control plane's `/internal/v1/`. */
  remote: string;
}

const BUNDLES: Kind = { label: 'bundle', dir: 'bundles', ext: '.js', maxBytes: LIMITS.manifest.hostedBundleBytes, remote: 'bundles' };
const SOURCE_MAPS: Kind = { label: 'source map', dir: 'source-maps', ext: '.map', maxBytes: LIMITS.hosted.sourceMapBytes, remote: 'source-maps' };

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const invalidSha = (label: string) =>
  new PlatformError('PlatformApiInvalidRequestError', `A ${label} sha256 is 64 lower-case hex digits`, { fields: { issues: [{ path: ['sha256'], message: 'Invalid sha256' }] } });

function createStore(deps: BundleStoreDeps, kind: Kind, memoryBytes: number) {
  const dir = join(deps.dataDir, kind.dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const memory = new Map<string, Uint8Array>();
  let memoryUsed = 0;
  // A store kept on disk only (source maps): what this process verified there needs no await.
  const onDisk = new Set<string>();
  const inFlight = new Map<string, Promise<string>>();
  const doFetch = deps.fetch ?? fetch;
  const prefix = join(dir, '/');
  const pathOf = (sha: string): string => `${prefix}${sha}${kind.ext}`;
  const Label = kind.label[0]!.toUpperCase() + kind.label.slice(1);

  const remember = (sha: string, bytes: Uint8Array): void => {
    if (memoryBytes === 0) {
      if (onDisk.size >= 100_000) onDisk.clear();
      onDisk.add(sha);
      return;
    }
    if (memory.has(sha) || bytes.byteLength > memoryBytes) return;
    memory.set(sha, bytes);
    memoryUsed += bytes.byteLength;
    for (const [key, value] of memory) {
      if (memoryUsed <= memoryBytes) break;
      memory.delete(key);
      memoryUsed -= value.byteLength;
    }
  };

  const keep = (sha: string, bytes: Uint8Array): string => {
    if (bytes.byteLength > kind.maxBytes) {
      throw new PlatformError('PlatformApiPayloadTooLargeError', `A ${kind.label} is limited to ${kind.maxBytes} bytes`, { fields: { limit: kind.maxBytes } });
    }
    if (sha256Hex(bytes) !== sha) throw new PlatformError('PlatformAppBundleInvalidError', `The ${kind.label} bytes do not match their sha256`);
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
    if (deps.controlPlaneUrl === null) throw new PlatformError('PlatformApiNotFoundError', `${Label} ${sha} is not on this node and no control plane is configured`);
    let res: Response;
    try {
      res = await doFetch(`${deps.controlPlaneUrl}/internal/v1/${kind.remote}/${sha}`, { headers: { authorization: `Bearer ${deps.secret}` }, signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new PlatformError('PlatformApiServiceUnavailableError', `The control plane could not be reached for the ${kind.label}`);
    }
    if (res.status === 404) throw new PlatformError('PlatformApiNotFoundError', `${Label} ${sha} does not exist`);
    if (!res.ok) throw new PlatformError('PlatformApiServiceUnavailableError', `The control plane answered ${res.status} for the ${kind.label}`);
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > kind.maxBytes) throw new PlatformError('PlatformAppBundleInvalidError', `The ${kind.label} is larger than allowed`);
    return keep(sha, new Uint8Array(await res.arrayBuffer()));
  };

  const touch = (sha: string): string | null => {
    const bytes = memory.get(sha);
    if (bytes !== undefined) {
      memory.delete(sha);
      memory.set(sha, bytes); // most recently used last
      return pathOf(sha);
    }
    return onDisk.has(sha) ? pathOf(sha) : null;
  };

  return {
    /** Where the file of `sha` is (or will be once fetched). */
    pathOf,
    /** The path of a verified file held in memory (on disk, for a disk-only store), or null: the hot path's way around `ensure`. */
    known(sha: string): string | null {
      return touch(sha);
    },
    /** The path of the verified file, fetching it if needed. */
    async ensure(sha: string): Promise<string> {
      if (!SHA256.test(sha)) throw invalidSha(kind.label);
      const hit = touch(sha);
      if (hit !== null) return hit;
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
      if (!SHA256.test(sha)) throw invalidSha(kind.label);
      return keep(sha, bytes);
    },
  };
}

/** @example const bundles = createBundleStore({ dataDir, memoryBytes: 256 << 20, controlPlaneUrl, secret }); await bundles.ensure(sha256); */
export function createBundleStore(deps: BundleStoreDeps) {
  return createStore(deps, BUNDLES, deps.memoryBytes);
}

/** Source maps beside the bundles, on disk only (the workers read them from there). */
export function createSourceMapStore(deps: BundleStoreDeps) {
  return createStore(deps, SOURCE_MAPS, 0);
}

export type BundleStore = ReturnType<typeof createBundleStore>;
export type SourceMapStore = ReturnType<typeof createSourceMapStore>;
