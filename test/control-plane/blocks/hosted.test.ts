/**
 * Blocks of a hosted app: the board fixture bundled with esbuild, uploaded as a production
 * version, run by a real runtime node on loopback. Insert, view and click go through the same
 * engine; the runtime signs the deliveries itself and answers for the isolate.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CreatedWorkspace, Stack } from '../../helpers/stack.ts';
import { startStackWithRuntime, type StackWithRuntime } from '../apps/runtime.ts';
import { click, view } from './setup.ts';

let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;
let token: string;
let circleId: string;

beforeAll(async () => {
  env = await startStackWithRuntime({ runtimeEnv: { RUNTIME_STARTUP_CPU_MS: '500' } });
  stack = env.stack;
  ws = await stack.createWorkspace();
  circleId = (await ws.client.post('/circles', { name: 'General', visibility: 'public', chat: true })).body.circle.id;
  const created = await ws.client.post('/apps', { name: 'Hosted board', slug: 'hosted-board', hosting: 'platform' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../../fixtures/blocks/hosted-board.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  const uploaded = await stack.v0(ws.apiKey).request('POST', `/apps/${created.body.app.id}/versions?target=production`, {
    rawBody: bundled.outputFiles[0]!.contents, headers: { 'content-type': 'application/javascript' },
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const consent = await ws.client.get(`/apps/${created.body.app.id}/consent`);
  const installed = await ws.client.post(`/apps/${created.body.app.id}/installs`, { version: consent.body.consent.version });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  const basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');
  const minted = await stack.v0().request('POST', `/apps/installs/${installed.body.install.id}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } });
  token = minted.body.token;
}, 120_000);

afterAll(async () => {
  await env?.stop();
});

it('inserts, renders and runs actions of a hosted app\'s block', async () => {
  const inserted = await stack.v0(token).post('/blocks', { type: 'board', props: { title: 'Hosted' }, circleId });
  expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
  const id: string = inserted.body.id;
  expect((await view(ws.client, id)).summary).toBe('Hosted: 0');
  const out = await click(ws.client, id, 'Add one');
  expect(out).toMatchObject({ outcome: 'applied', block: { summary: 'Hosted: 1', revision: 2, version: 2 } });
  expect((await click(ws.client, id, 'Notice')).notice).toEqual({ tone: 'success', text: 'Saved' });
  const renders = await stack.v0(token).post(`/blocks/${id}/revalidate`, {});
  expect(renders.body).toEqual({ scheduled: true });
  await stack.controlPlane.blocks.settled();
  const { rows } = await stack.db.query<{ type: string; status: string }>(`select type, status from deliveries where class = 'interactive' order by created_at, type`);
  expect(rows.map((r) => `${r.type}:${r.status}`).sort()).toEqual(['block.action:delivered', 'block.action:delivered', 'block.insert:delivered', 'block.render:delivered'].sort());
});
