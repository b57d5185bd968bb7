/**
 * Hosted bundles shared by every control plane (apps/bundles): in the database by default, in an
 * S3-compatible store with BUNDLE_STORE=s3 (indexed in the database either way); checked against
 * their hash when read back; collected once no version refers to them and their last upload is
 * older than the grace period (the manual clock moves time), by one replica at a time; and bundles
 * of a data directory from before (DATA_DIR/bundles/xx/<sha256>.js) imported when a control plane
 * starts.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../control-plane/src/apps/bundles/service.ts';
import { createS3ObjectStore } from '../../../control-plane/src/core/object-store/s3.ts';
import { startTwin } from '../../helpers/fleet.ts';
import { startS3, type S3Server } from '../../helpers/s3.ts';
import { postgresState } from '../../helpers/services.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedWorkspace } from '../lifecycle/fixtures.ts';

const newBundle = () => {
  const bytes = new TextEncoder().encode(`export default { fetch() { return new Response(${JSON.stringify(randomBytes(8).toString('hex'))}); } };\n`);
  return { bytes, sha256: sha256Hex(bytes) };
};
const MINUTE = 60_000;
const usePostgres = (await postgresState()).kind === 'up';

/** A version of a new app that runs `sha256` (with the source map `mapSha256`), so the bundle (and the map) is referenced. */
async function referenced(stack: Stack, sha256: string, mapSha256?: string): Promise<void> {
  const setup = await seedWorkspace(stack);
  const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, hosting: 'platform', bundleSha256: sha256 });
  if (mapSha256 !== undefined) await stack.db.query('update app_versions set source_map_sha256 = $2, source_map_bytes = 1 where app_id = $1', [app.id, mapSha256]);
}

/** A source map (its bytes differ every time). */
const newMap = () => {
  const bytes = new TextEncoder().encode(JSON.stringify({ version: 3, sources: [`${randomBytes(8).toString('hex')}.ts`], names: [], mappings: 'AAAA' }));
  return { bytes, sha256: sha256Hex(bytes) };
};

describe('bundles in the database', () => {
  let stack: Stack;
  beforeAll(async () => {
    // On Postgres whenever one is reachable (DATABASE_URL, else the run's private server): the
    // collector's lock between replicas is Postgres's.
    stack = await startStack(usePostgres ? { db: 'postgres' } : {});
  }, 60_000);
  afterAll(async () => stack?.stop());
  const bundles = () => stack.controlPlane.apps.bundles;

  it('are stored once under their hash; storing them again only refreshes their upload time', async () => {
    const { bytes, sha256 } = newBundle();
    expect(await bundles().has(sha256)).toBe(false);
    expect(await bundles().get(sha256)).toBeNull();
    await bundles().put(sha256, bytes);
    const first = (await stack.db.query<{ stored_at: Date }>('select stored_at from bundles where sha256 = $1', [sha256])).rows[0]!.stored_at;
    stack.clock.advance(MINUTE);
    await bundles().put(sha256, bytes);
    const rows = (await stack.db.query<{ stored_at: Date; size_bytes: number }>('select stored_at, size_bytes from bundles where sha256 = $1', [sha256])).rows;
    expect(rows).toEqual([{ stored_at: new Date(first.getTime() + MINUTE), size_bytes: bytes.byteLength }]);
    expect(await bundles().has(sha256)).toBe(true);
    expect(new Uint8Array((await bundles().get(sha256))!)).toEqual(bytes);
    await expect(bundles().put(newBundle().sha256, bytes)).rejects.toThrow('do not hash');
  });

  it('are refused when the bytes read back do not hash to their address', async () => {
    const { bytes, sha256 } = newBundle();
    await bundles().put(sha256, bytes);
    await stack.db.query('update bundles set content = $2 where sha256 = $1', [sha256, Buffer.from('export default {};')]);
    await expect(bundles().get(sha256)).rejects.toThrow('corrupt');
  });

  it('are collected once no version refers to them and the grace period since their last upload passed', async () => {
    const grace = stack.config.bundleGc.graceMs;
    const collect = () => stack.controlPlane.apps.bundleCollector.collect();
    // Only this test's bundles: the earlier tests' would come due as the clock moves.
    await stack.db.query('delete from bundles');
    const used = newBundle();
    const orphan = newBundle();
    const touched = newBundle();
    for (const b of [used, orphan, touched]) await bundles().put(b.sha256, b.bytes);
    await referenced(stack, used.sha256);
    stack.clock.advance(grace - MINUTE);
    await bundles().put(touched.sha256, touched.bytes);
    const fresh = newBundle();
    await bundles().put(fresh.sha256, fresh.bytes);
    stack.clock.advance(2 * MINUTE);

    expect(await collect()).toBe(1);
    expect(await bundles().has(orphan.sha256)).toBe(false);
    expect(await bundles().has(used.sha256)).toBe(true);
    expect(await bundles().has(touched.sha256)).toBe(true);
    expect(await bundles().has(fresh.sha256)).toBe(true);

    stack.clock.advance(grace);
    expect(await collect()).toBe(2);
    expect(await bundles().has(used.sha256)).toBe(true);
    expect(await bundles().has(fresh.sha256)).toBe(false);
  });

  it('keep the source maps uploaded with them beside them, collected the same way once no version refers to them', async () => {
    const maps = stack.controlPlane.apps.sourceMaps;
    await stack.db.query('delete from source_maps');
    const bundle = newBundle();
    const used = newMap();
    const orphan = newMap();
    await bundles().put(bundle.sha256, bundle.bytes);
    for (const m of [used, orphan]) await maps.put(m.sha256, m.bytes);
    expect(await stack.db.query('select sha256 from bundles where sha256 = any($1::text[])', [[used.sha256, orphan.sha256]])).toMatchObject({ rows: [] });
    await referenced(stack, bundle.sha256, used.sha256);
    stack.clock.advance(stack.config.bundleGc.graceMs + MINUTE);
    await stack.controlPlane.apps.bundleCollector.collect();
    expect(await maps.has(orphan.sha256)).toBe(false);
    expect(new Uint8Array((await maps.get(used.sha256))!)).toEqual(used.bytes);
    expect(await bundles().has(bundle.sha256)).toBe(true);
  });

  it.runIf(usePostgres)('are collected by one replica at a time: another that holds the lock makes this run skip', async () => {
    const orphan = newBundle();
    await bundles().put(orphan.sha256, orphan.bytes);
    stack.clock.advance(stack.config.bundleGc.graceMs + MINUTE);
    const schema = (await stack.db.query<{ s: string }>('select current_schema() as s')).rows[0]!.s;
    const other = new pg.Client({ connectionString: stack.config.databaseUrl! });
    await other.connect();
    try {
      await other.query(`set search_path to "${schema}"`);
      await other.query('begin');
      await other.query(`select pg_advisory_xact_lock(hashtext('platform:bundle-collector:' || current_schema()))`);
      expect(await stack.controlPlane.apps.bundleCollector.collect()).toBe(0);
      expect(await bundles().has(orphan.sha256)).toBe(true);
      await other.query('commit');
      expect(await stack.controlPlane.apps.bundleCollector.collect()).toBeGreaterThanOrEqual(1);
      expect(await bundles().has(orphan.sha256)).toBe(false);
    } finally {
      await other.end();
    }
  });

  it('of an old data directory are imported when a control plane starts, corrupt files left out', async () => {
    const good = newBundle();
    const bad = newBundle();
    const twin = await startTwin(stack, {
      async prepareDataDir(dir) {
        for (const b of [good, bad]) await mkdir(join(dir, 'bundles', b.sha256.slice(0, 2)), { recursive: true });
        await writeFile(join(dir, 'bundles', good.sha256.slice(0, 2), `${good.sha256}.js`), good.bytes);
        await writeFile(join(dir, 'bundles', bad.sha256.slice(0, 2), `${bad.sha256}.js`), 'tampered');
      },
    });
    try {
      expect(new Uint8Array((await bundles().get(good.sha256))!)).toEqual(good.bytes);
      expect(await bundles().has(bad.sha256)).toBe(false);
      // A second start finds them stored: nothing is read or written again.
      expect(await twin.controlPlane.apps.importDiskBundles()).toEqual({ imported: 0, corrupt: 1 });
    } finally {
      await twin.stop();
    }
  });
});

describe('bundles in an S3-compatible store (BUNDLE_STORE=s3)', () => {
  let s3: S3Server;
  let stack: Stack;
  beforeAll(async () => {
    s3 = await startS3();
    stack = await startStack({
      env: { BUNDLE_STORE: 's3', S3_ENDPOINT: s3.url, S3_BUCKET: s3.bucket, S3_REGION: s3.region, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey },
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await s3?.stop();
  });
  const bundles = () => stack.controlPlane.apps.bundles;

  it('keep their bytes in the store under {prefix}{sha256}.js, indexed in the database, with signed requests', async () => {
    const { bytes, sha256 } = newBundle();
    s3.requests.length = 0;
    await bundles().put(sha256, bytes);
    const key = `/${s3.bucket}/bundles/${sha256}.js`;
    expect(s3.requests).toEqual([{ method: 'HEAD', path: key, signed: true }, { method: 'PUT', path: key, signed: true }]);
    const { rows } = await stack.db.query<{ content: Uint8Array | null }>('select content from bundles where sha256 = $1', [sha256]);
    expect(rows).toEqual([{ content: null }]);

    // Uploaded again: the object is there, so it is not sent again.
    s3.requests.length = 0;
    await bundles().put(sha256, bytes);
    expect(s3.requests.map((r) => r.method)).toEqual(['HEAD']);

    const res = await stack.fetch(`/internal/v1/bundles/${sha256}`, { headers: { authorization: `Bearer ${stack.config.runtimeSecret}` } });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it('fail loudly when the store refuses the signature', async () => {
    const wrong = createS3ObjectStore({ endpoint: s3.url, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: 'not-the-secret' });
    await expect(wrong.put('bundles/x.js', new Uint8Array([1]))).rejects.toThrow('403 (SignatureDoesNotMatch)');
  });

  it('are refused when the object does not hash to its address', async () => {
    const { bytes, sha256 } = newBundle();
    await bundles().put(sha256, bytes);
    const objects = createS3ObjectStore({ endpoint: s3.url, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    await objects.put(`bundles/${sha256}.js`, new TextEncoder().encode('export default {};'));
    await expect(bundles().get(sha256)).rejects.toThrow('corrupt');
  });

  it('keep a source map under {prefix}{sha256}.map, which loses its object with its row when collected', async () => {
    const maps = stack.controlPlane.apps.sourceMaps;
    const orphan = newMap();
    s3.requests.length = 0;
    await maps.put(orphan.sha256, orphan.bytes);
    const key = `/${s3.bucket}/bundles/${orphan.sha256}.map`;
    expect(s3.requests).toEqual([{ method: 'HEAD', path: key, signed: true }, { method: 'PUT', path: key, signed: true }]);
    expect(new Uint8Array((await maps.get(orphan.sha256))!)).toEqual(orphan.bytes);
    stack.clock.advance(stack.config.bundleGc.graceMs + MINUTE);
    s3.requests.length = 0;
    expect(await stack.controlPlane.apps.bundleCollector.collect()).toBeGreaterThanOrEqual(1);
    expect(s3.requests).toContainEqual({ method: 'DELETE', path: key, signed: true });
    expect(await maps.has(orphan.sha256)).toBe(false);
  });

  it('lose their object with their row when collected', async () => {
    const orphan = newBundle();
    await bundles().put(orphan.sha256, orphan.bytes);
    stack.clock.advance(stack.config.bundleGc.graceMs + MINUTE);
    s3.requests.length = 0;
    expect(await stack.controlPlane.apps.bundleCollector.collect()).toBeGreaterThanOrEqual(1);
    expect(s3.requests).toContainEqual({ method: 'DELETE', path: `/${s3.bucket}/bundles/${orphan.sha256}.js`, signed: true });
    expect(await bundles().has(orphan.sha256)).toBe(false);
    const objects = createS3ObjectStore({ endpoint: s3.url, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    expect(await objects.has(`bundles/${orphan.sha256}.js`)).toBe(false);
  });
});
