/**
 * A hosted app's lines reach its drain end to end over real HTTP: a runtime node on loopback runs
 * the app (bundled with esbuild, uploaded through the tooling endpoint) and ships its lines to the
 * control plane; the shipper runs on its own timers, as in production; a loopback receiver is the
 * drain. It gets each request's lines in order and signed, and a secret env value the app logs never
 * reaches it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '@platform/sdk';
import { createRuntimeNode, loadConfig, type RuntimeNode } from '@platform/runtime';
import { freePort } from '../../helpers/npm-start.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';

const SLUG = 'e2e-logs';
const SECRET_VALUE = `tok-${randomBytes(8).toString('hex')}`;
const cleanups: Array<() => Promise<unknown>> = [];
let stack: Stack;
let node: RuntimeNode;
let runtimeUrl: string;
let ws: CreatedWorkspace;
let appId: string;
let receiver: Receiver;

beforeAll(async () => {
  const port = await freePort();
  const controlPlaneUrl = `http://127.0.0.1:${port}`;
  const runtimeSecret = randomBytes(24).toString('base64url');
  const dataDir = await mkdtemp(join(tmpdir(), 'drains-hosted-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  node = createRuntimeNode({
    config: loadConfig({
      RUNTIME_SECRET: runtimeSecret, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_DATA_DIR: join(dataDir, 'runtime'), RUNTIME_WORKERS: '1',
      CONTROL_PLANE_URL: controlPlaneUrl, RUNTIME_STARTUP_CPU_MS: '500', RUNTIME_DIRECTORY_TTL_MS: '10', LOG_LEVEL: 'silent',
    }),
    logger: pino({ level: 'silent' }),
  });
  ({ url: runtimeUrl } = await node.start());
  cleanups.push(() => node.stop());
  stack = await startStack({ env: { PORT: String(port), PUBLIC_URL: controlPlaneUrl, RUNTIME_URL: runtimeUrl, RUNTIME_SECRET: runtimeSecret } });
  cleanups.push(() => stack.stop());
  receiver = await startReceiver({ path: '/drain' });
  cleanups.push(() => receiver.stop());

  ws = await stack.createWorkspace();
  const created = await ws.client.post('/apps', { name: 'Logs end to end', slug: SLUG, hosting: 'platform' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;
  const secret = await stack.v0(ws.apiKey).put(`/apps/${appId}/env/production/API_TOKEN`, { value: SECRET_VALUE, secret: true });
  expect(secret.status, JSON.stringify(secret.body)).toBe(200);
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../../fixtures/e2e/logs-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  const uploaded = await stack.v0(ws.apiKey).request('POST', `/apps/${appId}/versions?target=production`, {
    rawBody: bundled.outputFiles[0]!.contents, headers: { 'content-type': 'application/javascript' },
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  // The suite's stack runs no background loops; this one runs the drains' as production does.
  stack.controlPlane.logDrains.shipper.start();
}, 90_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('a hosted app\'s log drain', () => {
  it('receives the app\'s lines in order, signed, with the secret env value redacted', { timeout: 60_000 }, async () => {
    const added = await stack.v0(ws.apiKey).post(`/apps/${appId}/log-drains`, { url: receiver.url });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const secret = added.body.secret as string;

    expect((await fetch(`${runtimeUrl}/apps/${SLUG}/hello`)).status).toBe(200);
    expect((await fetch(`${runtimeUrl}/apps/${SLUG}/boom`)).status).toBe(500);
    const received = () => receiver.requests.flatMap((r) => r.envelope.lines as Array<{ id: string; level: string; message: string; request: { label: string } | null; error: { frames: Array<{ function: string | null }> } | null }>);
    await receiver.waitFor(() => received().filter((l) => l.level === 'request').length >= 2, 30_000);

    const lines = received();
    // Batched: the two requests' lines came in fewer POSTs than lines.
    expect(receiver.requests.length).toBeLessThan(lines.length);
    const labels = lines.filter((l) => l.level === 'request').map((l) => l.request?.label);
    expect(labels).toEqual([`GET /apps/${SLUG}/hello`, `GET /apps/${SLUG}/boom`]);
    expect(lines.map((l) => Number(l.id))).toEqual(lines.map((l) => Number(l.id)).sort((a, b) => a - b));
    expect(lines.some((l) => l.message === 'hello with the token [redacted]')).toBe(true);
    expect(lines.some((l) => l.level === 'error' && l.error?.frames[0]?.function === 'explodeForTheLogs')).toBe(true);
    for (const request of receiver.requests) {
      expect(request.body).not.toContain(SECRET_VALUE);
      expect(await verifyDelivery({ headers: request.headers as Record<string, string>, body: request.body, secret, now: stack.clock.now() })).toMatchObject({ ok: true });
    }
  });
});
