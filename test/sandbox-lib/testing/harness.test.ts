/**
 * `@platform/sdk/testing`: deliveries built as the service builds them, sent to a hosted app
 * (vouched for, as the runtime does), to a self-hosted app (signed) and to a bare handler; answers
 * typed and checked with the service's schemas; the app's `/v0` calls recorded and answered.
 */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { defineApp, defineBlock, defineCommand, ui, verifyDelivery, type EventType } from '@platform/sdk';
import { createTestPlatform, DeliveryInputError } from '@platform/sdk/testing';
import { EVENT_SAMPLES, SAMPLES } from '../delivery-samples.ts';

const greeting = defineBlock({
  type: 'greeting',
  title: 'Greeting',
  insertable: true,
  props: z.object({ name: z.string().min(1).max(40).default('world') }),
  state: z.object({ waves: z.int().min(0).default(0) }),
  actions: { wave: { handler: ({ state }) => ({ state: { waves: state.waves + 1 } }) } },
  render: ({ props, state }) => ui.block({ summary: `Hello, ${props.name}` }, [
    ui.header({ title: `Hello, ${props.name}!`, trailing: `${state.waves} waves` }),
    ui.actions([ui.button({ label: 'Wave', action: 'wave' })]),
  ]),
});

const hello = defineCommand({
  name: 'hello',
  description: 'Post a greeting',
  options: [{ name: 'name', type: 'string', description: 'Who to greet', required: true }],
  handler: async ({ options, api, surface }) => {
    if (surface.kind === 'circle') await api.replies.post({ circleId: surface.circleId, text: `Greeting ${String(options.name)}` } as never);
    return { visibility: 'public', block: { type: 'greeting', props: { name: options.name } } };
  },
});

const definition = {
  name: 'Hello', slug: 'hello', blocks: [greeting], commands: [hello],
  events: { 'post.created': { handler: () => undefined } },
  routes: { 'GET /hello/:name': (_request: Request, ctx: { params: Record<string, string> }) => Response.json({ message: `Hello, ${ctx.params.name}!` }) },
};
const hosted = defineApp({ ...definition, hosting: 'platform' });
const selfHosted = defineApp({ ...definition, hosting: 'self', endpoint: 'https://hello.example.com/platform' });

const post = { post: { id: 'msg_1', circleId: 'cir_1', conversationId: null, text: 'hi', author: { kind: 'member', id: 'mem_2', name: 'Ada' }, createdAt: '2025-01-02T03:04:05.000Z', version: 1 } };

describe.each([['hosted', hosted], ['self-hosted', selfHosted]] as const)('a %s app', (_name, app) => {
  it('renders a block: the tree comes back typed and checked', async () => {
    const platform = createTestPlatform({ app });
    const render = await platform.deliver('block.render', { block: { type: 'greeting', props: { name: 'Ada' }, state: { waves: 2 } } });
    expect(render.kind, JSON.stringify(render.body)).toBe('answered');
    if (render.kind !== 'answered') return;
    expect(JSON.stringify(render.result.tree)).toContain('"Hello, Ada!"');
    expect(render.result.tree.attrs).toMatchObject({ summary: 'Hello, Ada' });
    expect(render.envelope.app.slug).toBe('hello');
  });

  it('runs an action and a command; the /v0 call the handler made is recorded with its answer', async () => {
    const platform = createTestPlatform({ app, api: (call) => (call.path === '/v0/replies' ? { id: 'msg_9' } : undefined) });
    const action = await platform.deliver('block.action', { block: { type: 'greeting', props: { name: 'Ada' }, state: { waves: 2 } }, action: { name: 'wave', args: {} } });
    expect(action.kind === 'answered' && action.result.state, JSON.stringify(action.body)).toEqual({ waves: 3 });

    const run = await platform.deliver('command.run', { command: 'hello', options: { name: 'Ada' } });
    expect(run.kind, JSON.stringify(run.body)).toBe('answered');
    expect(run.kind === 'answered' && run.result).toMatchObject({ visibility: 'public', block: { type: 'greeting', props: { name: 'Ada' } } });
    expect(platform.calls).toHaveLength(1);
    expect(platform.calls[0]).toMatchObject({ method: 'POST', path: '/v0/replies', body: { circleId: 'cir_test', text: 'Greeting Ada' } });
  });

  it('a /v0 call the test gave no answer for fails in the handler, named', async () => {
    const platform = createTestPlatform({ app });
    const run = await platform.deliver('command.run', { command: 'hello', options: { name: 'Ada' } });
    expect(run.kind).toBe('failed');
    expect(platform.calls.map((c) => c.path)).toEqual(['/v0/replies']);
  });

  it('sends lifecycle events and routes', async () => {
    const platform = createTestPlatform({ app });
    const event = await platform.event('post.created', post as never);
    expect(event).toMatchObject({ status: 204, acknowledged: true });
    const route = await platform.request('/hello/ada');
    expect(await route.json()).toEqual({ message: 'Hello, ada!' });
  });
});

describe('what the harness refuses', () => {
  it('delivery data the platform never sends is an error naming the field', async () => {
    const platform = createTestPlatform({ app: hosted });
    const sent = platform.deliver('block.render', { block: { type: '', props: {}, state: {} } });
    await expect(sent).rejects.toBeInstanceOf(DeliveryInputError);
    await expect(sent).rejects.toMatchObject({ _tag: 'PlatformTestDeliveryInvalid', path: ['block', 'type'] });
    await expect(platform.event('post.created' as EventType, { post: { id: 1 } } as never)).rejects.toMatchObject({ path: ['post', 'id'] });
  });

  it('an answer that does not match its schema is failed with the path of the problem', async () => {
    const platform = createTestPlatform({ app: async () => Response.json({ tree: { type: 'nope' } }) });
    const render = await platform.deliver('block.render', { block: { type: 'greeting', props: {}, state: {} } });
    expect(render.kind).toBe('failed');
    expect(render.kind === 'failed' && render.problem).toMatchObject({ _tag: 'PlatformTestAnswerInvalid' });
    const deferred = await createTestPlatform({ app: async () => new Response(null, { status: 202 }) }).deliver('block.render', { block: { type: 'greeting', props: {}, state: {} } });
    expect(deferred.kind === 'failed' && deferred.problem?.message).toMatch(/block.render may not answer 202/);
  });
});

describe('a bare self-hosted handler', () => {
  it('gets deliveries signed with the harness secret, an install token in the envelope', async () => {
    const seen: Array<{ ok: boolean; token: unknown }> = [];
    const platform = createTestPlatform({
      app: async (request) => {
        const body = new Uint8Array(await request.arrayBuffer());
        const verdict = await verifyDelivery({ headers: request.headers, body, secret: platform.signingSecret, now: Date.now() });
        seen.push({ ok: verdict.ok, token: (JSON.parse(new TextDecoder().decode(body)) as { installToken?: unknown }).installToken });
        return new Response(null, { status: 204 });
      },
    });
    const event = await platform.event('post.created', post as never);
    expect(event.acknowledged).toBe(true);
    expect(seen).toEqual([{ ok: true, token: { token: expect.stringMatching(/^platapp_test_/), expiresAt: expect.any(String) } }]);
  });

  it('a self-hosted app refuses a delivery signed with another secret', async () => {
    const platform = createTestPlatform({ app: (request) => selfHosted.fetch(request, { PLATFORM_SIGNING_SECRET: 'whsec_' + btoa('another secret, 32 bytes long..!') }) });
    const render = await platform.deliver('block.render', { block: { type: 'greeting', props: {}, state: {} } });
    expect(render).toMatchObject({ kind: 'failed', status: 401 });
  });
});

describe('every delivery type', () => {
  // A handler that answers each type with the service's own sample answer, after checking the
  // signature and reading back what it was sent.
  const sent: Array<{ type: string; data: unknown; verified: boolean }> = [];
  const platform = createTestPlatform({
    app: async (request) => {
      const body = new Uint8Array(await request.arrayBuffer());
      const verdict = await verifyDelivery({ headers: request.headers, body, secret: platform.signingSecret, now: Date.now() });
      const envelope = JSON.parse(new TextDecoder().decode(body)) as { type: keyof typeof SAMPLES; data: unknown };
      sent.push({ type: envelope.type, data: envelope.data, verified: verdict.ok });
      const sample = SAMPLES[envelope.type];
      return sample === undefined ? new Response(null, { status: 204 }) : Response.json(sample.result);
    },
  });

  it.each(Object.keys(SAMPLES) as Array<keyof typeof SAMPLES>)('%s: sent signed as given, the answer checked and typed', async (type) => {
    const outcome = await platform.deliver(type, SAMPLES[type].data as never);
    expect(outcome.kind, JSON.stringify(outcome.kind === 'failed' ? outcome.problem : null)).toBe('answered');
    expect(outcome.kind === 'answered' && outcome.result).toEqual(SAMPLES[type].result);
    expect(sent.at(-1)).toEqual({ type, data: SAMPLES[type].data, verified: true });
  });

  it.each(Object.keys(EVENT_SAMPLES) as EventType[])('%s: sent signed, acknowledged', async (type) => {
    const outcome = await platform.event(type, EVENT_SAMPLES[type] as never);
    expect(outcome).toMatchObject({ status: 204, acknowledged: true });
    expect(sent.at(-1)).toEqual({ type, data: EVENT_SAMPLES[type], verified: true });
  });
});
