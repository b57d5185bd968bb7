/**
 * `/internal/v1` (what runtime nodes fetch): only with the shared RUNTIME_SECRET; bundles by
 * sha256 from the bundle store (the database, nothing under DATA_DIR), answered byte for byte; nothing for
 * unknown or malformed hashes; no production version for apps that have none.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { createApp, selfManifest, sync } from './helpers.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack.stop());

const internal = (path: string, secret: string | null = stack.config.runtimeSecret) =>
  stack.fetch(`/internal/v1${path}`, secret === null ? {} : { headers: { authorization: `Bearer ${secret}` } });

describe('internal API for runtime nodes', () => {
  it('answers only with the shared secret', async () => {
    expect((await internal('/bundles/' + 'a'.repeat(64), null)).status).toBe(401);
    const wrong = await internal('/bundles/' + 'a'.repeat(64), 'not-the-runtime-secret');
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as any)._tag).toBe('PlatformAppTokenInvalidError');
  });

  it('serves a stored bundle by its sha256, stored in the database and not on disk', async () => {
    const bytes = new TextEncoder().encode('export default { manifest: {}, fetch() { return new Response("ok"); } };\n');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await stack.controlPlane.apps.bundles.put(sha256, bytes);
    const { rows } = await stack.db.query<{ content: Uint8Array }>('select content from bundles where sha256 = $1', [sha256]);
    expect(new Uint8Array(rows[0]!.content)).toEqual(bytes);
    expect(await readdir(stack.config.dataDir)).toEqual([]);

    const res = await internal(`/bundles/${sha256}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript');
    expect(res.headers.get('etag')).toBe(`"${sha256}"`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);

    expect((await internal(`/bundles/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await internal('/bundles/..%2F..%2Fmaster.key')).status).toBe(404);
    await expect(stack.controlPlane.apps.bundles.put('0'.repeat(64), bytes)).rejects.toThrow();
  });

  it('has no production version for unknown slugs, self-hosted apps, or hosted apps without an upload', async () => {
    expect((await internal('/apps/nobody-here/production')).status).toBe(404);
    const ws = await stack.createWorkspace();
    const { app } = await createApp(ws.client);
    await sync(stack, ws.apiKey, app.id, selfManifest(app.slug), 'production');
    expect((await internal(`/apps/${app.slug}/production`)).status).toBe(404);
    const { app: hosted } = await createApp(ws.client, { hosting: 'platform' });
    await sync(stack, ws.apiKey, hosted.id, selfManifest(hosted.slug, { hosting: 'platform', endpoint: undefined }), 'preview');
    expect((await internal(`/apps/${hosted.slug}/production`)).status).toBe(404);
  });
});
