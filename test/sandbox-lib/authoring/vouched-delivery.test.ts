// Deliveries to a hosted app: the app holds no signing secret (no process that runs guest code
// does), so the SDK takes the runtime's word, `ctx.deliveryId`, instead of a signature, and still
// requires the envelope to be the one vouched for. Anything else (no ctx, a route's ctx, a ctx
// without a delivery id) is checked by signature as before: without a secret it is refused.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '@platform/sdk';
import { counterApp, type Seen } from '../../fixtures/apps/counter.ts';
import { NOW_MS, envelope, signedRequest } from './helpers.ts';

const ENV = { COUNTER_TOKEN: 'token' };

function setup() {
  const seen: Seen = { events: [] };
  return { seen, app: counterApp({ logger: silentLogger, now: () => NOW_MS }, seen) };
}

const decision = { decision: { id: 'dec_1', circleId: 'cir_1', conversationId: null, title: 'Ship it', text: 'We ship Friday', version: 1 } };

describe('a delivery the hosted runtime vouches for', () => {
  it('runs without a signing secret when ctx.deliveryId is the envelope id', async () => {
    const { app, seen } = setup();
    const body = envelope('decision.published', decision);
    const response = await app.fetch(await signedRequest(body, { deliveryClass: 'lifecycle' }), ENV, { kind: 'lifecycle', deliveryId: body.id, waitUntil: () => {} });
    expect(response.status).toBe(204);
    expect(seen.events).toEqual([{ type: 'decision.published', id: body.id }]);
  });

  it('refuses an envelope other than the one vouched for', async () => {
    const { app, seen } = setup();
    const body = envelope('decision.published', decision);
    const response = await app.fetch(await signedRequest(body, { deliveryClass: 'lifecycle' }), ENV, { kind: 'lifecycle', deliveryId: 'dlv_other' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'id-mismatch' });
    expect(seen.events).toEqual([]);
  });

  it.each([
    ['no ctx', undefined],
    ['a route\'s ctx (requests from outside)', { kind: 'route', deliveryId: null }],
    ['a route\'s ctx claiming a delivery id', { kind: 'route', deliveryId: 'dlv_x' }],
    ['an empty delivery id', { kind: 'interactive', deliveryId: '' }],
  ])('with %s, checks the signature as before: no secret, no delivery', async (_what, ctx) => {
    const { app, seen } = setup();
    const body = envelope('decision.published', decision);
    const response = await app.fetch(await signedRequest(body, { deliveryClass: 'lifecycle' }), ENV, ctx);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: 'signing-secret-missing' });
    expect(seen.events).toEqual([]);
  });
});
