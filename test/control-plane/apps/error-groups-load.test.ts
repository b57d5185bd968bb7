/**
 * Issue 25 item 3, load errors at deploy: a bundle refused at upload because it throws while it
 * loads is an error group like any other error. Its occurrence is a line of the app's log (linked
 * as the group's example), with the frame of the author's file that threw (the source map went up
 * with the bundle); uploading it again counts the same group twice; a bundle that runs past its
 * startup CPU budget is a `limit` group. No version was made, so the group's version is unknown.
 * Real runtime node on loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../../cli/src/bundle.ts';
import type { CreatedWorkspace, Stack } from '../../helpers/stack.ts';
import { createApp } from './helpers.ts';
import { startStackWithRuntime, type StackWithRuntime } from './runtime.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/stacks/', import.meta.url));

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;
let out: string;

beforeAll(async () => {
  env = await startStackWithRuntime({ runtimeEnv: { RUNTIME_STARTUP_CPU_MS: '200' } });
  stack = env.stack;
  ws = await stack.createWorkspace();
  out = mkdtempSync(join(tmpdir(), 'error-groups-load-'));
}, 90_000);
afterAll(async () => {
  await env?.stop();
  rmSync(out, { recursive: true, force: true });
});

async function upload(appId: string, body: FormData | Uint8Array): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${ws.apiKey}` };
  if (!(body instanceof FormData)) headers['content-type'] = 'application/javascript';
  const res = await fetch(`${stack.url}/v0/apps/${appId}/versions?target=preview`, { method: 'POST', headers, body: body as RequestInit['body'] });
  return { status: res.status, body: await res.json() };
}

function withMap(bundle: Uint8Array, map: Uint8Array): FormData {
  const form = new FormData();
  form.append('bundle', new Blob([bundle as Uint8Array<ArrayBuffer>], { type: 'application/javascript' }), 'bundle.js');
  form.append('sourceMap', new Blob([map as Uint8Array<ArrayBuffer>], { type: 'application/json' }), 'bundle.js.map');
  return form;
}

describe('a bundle that does not load at upload', () => {
  it('is an error group with the author\'s frame, its example the refusal\'s log line, counted on each upload', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform', slug: 'load-error-group' });
    const built = await buildBundle({ entry: 'load-error.ts', cwd: FIXTURES, outfile: join(out, 'load-error', 'bundle.js') });
    for (let i = 0; i < 2; i++) expect((await upload(app.id, withMap(built.code, built.sourceMap))).status).toBe(422);

    const groups = await stack.v0(ws.apiKey).get(`/apps/${app.id}/errors`);
    expect(groups.status).toBe(200);
    expect(groups.body.items).toHaveLength(1);
    const group = groups.body.items[0];
    expect(group).toMatchObject({ level: 'error', name: 'Error', message: 'the settings are missing on purpose', count: 2, installs: 0, versions: [{ version: null, count: 2 }] });
    expect(group.topFrame).toMatchObject({ function: 'readSettings', file: 'load-error.ts' });

    const detail = await stack.v0(ws.apiKey).get(`/apps/${app.id}/errors/${group.id}`);
    expect(detail.body.examples).toHaveLength(2);
    expect(detail.body.examples[0].line).toMatchObject({ kind: 'lifecycle', level: 'error', version: null, message: expect.stringMatching(/^Upload to preview refused: The bundle failed to start: Error: the settings are missing on purpose/) });
    expect(detail.body.examples[0].line.error.frames[0]).toMatchObject({ function: 'readSettings', file: 'load-error.ts', line: 6 });
    // Nothing was recorded as a version.
    expect((await stack.v0(ws.apiKey).get(`/apps/${app.id}/versions`)).body.items).toEqual([]);
  });

  it('is a limit group when it runs past its startup CPU budget', async () => {
    const { app } = await createApp(ws.client, { hosting: 'platform', slug: 'load-spin-group' });
    const spin = new TextEncoder().encode(`let x = 0; for (;;) x = (x * 31 + 7) % 1000003;\nexport default { manifest: { schemaVersion: 1, name: 'Spin', slug: 'load-spin-group', hosting: 'platform' } };\n`);
    const res = await upload(app.id, spin);
    expect(res.status).toBe(503);
    expect(res.body._tag).toBe('PlatformRuntimeCpuLimitError');
    const groups = await stack.v0(ws.apiKey).get(`/apps/${app.id}/errors?level=limit`);
    expect(groups.body.items).toMatchObject([{ level: 'limit', name: 'PlatformRuntimeCpuLimitError', count: 1, versions: [{ version: null }] }]);
  });
});
