/**
 * Issue 20 item 5, the upload: a hosted bundle goes up with its source map (`multipart/form-data`,
 * parts `bundle` and `sourceMap`, what `platform deploy` sends), the map is stored by its own
 * sha256 beside the bundle, tied to the version (the record and the version list name it), served
 * to runtime nodes (`GET /internal/v1/source-maps/{sha256}`) and named in the app record they
 * resolve. Its limit is its own (`LIMITS.hosted.sourceMapBytes`, 20 MB: at the limit it is taken,
 * one byte over it is a tagged 413 naming the part); a map that is not one is refused with the
 * reason (400, `issues[].path` under `sourceMap`); a bundle that throws while it loads names the
 * line of the author's file that threw. Real runtime node on loopback.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@platform/sdk';
import { buildBundle } from '../../../cli/src/bundle.ts';
import type { CreatedWorkspace, Stack } from '../../helpers/stack.ts';
import { createApp } from './helpers.ts';
import { startStackWithRuntime, type StackWithRuntime } from './runtime.ts';

const MAP_MAX = LIMITS.hosted.sourceMapBytes;
const FIXTURES = fileURLToPath(new URL('../../fixtures/stacks/', import.meta.url));

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;
let out: string;

beforeAll(async () => {
  env = await startStackWithRuntime({ runtimeEnv: { RUNTIME_STARTUP_CPU_MS: '500' } });
  stack = env.stack;
  ws = await stack.createWorkspace();
  out = mkdtempSync(join(tmpdir(), 'source-maps-'));
}, 90_000);
afterAll(async () => {
  await env?.stop();
  rmSync(out, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const encode = (text: string) => new TextEncoder().encode(text);

const bundleOf = (slug: string, marker = '') => encode(`export default {
  manifest: ${JSON.stringify({ schemaVersion: 1, name: 'Mapped', slug, hosting: 'platform' })},
  fetch() { return new Response(${JSON.stringify(marker)}); },
};
`);

/** A version 3 map of one segment, padded with an extra field to exactly `size` bytes when given. */
function mapOf(size?: number): Uint8Array {
  const base = { version: 3, sources: ['app.ts'], names: [], mappings: 'AAAA' };
  if (size === undefined) return encode(JSON.stringify(base));
  const empty = JSON.stringify({ ...base, padding: '' }).length;
  const bytes = encode(JSON.stringify({ ...base, padding: 'x'.repeat(size - empty) }));
  expect(bytes.byteLength).toBe(size);
  return bytes;
}

function form(parts: Array<[string, Uint8Array, string]>): FormData {
  const f = new FormData();
  for (const [name, bytes, type] of parts) f.append(name, new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name === 'bundle' ? 'bundle.js' : 'bundle.js.map');
  return f;
}

async function upload(appId: string, body: FormData | Uint8Array, target: 'preview' | 'production' = 'preview'): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${ws.apiKey}` };
  if (!(body instanceof FormData)) headers['content-type'] = 'application/javascript';
  const res = await fetch(`${stack.url}/v0/apps/${appId}/versions?target=${target}`, { method: 'POST', headers, body: body as RequestInit['body'] });
  return { status: res.status, body: await res.json() };
}

const withMap = (bundle: Uint8Array, map: Uint8Array) => form([['bundle', bundle, 'application/javascript'], ['sourceMap', map, 'application/json']]);
const internal = (path: string) => stack.fetch(`/internal/v1${path}`, { headers: { authorization: `Bearer ${stack.config.runtimeSecret}` } });

describe('a bundle uploaded with its source map', () => {
  it('is stored by the map\'s own hash, tied to the version, served to runtime nodes and named in the record they resolve', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const bundle = bundleOf(app.slug);
    const map = mapOf();
    const res = await upload(app.id, withMap(bundle, map), 'production');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.bundle).toEqual({ sha256: sha(bundle), bytes: bundle.byteLength, sourceMap: { sha256: sha(map), bytes: map.byteLength } });

    const served = await internal(`/source-maps/${sha(map)}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/json');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(map);
    expect((await internal(`/source-maps/${'e'.repeat(64)}`)).status).toBe(404);

    const resolved = await (await internal(`/apps/${app.slug}/production`)).json() as { sourceMapSha256: string };
    expect(resolved.sourceMapSha256).toBe(sha(map));
    const listed = await stack.v0(ws.apiKey).get(`/apps/${app.id}/versions`);
    expect(listed.body.items[0].bundle.sourceMap).toEqual({ sha256: sha(map), bytes: map.byteLength });
  });

  it('again with the same map answers the version (created: false); the same bundle with another map is a new version; without a map, too', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const bundle = bundleOf(app.slug);
    const first = await upload(app.id, withMap(bundle, mapOf()));
    expect((await upload(app.id, withMap(bundle, mapOf()))).body).toMatchObject({ version: first.body.version, created: false });
    const other = encode(JSON.stringify({ version: 3, sources: ['lib/app.ts'], names: [], mappings: 'AAAA' }));
    expect((await upload(app.id, withMap(bundle, other))).body).toMatchObject({ version: first.body.version + 1, created: true, bundle: { sourceMap: { sha256: sha(other) } } });
    const plain = await upload(app.id, bundle);
    expect(plain.body).toMatchObject({ version: first.body.version + 2, created: true, bundle: { sourceMap: null } });
  });

  // 20 MB into the embedded Postgres and to the runtime node: slow on a loaded machine, hence the time it has.
  it('takes a map of exactly 20 MB; one byte more is a 413 naming the part and the limit', { timeout: 240_000 }, async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const atLimit = await upload(app.id, withMap(bundleOf(app.slug, 'at'), mapOf(MAP_MAX)));
    expect(atLimit.status, JSON.stringify(atLimit.body).slice(0, 300)).toBe(200);
    expect(atLimit.body.bundle.sourceMap.bytes).toBe(MAP_MAX);
    const over = await upload(app.id, withMap(bundleOf(app.slug, 'over'), mapOf(MAP_MAX + 1)));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ _tag: 'PlatformApiPayloadTooLargeError', message: `The source map is larger than ${MAP_MAX} bytes`, path: ['sourceMap'], limit: MAP_MAX });
  });

  it('keeps the bundle\'s own limit: a bundle part over 10 MB is a 413 naming the bundle', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const big = new Uint8Array(LIMITS.manifest.hostedBundleBytes + 1).fill(0x20);
    const over = await upload(app.id, withMap(big, mapOf()));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ _tag: 'PlatformApiPayloadTooLargeError', path: ['bundle'], limit: LIMITS.manifest.hostedBundleBytes });
  });

  it('refuses, with the reason, a map that is not one, and a form that is not an upload', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const bundle = bundleOf(app.slug);
    const cases: Array<[string, FormData, Array<string | number>, RegExp]> = [
      ['not JSON', withMap(bundle, encode('{ nope')), ['sourceMap'], /not JSON/],
      ['version 2', withMap(bundle, encode(JSON.stringify({ version: 2, sources: [], mappings: '' }))), ['sourceMap', 'version'], /version must be 3/],
      ['an index map', withMap(bundle, encode(JSON.stringify({ version: 3, sections: [] }))), ['sourceMap', 'sections'], /index maps/],
      ['mappings that are not VLQ', withMap(bundle, encode(JSON.stringify({ version: 3, sources: [], mappings: 'AA<script>' }))), ['sourceMap', 'mappings'], /Base64 VLQ/],
      ['sources that are not strings', withMap(bundle, encode(JSON.stringify({ version: 3, sources: [1], mappings: '' }))), ['sourceMap', 'sources', 0], /sources/],
      ['a part of another name', form([['bundle', bundle, 'application/javascript'], ['extra', bundle, 'text/plain']]), ['extra'], /Unknown part/],
      ['two bundles', form([['bundle', bundle, 'application/javascript'], ['bundle', bundle, 'application/javascript']]), ['bundle'], /More than one/],
      ['no bundle', form([['sourceMap', mapOf(), 'application/json']]), ['bundle'], /missing/],
    ];
    for (const [what, body, path, message] of cases) {
      const res = await upload(app.id, body);
      expect(res.status, what).toBe(400);
      expect(res.body._tag, what).toBe('PlatformApiInvalidRequestError');
      expect(res.body.issues[0].path, what).toEqual(path);
      expect(res.body.issues[0].message, what).toMatch(message);
    }
    // Nothing was recorded.
    expect((await stack.v0(ws.apiKey).get(`/apps/${app.id}/versions`)).body.items).toEqual([]);
  });

  it('a bundle that throws while it loads is refused with the line of the author\'s file that threw', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform', slug: 'load-error' });
    const built = await buildBundle({ entry: 'load-error.ts', cwd: FIXTURES, outfile: join(out, 'load-error', 'bundle.js') });
    const res = await upload(app.id, withMap(built.code, built.sourceMap));
    expect(res.status).toBe(422);
    expect(res.body._tag).toBe('PlatformAppBundleInvalidError');
    expect(res.body.message).toContain('The bundle failed to start: Error: the settings are missing on purpose');
    expect(res.body.message).toContain('at readSettings (load-error.ts:6:');
    expect(res.body.error.frames[0]).toMatchObject({ function: 'readSettings', file: 'load-error.ts', line: 6, raw: { file: 'app:///bundle.js' } });
  });

  it('a rollback serves the earlier bundle with the map it was uploaded with', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform' });
    const map = mapOf();
    const first = await upload(app.id, withMap(bundleOf(app.slug, 'one'), map), 'production');
    await upload(app.id, bundleOf(app.slug, 'two'), 'production');
    const rolled = await stack.v0(ws.apiKey).post(`/apps/${app.id}/rollback`, {});
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    expect(rolled.body).toMatchObject({ rollbackOf: first.body.version, bundle: { sha256: first.body.bundle.sha256, sourceMap: { sha256: sha(map) } } });
  });
});
