/**
 * `GET /client/v1/operator/apps-metrics` over real HTTP against a control plane and a real runtime
 * node: workspace owners and admins only; each app's figures come from the node's `/metrics`
 * (requests by outcome, CPU quantiles, cold starts, blocked egress by host) and move after hosted
 * requests, app by app; lifecycle delivery outcomes come from the control plane's registry by slug;
 * the route is in the client OpenAPI document with its statuses.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWorkspace } from '../../helpers/stack.ts';
import { startStackWithRuntime, type StackWithRuntime } from './runtime.ts';

let env: StackWithRuntime;
let ws: CreatedWorkspace;
const ids: Record<string, string> = {};

/** Creates a hosted app and uploads the fixture's bundle as its production version. */
async function deploy(fixture: string, slug: string, name: string): Promise<string> {
  const created = await ws.client.post('/apps', { name, slug, hosting: 'platform' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL(`../../fixtures/e2e/${fixture}`, import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  const uploaded = await env.stack.v0(ws.apiKey).request('POST', `/apps/${created.body.app.id}/versions?target=production`, {
    rawBody: bundled.outputFiles[0]!.contents, headers: { 'content-type': 'application/javascript' },
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  return created.body.app.id as string;
}

beforeAll(async () => {
  env = await startStackWithRuntime();
  ws = await env.stack.createWorkspace();
  ids.logs = await deploy('logs-app.ts', 'e2e-logs', 'Logs end to end');
  ids.hosted = await deploy('hosted-app.ts', 'e2e-hosted', 'End to end');
}, 90_000);
afterAll(async () => env?.stop());

const read = async (key = ws.apiKey) => env.stack.client(key).get('/operator/apps-metrics');
const appIn = (body: any, id: string) => body.apps.find((a: { appId: string }) => a.appId === id);
const route = (slug: string, path: string) => fetch(`${env.runtimeUrl}/apps/${slug}${path}`);

describe('operator apps metrics', () => {
  it('answers members 403 and admins 200', async () => {
    const member = await env.stack.addMember(ws.apiKey, { role: 'member' });
    const refused = await read(member.apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ _tag: 'PlatformApiForbiddenError' });
    const admin = await env.stack.addMember(ws.apiKey, { role: 'admin' });
    const allowed = await read(admin.apiKey);
    expect(allowed.status).toBe(200);
    expect(allowed.body.nodes).toEqual([{ url: env.runtimeUrl, reachable: true, workerRestarts: {} }]);
    expect(allowed.body.apps.map((a: { slug: string }) => a.slug).sort()).toEqual(['e2e-hosted', 'e2e-logs']);
  });

  it('counts each app\'s hosted requests by outcome, their CPU, cold starts and blocked egress', { timeout: 60_000 }, async () => {
    const before = (await read()).body;
    expect((await route('e2e-logs', '/boom')).status).toBe(500);
    expect((await route('e2e-logs', '/hello')).status).toBe(200);
    expect((await route('e2e-hosted', '/hello')).status).toBe(200);
    const refused = await (await route('e2e-hosted', `/egress?url=${encodeURIComponent('https://not-allowed.test/x')}`)).json() as { ok: boolean };
    expect(refused.ok).toBe(false);

    const after = (await read()).body;
    const [logsBefore, logsAfter] = [appIn(before, ids.logs!), appIn(after, ids.logs!)];
    expect(logsAfter.requests.error ?? 0).toBe((logsBefore.requests.error ?? 0) + 1);
    expect(logsAfter.requests.ok ?? 0).toBe((logsBefore.requests.ok ?? 0) + 1);
    expect(logsAfter.coldStarts).toBeGreaterThan(logsBefore.coldStarts);
    expect(logsAfter.cpu.p50Ms).toBeGreaterThan(0);
    expect(logsAfter.cpu.p99Ms).toBeGreaterThanOrEqual(logsAfter.cpu.p50Ms);
    expect(logsAfter.blocked).toEqual({});

    const hosted = appIn(after, ids.hosted!);
    expect(hosted.requests.ok ?? 0).toBe((appIn(before, ids.hosted!).requests.ok ?? 0) + 2);
    expect(hosted.blocked._other).toBe((appIn(before, ids.hosted!).blocked._other ?? 0) + 1);
    expect(hosted.lifecycle).toEqual({});
  });

  it('counts lifecycle delivery attempts by outcome, by the app\'s slug, from the control plane\'s own registry', { timeout: 60_000 }, async () => {
    const endpoint = { url: 'https://sink.invalid/platform' };
    const created = await ws.client.post('/apps', { name: 'Sink', slug: 'ops-sink', hosting: 'self', endpoint });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const appId = created.body.app.id as string;
    const manifest = { schemaVersion: 1, name: 'Sink', slug: 'ops-sink', hosting: 'self', endpoint, scopes: ['conversations:read'], events: ['post.created'] };
    expect((await env.stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { target: 'production', manifest })).status).toBe(200);
    const consent = await ws.client.get(`/apps/${appId}/consent`);
    expect((await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version })).status).toBe(201);
    const circle = await ws.client.post('/circles', { name: `Ops ${appId.slice(-6)}`, visibility: 'public', chat: true });
    const conversation = await ws.client.post(`/circles/${circle.body.circle.id}/conversations`, { title: 'Ops' });
    expect((await ws.client.post(`/conversations/${conversation.body.conversation.id}/messages`, { markdown: 'Hello sink' })).status).toBe(201);
    // The stack runs no delivery loop: the suite drives one. The endpoint's host does not resolve,
    // so the attempt fails and will be retried.
    await env.stack.controlPlane.deliveries.worker.drain();
    const sink = appIn((await read()).body, appId);
    expect(sink.lifecycle).toEqual({ pending: 1 });
    expect(sink.requests).toEqual({});
  });

  it('is in the client OpenAPI document with its statuses', async () => {
    const doc = (await env.stack.client(ws.apiKey).get('/openapi.json')).body;
    const op = doc.paths['/operator/apps-metrics'].get;
    expect(op.operationId).toBe('getAppsMetrics');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
  });
});
