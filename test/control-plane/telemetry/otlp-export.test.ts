/**
 * OpenTelemetry export over real HTTP: a control plane and a runtime node, both exporting to a
 * loopback OTLP receiver that decodes with the official protobuf definitions. A member's click on a
 * hosted app's block is one trace: the control plane's request, its delivery, the call to the
 * runtime node, the guest's run there, and the guest's outbound call, each the parent of the next.
 * A lifecycle event's delivery is a trace of its own, down to the outbound call its handler makes.
 * The prom-client figures arrive as OTLP metrics, and both processes' log lines (the platform's own
 * and the app's) as log records carrying the trace's ids.
 */
import { build } from 'esbuild';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOtlpReceiver, type DecodedSpan, type OtlpReceiver } from '../../helpers/otlp-receiver.ts';
import type { CreatedWorkspace, Stack } from '../../helpers/stack.ts';
import { startStackWithRuntime, type StackWithRuntime } from '../apps/runtime.ts';
import { click } from '../blocks/setup.ts';

let otlp: OtlpReceiver;
let probe: Server;
let env: StackWithRuntime;
let stack: Stack;
let ws: CreatedWorkspace;
let appId: string;
let installId: string;
let token: string;
let circleId: string;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  probe = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('pong'));
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k%3D1', OTEL_METRIC_EXPORT_INTERVAL: '500' };
  env = await startStackWithRuntime({
    runtimeEnv: { RUNTIME_STARTUP_CPU_MS: '500', RUNTIME_EGRESS_TEST_LOOPBACK_HOSTS: 'api.telemetry.test', ...otel },
    // Log lines at info (the access line of each request among them), to the receiver and not the terminal.
    stack: { env: otel, logLevel: 'info', logStream: new Writable({ write: (_c, _e, done) => done() }) },
  });
  stack = env.stack;
  ws = await stack.createWorkspace();
  circleId = (await ws.client.post('/circles', { name: 'General', visibility: 'public', chat: true })).body.circle.id;
  const created = await ws.client.post('/apps', { name: 'Probe', slug: 'probe', hosting: 'platform' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../../fixtures/telemetry/probe-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
    define: { __PROBE_ORIGIN__: JSON.stringify(`http://api.telemetry.test:${(probe.address() as AddressInfo).port}`) },
  });
  const uploaded = await stack.v0(ws.apiKey).request('POST', `/apps/${appId}/versions?target=production`, {
    rawBody: bundled.outputFiles[0]!.contents, headers: { 'content-type': 'application/javascript' },
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const consent = await ws.client.get(`/apps/${appId}/consent`);
  const installed = await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  installId = installed.body.install.id;
  const basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');
  token = (await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } })).body.token;
}, 120_000);

afterAll(async () => {
  await env?.stop();
  if (probe !== undefined) await new Promise<void>((resolve) => probe.close(() => resolve()));
  await otlp?.stop();
});

const parentOf = (spans: DecodedSpan[], child: DecodedSpan): DecodedSpan | undefined => spans.find((s) => s.spanId === child.parentSpanId && s.traceId === child.traceId);

it('exports a click on a hosted block as one trace from the control plane through the runtime to the guest\'s outbound call', async () => {
  const inserted = await stack.v0(token).post('/blocks', { type: 'probe', props: { title: 'Traced' }, circleId });
  expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
  const out = await click(ws.client, inserted.body.id, 'Call');
  expect(out).toMatchObject({ outcome: 'applied', block: { summary: 'Traced: 1' } });
  // Sent now rather than at the batch processors' next tick; the receiver decides what arrived.
  await Promise.all([stack.telemetry!.sdk.flush(), env.node.telemetry!.flush()]);

  const spans = await otlp.waitFor(() => otlp.spans(), (all) => {
    const egress = all.find((s) => s.name === 'egress GET');
    return egress !== undefined && all.some((s) => s.traceId === egress.traceId && s.parentSpanId === '' && s.service === 'control-plane');
  });
  const egress = spans.find((s) => s.name === 'egress GET')!;
  expect(egress).toMatchObject({ service: 'runtime', attributes: { 'platform.app.id': appId, 'server.address': 'api.telemetry.test', 'http.response.status_code': 200 } });
  const run = parentOf(spans, egress)!;
  expect(run).toMatchObject({ service: 'runtime', name: 'run interactive', attributes: { 'platform.app.id': appId, 'platform.install.id': installId, 'platform.outcome': 'ok' } });
  const call = parentOf(spans, run)!;
  expect(call).toMatchObject({ service: 'control-plane', name: 'POST runtime' });
  const delivery = parentOf(spans, call)!;
  expect(delivery).toMatchObject({
    service: 'control-plane', name: 'deliver block.action',
    attributes: { 'platform.app.id': appId, 'platform.install.id': installId, 'platform.delivery.type': 'block.action', 'platform.outcome': 'ok' },
  });
  const request = parentOf(spans, delivery)!;
  expect(request).toMatchObject({ service: 'control-plane', name: 'POST /client/v1/blocks/:blockId/click', parentSpanId: '', attributes: { 'http.response.status_code': 200 } });
  // Nothing a member typed: the attributes are the bounded names above, no ids of the path or bodies.
  expect(JSON.stringify(spans.filter((s) => s.traceId === egress.traceId))).not.toContain(inserted.body.id);
  expect(otlp.headers.every((h) => h['x-collector-key'] === 'k=1')).toBe(true);

  const logs = await otlp.waitFor(() => otlp.logs(), (all) => all.some((l) => l.body === 'probe answered 200') && all.some((l) => l.service === 'control-plane' && l.traceId === egress.traceId));
  expect(logs.find((l) => l.body === 'probe answered 200')).toMatchObject({
    service: 'runtime', traceId: egress.traceId, spanId: run.spanId, attributes: { 'platform.log.source': 'app', 'platform.app.id': appId, 'platform.install.id': installId },
  });
});

it('exports an event\'s delivery as a trace of its own: the delivery, the run it caused on the node and the guest\'s outbound call', async () => {
  // The stack runs no delivery loop: the suite drives one (the block inserted above raised `block.created`).
  await stack.controlPlane.deliveries.worker.drain();
  await Promise.all([stack.telemetry!.sdk.flush(), env.node.telemetry!.flush()]);
  const spans = await otlp.waitFor(() => otlp.spans(), (all) => all.some((s) => s.name === 'run lifecycle' && all.some((e) => e.name === 'egress GET' && e.parentSpanId === s.spanId)));
  const run = spans.find((s) => s.name === 'run lifecycle')!;
  expect(run).toMatchObject({ service: 'runtime', attributes: { 'platform.app.id': appId, 'platform.install.id': installId, 'platform.run.kind': 'lifecycle' } });
  const call = parentOf(spans, run)!;
  const delivery = parentOf(spans, call)!;
  expect(delivery).toMatchObject({
    service: 'control-plane', name: 'deliver block.created', parentSpanId: '',
    attributes: { 'platform.delivery.class': 'lifecycle', 'platform.outcome': 'ok', 'platform.app.id': appId },
  });
  // Its own trace: not the click's, nor the insert's request that recorded the event.
  expect(spans.filter((s) => s.traceId === delivery.traceId && s.service === 'control-plane').map((s) => s.name).sort()).toEqual(['POST runtime', 'deliver block.created']);
});

it('exports the prom-client figures of both processes as OTLP metrics, the same numbers /metrics serves', async () => {
  // No more outbound calls happen now: the registry's count is final, and an export must carry it.
  const served = (await env.node.metrics.egressRequests.get()).values.find((v) => v.labels.app === appId)!.value;
  expect(served).toBe(2);
  const egressOf = (m: ReturnType<OtlpReceiver['metrics']>[number]) => m.points.find((p) => p.attributes.app === appId)?.value;
  const metrics = await otlp.waitFor(() => otlp.metrics(), (all) =>
    all.some((m) => m.service === 'runtime' && m.name === 'runtime_egress_requests_total' && m.kind === 'sum' && egressOf(m) === served)
    && all.some((m) => m.service === 'control-plane' && m.name === 'http_request_duration_seconds'));
  const http = metrics.filter((m) => m.service === 'control-plane' && m.name === 'http_request_duration_seconds').at(-1)!;
  expect(http.kind).toBe('histogram');
  const clicks = http.points.find((p) => p.attributes.route === '/client/v1/blocks/:blockId/click')!.value as { count: number; bucketCounts: number[] };
  expect(clicks.count).toBeGreaterThanOrEqual(1);
  expect(clicks.bucketCounts.reduce((a, b) => a + b, 0)).toBe(clicks.count);
});
