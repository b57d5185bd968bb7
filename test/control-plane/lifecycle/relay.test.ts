/**
 * The development relay end to end: `platform dev` (the CLI's `startDev`) syncs a self-hosted
 * development app, opens the relay, and passes deliveries to an SDK app served on localhost and
 * its answers back. Without a relay, interactive deliveries fail at once and lifecycle ones wait
 * and retry. A relay connected to one control plane serves deliveries made by another.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp, isPlatformError, silentLogger, type Manifest } from '@platform/sdk';
import { serve, type Served } from '../../../sandbox-lib/src/node/index.ts';
import { startDev, type DevSession } from '../../../cli/src/dev.ts';
import { createControlPlane, createLogger, type ControlPlane } from '@platform/control-plane';
import { deliveryHeadersSync } from '@platform/sdk/node';
import type { OutgoingDelivery } from '../../../control-plane/src/deliveries/targets/target.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { deliveriesOf } from './fixtures.ts';

let stack: Stack;
let served: Served;
let manifest: Manifest;
let session: DevSession | undefined;
let apiKey: string;
let circleId: string;
const handled: Array<{ type: string; text: string; id: string }> = [];
const lines: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  const ws = await stack.createWorkspace();
  apiKey = ws.apiKey;
  circleId = (await ws.client.post('/circles', { name: 'Dev circle', visibility: 'public' })).body.circle.id;
  let secret = '';
  const app = defineApp({
    name: 'Relay test', slug: 'relaytest', hosting: 'self', endpoint: 'http://localhost:1/platform',
    events: {
      'post.created': (ctx) => {
        handled.push({ type: ctx.type, text: ctx.data.post.text, id: ctx.envelope.id });
      },
    },
  }, { now: () => stack.clock.now(), logger: silentLogger });
  // The secret is known once the app is synced, after the server (whose port the manifest needs) is up.
  served = await serve({ fetch: (request, _env, ctx) => app.fetch(request, { PLATFORM_SIGNING_SECRET: secret }, ctx) }, { port: 0, logger: silentLogger });
  manifest = { ...app.manifest, endpoint: { url: `${served.url}/platform` } };
  session = await startDev({ baseUrl: stack.url, apiKey, manifest: manifest as unknown as Record<string, unknown>, print: (line) => lines.push(line) });
  secret = session.signingSecret!;
}, 60_000);

afterAll(async () => {
  await session?.stop();
  await served?.close();
  await stack?.stop();
});

/** The first message of a new conversation: a `post.created`. */
const post = async (markdown: string) => {
  const conversationId = (await stack.client(apiKey).post(`/circles/${circleId}/conversations`, { title: markdown })).body.conversation.id;
  const res = await stack.client(apiKey).post(`/conversations/${conversationId}/messages`, { markdown });
  expect(res.status).toBe(201);
};

async function interactive(session: DevSession): Promise<OutgoingDelivery> {
  const body = JSON.stringify({
    id: `int_${handled.length}_${lines.length}`, type: 'block.render', timestamp: new Date(stack.clock.now()).toISOString(),
    app: { id: session.appId, slug: session.slug, version: session.version }, install: { id: session.installId, workspaceId: 'ws', kind: 'dev' },
    locale: 'en', timeZone: 'UTC', data: { block: { id: 'blk_1', type: 'nope', props: {}, state: {}, revision: 0, version: 1 }, mode: 'interactive' },
  });
  const id = JSON.parse(body).id as string;
  return {
    id, deliveryClass: 'interactive', type: 'block.render',
    app: { id: session.appId, slug: session.slug, version: session.version, hosting: 'self', endpointUrl: null },
    install: { id: session.installId, kind: 'dev' }, body, timeoutMs: 5_000, maxResponseBytes: 1024 * 1024,
    headers: deliveryHeadersSync({ id, timestamp: Math.floor(stack.clock.now() / 1000), body, secrets: [session.signingSecret!], deliveryClass: 'interactive', installId: session.installId }),
  };
}

describe('platform dev', () => {
  it('syncs the development app and its dev install, and prints the signing secret', () => {
    expect(session).toMatchObject({ slug: expect.stringMatching(/^relaytest-[a-z2-7]{4}$/), installId: expect.stringMatching(/^ins_/), version: 1 });
    expect(lines[0]).toMatch(/^Created development app relaytest-/);
    expect(lines).toContain(`Signing secret (PLATFORM_SIGNING_SECRET of the local app): ${session!.signingSecret}`);
    expect(lines).toContain(`Relaying deliveries to ${served.url}/platform`);
  });

  it('relays lifecycle deliveries to the app on localhost, which verifies and acknowledges them', async () => {
    await post('through the relay');
    expect(await stack.controlPlane.deliveries.worker.drain()).toBe(1);
    expect(handled.map((h) => [h.type, h.text])).toEqual([['post.created', 'through the relay']]);
    const [delivery] = (await deliveriesOf(stack, session!.installId)).filter((d) => d.type === 'post.created');
    expect(delivery).toMatchObject({ status: 'delivered', last_status: 204 });
    expect(lines.some((l) => l.includes('lifecycle') && l.includes('post.created') && l.includes(delivery!.id) && l.includes('→ 204'))).toBe(true);
  });

  it('relays interactive deliveries and brings the app\'s answer back', async () => {
    const delivery = await interactive(session!);
    const outcome = await stack.controlPlane.deliveries.targets.relay.send(delivery);
    const direct = await fetch(`${served.url}/platform`, { method: 'POST', headers: { ...delivery.headers, 'webhook-id': `${delivery.id}x` }, body: delivery.body });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.status).toBe(404);
    expect(direct.status).toBe(401); // the app checks signatures: the relay passes them through untouched
    expect(JSON.parse(new TextDecoder().decode(outcome.body))).toMatchObject({ error: 'unknown-block-type' });
    expect(lines.some((l) => l.includes('interactive') && l.includes('block.render') && l.includes('→ 404'))).toBe(true);
  });

  it('serves deliveries made by another control plane (through the key-value store)', async () => {
    const other: ControlPlane = createControlPlane({ config: stack.config, logger: createLogger(stack.config), db: stack.db, kv: stack.kv, clock: stack.clock });
    await other.start();
    try {
      const outcome = await other.deliveries.targets.relay.send(await interactive(session!));
      expect(outcome).toMatchObject({ ok: true, status: 404 });
      await post('made here, worked there');
      expect(await other.deliveries.worker.drain()).toBe(1);
      expect(handled.at(-1)).toMatchObject({ text: 'made here, worked there' });
    } finally {
      await other.stop();
    }
  });

  it('without a relay: interactive deliveries fail at once, lifecycle ones wait and are delivered after it reconnects', async () => {
    await session!.stop();
    await expect(stack.controlPlane.deliveries.targets.relay.send(await interactive(session!))).rejects.toSatisfy(
      (err: unknown) => isPlatformError(err) && err.tag === 'PlatformAppRelayNotConnectedError' && err.status === 503);

    await post('while nobody relays');
    expect(await stack.controlPlane.deliveries.worker.drain()).toBe(1);
    const waiting = (await deliveriesOf(stack, session!.installId)).filter((d) => d.status === 'pending');
    expect(waiting).toEqual([expect.objectContaining({
      type: 'post.created', attempts: 1, last_error: 'relay-not-connected: no platform dev relay is connected for this development app',
    })]);

    // Nothing is due yet; once the relay is back, what waited for it is due at once.
    expect(await stack.controlPlane.deliveries.worker.drain()).toBe(0);
    session = await startDev({ baseUrl: stack.url, apiKey, manifest: manifest as unknown as Record<string, unknown>, print: (line) => lines.push(line) });
    expect(lines.filter((l) => l.startsWith('Synced development app'))).toHaveLength(1);
    expect(await stack.controlPlane.deliveries.worker.drain()).toBe(1);
    expect(handled.at(-1)).toMatchObject({ text: 'while nobody relays', id: waiting[0]!.id });
  });

  it('refuses a relay for an app that is not the caller\'s development app', async () => {
    const stranger = await stack.createWorkspace();
    const refused = (credential: string) => new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(`${stack.url}/v0/apps/${session!.appId}/relay`, {
        headers: { authorization: `Bearer ${credential}`, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
      });
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(await refused(stranger.apiKey)).toMatchObject({ status: 404, body: { _tag: 'PlatformAppNotFoundError' } });
    expect(await refused('platkey_nonsense')).toMatchObject({ status: 401, body: { _tag: 'PlatformAppTokenInvalidError' } });
  });
});
