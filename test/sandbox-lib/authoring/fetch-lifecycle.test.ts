// app.fetch on lifecycle deliveries (spec Events, delivery rules 2, 5 and 6): events answer 2xx,
// a repeated webhook-id runs once, a payload older than one already processed is ignored, and a
// failing handler answers 500 so the service retries (and the retry runs again).
import { describe, expect, it } from 'vitest';
import { createSeenStore, defineApp, ENV_KEYS, silentLogger } from '@platform/sdk';
import { counterApp, type Seen } from '../../fixtures/apps/counter.ts';
import { AUTHOR, COUNTER, envelope, NOW_MS, SECRET, signedRequest } from './helpers.ts';

const ENV = { [ENV_KEYS.signingSecret]: SECRET, COUNTER_TOKEN: 'token' };

function setup() {
  const seen: Seen = { events: [] };
  return { seen, app: counterApp({ logger: silentLogger, now: () => NOW_MS }, seen) };
}

const decision = (version: number) => ({ decision: { id: 'dec_1', circleId: 'cir_1', conversationId: null, title: 'Ship it', text: 'We ship Friday', version } });
const conversation = (version: number, title = 'Launch') => ({ conversation: { id: 'cnv_1', circleId: 'cir_1', title, status: null, agreed: null, version } });

async function send(app: ReturnType<typeof counterApp>, body: ReturnType<typeof envelope>) {
  const response = await app.fetch(await signedRequest(body, { deliveryClass: 'lifecycle' }), ENV);
  return response.status;
}

describe('lifecycle events', () => {
  it('runs the subscribed handler and acknowledges with 2xx', async () => {
    const { app, seen } = setup();
    const body = envelope('decision.published', decision(1));
    expect(await send(app, body)).toBe(204);
    expect(seen.events).toEqual([{ type: 'decision.published', id: body.id }]);
  });

  it('acknowledges a block event', async () => {
    const { app, seen } = setup();
    expect(await send(app, envelope('block.created', { block: { ...COUNTER, circleId: 'cir_1', conversationId: null } }))).toBe(204);
    expect(seen.events.map((e) => e.type)).toEqual(['block.created']);
  });

  it('acknowledges events it does not handle, known or new, without running anything', async () => {
    const { app, seen } = setup();
    const post = { post: { id: 'pst_1', circleId: 'cir_1', conversationId: null, text: 'hi', author: AUTHOR, createdAt: '2025-01-02T03:04:05Z', version: 1 } };
    expect(await send(app, envelope('post.created', post))).toBe(204);
    expect(await send(app, envelope('weather.changed', { weather: 'sunny' }))).toBe(204);
    expect(seen.events).toEqual([]);
  });

  it('refuses a payload its event schema does not accept', async () => {
    const { app, seen } = setup();
    expect(await send(app, envelope('decision.published', { decision: { id: 'dec_1' } }))).toBe(400);
    expect(seen.events).toEqual([]);
  });
});

describe('duplicates (webhook-id)', () => {
  it('runs a repeated lifecycle delivery once and acknowledges both', async () => {
    const { app, seen } = setup();
    const body = envelope('decision.published', decision(1));
    expect([await send(app, body), await send(app, body)]).toEqual([204, 204]);
    expect(seen.events).toHaveLength(1);
  });

  it('refuses a replayed interactive delivery with 409', async () => {
    const { app } = setup();
    const body = envelope('block.render', { block: COUNTER, mode: 'interactive' });
    expect((await app.fetch(await signedRequest(body), ENV)).status).toBe(200);
    expect((await app.fetch(await signedRequest(body), ENV)).status).toBe(409);
  });

  it('forgets the oldest ids past its bound', async () => {
    const store = createSeenStore({ max: 2 });
    for (const id of ['a', 'b', 'c']) await store.add(id);
    expect([await store.has('a'), await store.has('b'), await store.has('c')]).toEqual([false, true, true]);
  });

  it('can be turned off', async () => {
    const seen: Seen = { events: [] };
    const app = counterApp({ logger: silentLogger, now: () => NOW_MS, seen: false }, seen);
    const body = envelope('decision.published', decision(1));
    await send(app, body);
    await send(app, body);
    expect(seen.events).toHaveLength(2);
  });
});

describe('older versions (payload version)', () => {
  it('ignores a payload older than one already processed, and runs newer and equal ones', async () => {
    const { app, seen } = setup();
    for (const version of [5, 3, 5, 6]) expect(await send(app, envelope('conversation.updated', conversation(version)))).toBe(204);
    expect(seen.events).toHaveLength(3);
  });

  it('keeps one order per event name and subject', async () => {
    const { app, seen } = setup();
    await send(app, envelope('decision.published', decision(4)));
    await send(app, envelope('conversation.updated', conversation(1)));
    await send(app, envelope('decision.published', { decision: { ...decision(1).decision, id: 'dec_2' } }));
    expect(seen.events).toHaveLength(3);
  });
});

describe('a failing handler', () => {
  it('answers 500 so the service retries, and the retry (same webhook-id) runs again', async () => {
    let calls = 0;
    const app = defineApp({
      name: 'Flaky', slug: 'flaky', hosting: 'platform',
      events: {
        'conversation.agreed': () => {
          calls += 1;
          if (calls === 1) throw new Error('database busy');
        },
      },
    }, { logger: silentLogger, now: () => NOW_MS });
    const body = envelope('conversation.agreed', conversation(2));
    const first = await app.fetch(await signedRequest(body, { deliveryClass: 'lifecycle' }), { [ENV_KEYS.signingSecret]: SECRET });
    expect(first.status).toBe(500);
    expect(await first.json()).toEqual({ error: 'handler-failed', message: 'event conversation.agreed threw' });
    expect((await app.fetch(await signedRequest(body, { deliveryClass: 'lifecycle' }), { [ENV_KEYS.signingSecret]: SECRET })).status).toBe(204);
    expect(calls).toBe(2);
  });
});
