/**
 * Assets in the S3-compatible store when one is configured (BUNDLE_STORE=s3), like bundles: a copied
 * image's bytes go to the bucket under `{ASSET_S3_PREFIX}{sha256}` (signed requests, checked by the
 * test server), the database keeps only the index row, and `/assets/{id}` serves the bytes read back.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../fixtures/assets/images.ts';
import { startS3, type S3Server } from '../../helpers/s3.ts';
import { sourcesOf, startAssetsWorld, type AssetsWorld } from './setup.ts';

let s3: S3Server;
let w: AssetsWorld;
beforeAll(async () => {
  s3 = await startS3();
  w = await startAssetsWorld({
    env: { BUNDLE_STORE: 's3', S3_ENDPOINT: s3.url, S3_BUCKET: s3.bucket, S3_REGION: s3.region, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey, ASSET_S3_PREFIX: 'media/assets/' },
  });
});
afterAll(async () => {
  await w?.stop();
  await s3?.stop();
});

describe('assets with BUNDLE_STORE=s3', () => {
  it('a copy\'s bytes live in the bucket under the prefix; the database keeps the index; /assets serves them', async () => {
    const bytes = png(12, 7);
    const res = await w.insert({ title: 'In S3', images: [{ src: w.images.put('/s3.png', { bytes }), alt: 'Stored away' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [id] = sourcesOf(await w.storedTree(res.body.id));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(s3.requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toContain(`/${s3.bucket}/media/assets/${sha256}`);
    expect(s3.requests.every((r) => r.signed)).toBe(true);
    const { rows } = await w.stack.db.query<{ content: unknown; sha256: string }>('select content, sha256 from assets where id = $1', [id]);
    expect(rows).toEqual([{ content: null, sha256 }]);
    const served = await w.stack.fetch(`/assets/${id}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
