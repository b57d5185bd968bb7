// app.fetch on signed interactive deliveries (spec "Endpoints the service calls on the app"):
// verification before parsing, each of the 8 types answered with a result its schema accepts,
// 202 deferrals, and wrong answers surfaced to the author as a 500 naming the field.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deferred, defineApp, defineBlock, interactiveResultSchemas, readEnv, secretEnv, ui, ENV_KEYS, type InteractiveType } from '@platform/sdk';
import { validateTree } from '../../../sandbox-lib/src/catalog/index.ts';
import { counterApp } from '../../fixtures/apps/counter.ts';
import { actionData, captureLogger, COUNTER, envelope, loopback, MESSAGE, NOW_MS, NOW_S, SECRET, signedRequest, type Loopback } from './helpers.ts';

const ENV = { [ENV_KEYS.signingSecret]: SECRET, COUNTER_TOKEN: 'token' };

function setup() {
  const log = captureLogger();
  return { log, app: counterApp({ logger: log, now: () => NOW_MS }) };
}

async function deliver(app: ReturnType<typeof counterApp>, type: string, data: unknown, env: Record<string, unknown> = ENV) {
  const response = await app.fetch(await signedRequest(envelope(type, data)), env);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('signature verification', () => {
  it('answers a signed block.action with the new state and its re-rendered tree', async () => {
    const { app } = setup();
    const { status, body } = await deliver(app, 'block.action', actionData('increment', { by: 2 }));
    expect(status).toBe(200);
    expect(body.state).toEqual({ count: 4, step: 1 });
    expect(body.tree.attrs.summary).toBe('Clicks: 4');
    expect(body.actions).toEqual({ a0: { name: 'increment', args: { by: 1 } }, a1: { name: 'reset' } });
    expect(validateTree(body.tree, body.actions)).toEqual({ valid: true });
    expect(interactiveResultSchemas['block.action'].safeParse(body).success).toBe(true);
  });

  const refused: Array<{ name: string; request: () => Promise<Request>; reason: string }> = [
    { name: 'another secret', request: () => signedRequest(envelope('block.action', actionData('increment')), { secret: 'whsec_' + btoa('x'.repeat(32)) }), reason: 'signature-mismatch' },
    { name: 'a body changed after signing', request: async () => signedRequest(envelope('block.action', actionData('increment')), { tamper: JSON.stringify(envelope('block.action', actionData('reset'))) }), reason: 'signature-mismatch' },
    { name: 'a timestamp over 5 minutes old', request: () => signedRequest(envelope('block.action', actionData('increment')), { timestamp: NOW_S - 301 }), reason: 'timestamp-too-old' },
    { name: 'a timestamp over 5 minutes ahead', request: () => signedRequest(envelope('block.action', actionData('increment')), { timestamp: NOW_S + 301 }), reason: 'timestamp-too-new' },
  ];

  it.each(refused)('refuses $name with 401 and runs nothing', async ({ request, reason }) => {
    const { app, log } = setup();
    const response = await app.fetch(await request(), ENV);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid-signature', reason });
    expect(log.entries.filter((e) => e.level === 'error')).toEqual([]);
  });

  it('reads the body of a Request without a body stream (the hosted runtime\'s guest Request)', async () => {
    const { app } = setup();
    const signed = await signedRequest(envelope('block.action', actionData('increment')));
    const streamless = new Request(signed.url, { method: 'POST', headers: signed.headers, body: await signed.text() });
    Object.defineProperty(streamless, 'body', { get: () => null });
    const response = await app.fetch(streamless, ENV);
    expect(response.status).toBe(200);
    expect((await response.json() as { state: unknown }).state).toEqual({ count: 3, step: 1 });
  });

  it('accepts a timestamp just inside the window', async () => {
    const { app } = setup();
    const response = await app.fetch(await signedRequest(envelope('block.action', actionData('increment')), { timestamp: NOW_S - 300 }), ENV);
    expect(response.status).toBe(200);
  });

  it('accepts any of several secrets (rotation) and fails closed without one', async () => {
    const { app } = setup();
    const rotated = { ...ENV, [ENV_KEYS.signingSecret]: `whsec_${btoa('o'.repeat(32))} ${SECRET}` };
    expect((await app.fetch(await signedRequest(envelope('block.action', actionData('increment'))), rotated)).status).toBe(200);
    const missing = await app.fetch(await signedRequest(envelope('block.action', actionData('increment'))), { COUNTER_TOKEN: 't' });
    expect(missing.status).toBe(500);
    expect(await missing.json()).toMatchObject({ error: 'signing-secret-missing' });
  });

  it('refuses an envelope whose id is not the signed webhook-id, and a delivery that is not a POST', async () => {
    const { app } = setup();
    const mismatched = await app.fetch(await signedRequest(envelope('block.action', actionData('increment')), { id: 'dlv_other' }), ENV);
    expect(mismatched.status).toBe(400);
    const signed = await signedRequest(envelope('block.render', { block: COUNTER, mode: 'interactive' }));
    const get = new Request(signed.url, { method: 'GET', headers: signed.headers });
    expect((await app.fetch(get, ENV)).status).toBe(405);
  });

  it('answers 500 naming the variable when a declared environment variable is missing', async () => {
    const { app } = setup();
    const { status, body } = await deliver(app, 'block.render', { block: COUNTER, mode: 'interactive' }, { [ENV_KEYS.signingSecret]: SECRET });
    expect(status).toBe(500);
    expect(body.message).toContain('COUNTER_TOKEN');
  });

  it('reads secretEnv() without a schema as z.string().min(1) would (required, non-empty)', () => {
    const declarations = { TOKEN: secretEnv() };
    const zodMessage = (value: unknown) => z.string().min(1).safeParse(value).error?.issues[0]?.message;
    expect(readEnv(declarations, { TOKEN: 'x' })).toEqual({ ok: true, env: { TOKEN: 'x' } });
    expect(readEnv(declarations, {})).toEqual({ ok: false, key: 'TOKEN', message: 'required but not set' });
    for (const value of ['', 5, { a: 1 }]) {
      expect(readEnv(declarations, { TOKEN: value })).toEqual({ ok: false, key: 'TOKEN', message: zodMessage(value) });
    }
  });
});

describe('every interactive type', () => {
  const cases: Array<{ type: InteractiveType; data: unknown; expect: (body: any) => void }> = [
    { type: 'block.render', data: { block: COUNTER, mode: 'interactive' }, expect: (b) => expect(b.tree.attrs.summary).toBe('Clicks: 2') },
    { type: 'block.insert', data: { type: 'counter', props: { label: 'Ten' }, target: { circleId: 'cir_1' } }, expect: (b) => expect([b.state, b.tree.attrs.summary]).toEqual([{ count: 10, step: 1 }, 'Ten: 10']) },
    { type: 'block.action', data: actionData('reset'), expect: (b) => expect([b.state.count, b.notify]).toEqual([0, [{ memberId: 'mem_1', text: 'The counter was reset' }]]) },
    { type: 'select.search', data: { block: COUNTER, action: { name: 'find-owner', args: { team: 'ops' } }, query: 'ad' }, expect: (b) => expect(b.options[0]).toEqual({ value: 'mem_ada', label: 'Ada (ops)', description: 'matches ad' }) },
    {
      type: 'reference.resolve',
      data: { items: [
        { kind: 'issue', patternId: 'issue', params: { org: 'acme', id: '42' }, url: 'https://tracker.example.com/acme/issues/42' },
        { kind: 'issue', patternId: 'issue', params: { org: 'acme', id: 'secret' }, url: 'https://tracker.example.com/acme/issues/secret' },
        { kind: 'issue', patternId: 'issue', params: { org: 'acme', id: 'boom' }, url: 'https://tracker.example.com/acme/issues/boom' },
        { kind: 'gone', patternId: 'p', params: {}, url: 'https://gone.example.com/x' },
      ] },
      expect: (b) => {
        expect(b.items.map((i: { access: string }) => i.access)).toEqual(['granted', 'forbidden', 'unavailable', 'unavailable']);
        expect(b.items[0]).toMatchObject({ url: 'https://tracker.example.com/acme/issues/42', visibility: 'public', externalId: '42', block: { actions: {} } });
        expect(b.items[1].url).toBe('https://tracker.example.com/acme/issues/secret');
      },
    },
    { type: 'reference.search', data: { kind: 'issue', query: 'crash', limit: 10 }, expect: (b) => expect(b.items).toHaveLength(10) },
    {
      type: 'command.run',
      data: { command: 'count', options: { label: 'Cups', color: 'red' }, surface: { kind: 'circle', circleId: 'cir_1', conversationId: null }, invocationId: 'inv_2', interactionToken: 'platint_2' },
      expect: (b) => expect(b).toEqual({ visibility: 'public', block: { type: 'counter', props: { label: 'Cups (red)' } } }),
    },
    {
      type: 'messageAction.run',
      data: { id: 'summarize', message: { id: 'msg_1', conversationId: null, text: 'x', author: MESSAGE.author }, context: { level: 'thread', message: MESSAGE, thread: [MESSAGE, MESSAGE] }, surface: { kind: 'dm', partnerMemberId: 'mem_3' }, invocationId: 'inv_3', interactionToken: 'platint_3' },
      expect: (b) => expect(b.notice).toEqual({ tone: 'info', text: '2 messages in the thread' }),
    },
  ];

  it.each(cases)('$type answers 200 with a result its schema accepts', async ({ type, data, expect: check }) => {
    const { app } = setup();
    const { status, body } = await deliver(app, type, data);
    expect(status).toBe(200);
    expect(interactiveResultSchemas[type].safeParse(body).success).toBe(true);
    check(body);
  });

  it('answers a member\'s invalid form input beside the field', async () => {
    const { app } = setup();
    const { status, body } = await deliver(app, 'block.action', actionData('set-step', {}, { input: { step: '0' } }));
    expect([status, body]).toEqual([200, { fieldErrors: { step: 'At least 1' } }]);
  });

  it('answers 404 for an action this version does not have', async () => {
    const { app } = setup();
    expect((await deliver(app, 'block.action', actionData('nope'))).status).toBe(404);
  });
});

describe('deferral (202)', () => {
  let server: Loopback | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('block.action answers 202 with an empty body, then updates the block with the interaction token', async () => {
    server = await loopback(() => [200, { ...COUNTER, final: false, circleId: 'cir_1', conversationId: null, createdAt: '2025-01-02T03:04:05Z', updatedAt: '2025-01-02T03:04:05Z' }]);
    const { app } = setup();
    const work: Promise<unknown>[] = [];
    const response = await app.fetch(await signedRequest(envelope('block.action', actionData('slow-recount'))), { ...ENV, [ENV_KEYS.apiUrl]: server.url }, { waitUntil: (p) => work.push(p) });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    await Promise.all(work);
    expect(server.requests).toMatchObject([{ method: 'PATCH', url: '/v0/blocks/blk_1', body: { state: { count: 2 } }, headers: { authorization: 'Bearer platint_1' } }]);
  });

  it('command.run answers 202 with an InvocationDeferral', async () => {
    const { app } = setup();
    const response = await app.fetch(await signedRequest(envelope('command.run', {
      command: 'later', options: {}, surface: { kind: 'dm', partnerMemberId: 'mem_3' }, invocationId: 'inv_4', interactionToken: 'platint_4',
    })), ENV);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ visibility: 'public' });
  });

  it('a type that may not defer is the author\'s error', async () => {
    const log = captureLogger();
    const app = defineApp({
      name: 'Lazy', slug: 'lazy', hosting: 'platform',
      blocks: [defineBlock({ type: 'lazy', title: 'Lazy', props: {}, state: {}, render: () => deferred() as never })],
    }, { logger: log, now: () => NOW_MS });
    const response = await app.fetch(await signedRequest(envelope('block.render', { block: { ...COUNTER, type: 'lazy' }, mode: 'interactive' })), ENV);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: 'invalid-result' });
  });
});

describe('wrong answers are the author\'s error, never a silent 200', () => {
  const wrong: Array<{ name: string; action: string; code: string; field: string }> = [
    { name: 'a notice over 140 characters', action: 'broken-answer', code: 'invalid-result', field: 'notice.text' },
    { name: 'a state its schema refuses', action: 'broken-state', code: 'invalid-result', field: 'state.count' },
  ];

  it.each(wrong)('$name → 500 naming $field, logged', async ({ action, code, field }) => {
    const { app, log } = setup();
    const { status, body } = await deliver(app, 'block.action', actionData(action));
    expect(status).toBe(500);
    expect(body.error).toBe(code);
    expect(body.message).toContain(field);
    expect(body.message).toContain(`action ${action} of block counter`);
    expect(log.entries.filter((e) => e.level === 'error').map((e) => e.message)).toEqual([body.message]);
  });

  it('a handler that throws → 500 without its message; the detail goes to the log', async () => {
    const { app, log } = setup();
    const { status, body } = await deliver(app, 'block.action', actionData('throws'));
    expect(status).toBe(500);
    expect(body).toEqual({ error: 'handler-failed', message: 'action throws of block counter threw' });
    expect(JSON.stringify(log.entries)).toContain('secret detail: do not leak');
  });
});

describe('deliveries for pieces the app does not define', () => {
  // An app with a block only bundles no runner for references, commands or message actions
  // (absent-pieces.ts answers instead); its answers are those of an app that has such pieces,
  // just not the one asked for.
  const blockOnly = (log: ReturnType<typeof captureLogger>) => defineApp({
    name: 'Blocks only', slug: 'blocks-only', hosting: 'platform',
    blocks: [defineBlock({ type: 'note', title: 'Note', props: {}, state: {}, render: () => ui.block({ summary: 'Note' }, []) })],
  }, { logger: log, now: () => NOW_MS });
  const unknownPieces: Array<[InteractiveType, unknown]> = [
    ['reference.resolve', { items: [{ kind: 'ticket', patternId: 'p', params: {}, url: 'https://t.example.com/1' }, { kind: 'doc', patternId: 'd', params: {}, url: 'https://d.example.com/2' }] }],
    ['reference.search', { kind: 'ticket', query: 'x', limit: 5 }],
    ['command.run', { command: 'nope', options: {}, surface: { kind: 'circle', circleId: 'cir_1', conversationId: null }, invocationId: 'inv_2', interactionToken: 'platint_2' }],
    ['messageAction.run', { id: 'nope', message: { id: 'msg_1', conversationId: null, text: 'x', author: MESSAGE.author }, context: { level: 'message', message: MESSAGE }, surface: { kind: 'dm', partnerMemberId: 'mem_3' }, invocationId: 'inv_3', interactionToken: 'platint_3' }],
  ];

  it.each(unknownPieces)('%s answers as an app whose pieces do not include the one asked for', async (type, data) => {
    const without = captureLogger();
    const withPieces = setup();
    const a = await deliver(blockOnly(without) as never, type, data);
    const b = await deliver(withPieces.app, type, data);
    expect(a).toEqual(b);
    expect(a.status === 404 || a.status === 200).toBe(true);
    expect(without.entries.map((e) => [e.level, e.message])).toEqual(withPieces.log.entries.map((e) => [e.level, e.message]));
  });
});
