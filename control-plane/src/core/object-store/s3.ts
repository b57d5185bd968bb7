/**
 * @module core/object-store/s3
 * `ObjectStore` on an S3-compatible service (AWS S3, MinIO, Ceph, R2, …) with the four calls the
 * control plane needs: PutObject, GetObject, HeadObject and DeleteObject, signed with SigV4 by
 * `aws4fetch` (a few kilobytes, no dependencies; docs/decisions/fleet.md says why not the AWS SDK).
 * Objects are addressed path-style (`{endpoint}/{bucket}/{key}`), which every compatible service
 * answers and which needs no DNS name per bucket.
 */
import { AwsClient } from 'aws4fetch';
import type { S3Config } from '../config/config.ts';
import type { ObjectStore } from './object-store.ts';

/** Every call ends within this time (a bundle is at most 10 MB). */
const REQUEST_TIMEOUT_MS = 30_000;

export class ObjectStoreError extends Error {
  readonly status: number;
  constructor(operation: string, key: string, status: number, code: string | null) {
    super(`S3 ${operation} of ${key} answered ${status}${code === null ? '' : ` (${code})`}`);
    this.name = 'ObjectStoreError';
    this.status = status;
  }
}

/** The `<Code>` of an S3 error body, when there is one. */
async function errorCode(res: Response): Promise<string | null> {
  const text = await res.text().catch(() => '');
  return /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1] ?? null;
}

/**
 * @example
 * const objects = createS3ObjectStore({ endpoint: 'http://127.0.0.1:9000', bucket: 'bundles', region: 'us-east-1', accessKeyId, secretAccessKey, prefix: '' });
 * await objects.put('a.js', bytes);
 */
export function createS3ObjectStore(config: Omit<S3Config, 'prefix'>, fetchImpl: typeof fetch = fetch): ObjectStore {
  const client = new AwsClient({ accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, region: config.region, service: 's3' });
  // Each key segment is escaped on its own: slashes stay separators, anything else is a literal.
  const urlOf = (key: string) => `${config.endpoint}/${encodeURIComponent(config.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
  const call = async (method: string, key: string, body?: Uint8Array): Promise<Response> => {
    const init = { method, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...(body === undefined ? {} : { body: body as Uint8Array<ArrayBuffer> }) };
    return fetchImpl(await client.sign(urlOf(key), init));
  };
  const fail = async (operation: string, key: string, res: Response): Promise<never> => {
    throw new ObjectStoreError(operation, key, res.status, await errorCode(res));
  };

  return {
    async put(key, bytes) {
      const res = await call('PUT', key, bytes);
      if (!res.ok) await fail('PutObject', key, res);
      await res.body?.cancel();
    },
    async get(key) {
      const res = await call('GET', key);
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) await fail('GetObject', key, res);
      return new Uint8Array(await res.arrayBuffer());
    },
    async has(key) {
      const res = await call('HEAD', key);
      await res.body?.cancel();
      if (res.status === 404) return false;
      if (!res.ok) throw new ObjectStoreError('HeadObject', key, res.status, null);
      return true;
    },
    async delete(key) {
      const res = await call('DELETE', key);
      // S3 answers 204 whether or not the object existed; some compatible stores answer 404.
      if (!res.ok && res.status !== 404) await fail('DeleteObject', key, res);
      await res.body?.cancel();
    },
  };
}
