/**
 * @module apps/publish/manifest-reader-runtime
 * The `ManifestReader` backed by a runtime node, through the runtime's own client
 * (`createRuntimeClient`, `POST /internal/v1/manifest` with the shared secret). The bundle's bytes
 * travel with the request, so the node needs nothing from us to read it (and keeps it warm for the
 * deliveries that follow). The node evaluates it in a fresh isolate under its startup CPU budget.
 */
import { createRuntimeClient, RuntimeClientError, type RuntimeClient } from '@platform/runtime';
import { PlatformError, type ErrorTag } from '@platform/sdk';
import type { BundleRef, ManifestReader } from './manifest-reader.ts';

// Faults of the bundle itself, passed on to the uploader; anything else is the runtime's problem.
const BUNDLE_FAULTS: ReadonlySet<string> = new Set<ErrorTag>(['PlatformAppBundleInvalidError', 'PlatformRuntimeCpuLimitError', 'PlatformRuntimeMemoryLimitError']);

const unavailable = (cause: unknown) =>
  new PlatformError('PlatformApiServiceUnavailableError', 'No runtime node could read the bundle\'s manifest; try again shortly', { cause });

/**
 * @example
 * const reader = createRuntimeManifestReader({ url: config.runtimeUrl, secret: config.runtimeSecret });
 * const manifest = await reader.read({ appId, sha256, bytes });
 */
export function createRuntimeManifestReader(options: { url: string; secret: string } | { client: Pick<RuntimeClient, 'manifest'> }): ManifestReader {
  const client = 'client' in options ? options.client : createRuntimeClient({ url: options.url, secret: options.secret });
  return {
    async read(bundle: BundleRef) {
      try {
        const answer = await client.manifest(bundle.sourceMap === undefined ? { bundle: bundle.bytes } : { bundle: bundle.bytes, sourceMap: bundle.sourceMap });
        if (answer.sha256 !== bundle.sha256) throw unavailable(new Error('The runtime node read other bytes than the ones sent'));
        return answer.manifest;
      } catch (err) {
        if (err instanceof PlatformError) throw err;
        const body = err instanceof RuntimeClientError ? err.body : null;
        if (body !== null && BUNDLE_FAULTS.has(body._tag)) {
          const { _tag, message, path: _path, ...fields } = body;
          throw new PlatformError(_tag as ErrorTag, message.slice(0, 2_000), { fields });
        }
        throw unavailable(err);
      }
    },
  };
}
