// The runtime node's /metrics is served on its operator port only: the ingress port (public hosted
// apps) answers 404 for it, the operator port answers nothing else, and control planes read the same
// text at /internal/v1/metrics with the node secret (401 without it).
import { createServer } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsServer } from '@platform/runtime/metrics-server';
import { SECRET, startRuntime, type TestRuntime } from './support/runtime.ts';

const TRIVIAL = 'export default { fetch() { return new Response("ok"); } };';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startRuntime();
  await rt.deploy('hello', TRIVIAL);
  expect((await rt.route('hello', '/')).status).toBe(200);
});
afterAll(() => rt?.stop());

describe('the runtime node\'s metrics', () => {
  it('are on the operator port, with the per-app series', async () => {
    const res = await fetch(rt.metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/runtime_requests_total\{app="app_hello",kind="route",outcome="ok"\} 1/);
    expect(new URL(rt.metricsUrl).port).not.toBe(new URL(rt.url).port);
  });

  it('are not on the ingress port, and the operator port serves nothing else', async () => {
    const onIngress = await fetch(`${rt.url}/metrics`);
    expect(onIngress.status).toBe(404);
    expect(await onIngress.text()).not.toMatch(/runtime_requests_total/);
    const other = await fetch(new URL('/healthz', rt.metricsUrl));
    expect(other.status).toBe(404);
    expect((await other.json() as { _tag: string })._tag).toBe('PlatformApiNotFoundError');
  });

  it('control planes read them at /internal/v1/metrics with the node secret', async () => {
    expect(await rt.client.metrics()).toMatch(/runtime_requests_total\{app="app_hello"/);
    const anonymous = await fetch(`${rt.url}/internal/v1/metrics`);
    expect(anonymous.status).toBe(401);
    const wrong = await fetch(`${rt.url}/internal/v1/metrics`, { headers: { authorization: `Bearer ${SECRET}x` } });
    expect(wrong.status).toBe(401);
  });
});

describe('a port already taken', () => {
  it('is named with its variable and port, not a bare EADDRINUSE', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const logger = { info() {}, error() {} };
      const metrics = createMetricsServer({ registry: new Registry(), host: '127.0.0.1', port, logger, variable: 'RUNTIME_METRICS_PORT' });
      await expect(metrics.start()).rejects.toThrow(
        `Port ${port} is already in use on 127.0.0.1:${port} (RUNTIME_METRICS_PORT): stop what listens there, or set RUNTIME_METRICS_PORT to a free port (0 picks one)`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
