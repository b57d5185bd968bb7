// The servers sign deliveries with node:crypto for speed (`@platform/sdk/node`); the bytes
// must be exactly those of the main entry's Standard Webhooks signer (and so of the reference
// libraries it is checked against).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryHeaders, generateSigningSecret, signDelivery, verifyDelivery } from '@platform/sdk';
import { deliveryHeadersSync, nodeHmacSha256, serve, signDeliverySync } from '@platform/sdk/node';
import { useSyncHmac } from '../../../sandbox-lib/src/signing/hmac.ts';

describe('deliveryHeadersSync', () => {
  it('matches deliveryHeaders for any id, time, body and secret', async () => {
    await fc.assert(fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 4_000_000_000 }), fc.string({ maxLength: 300 }), fc.constantFrom('interactive', 'lifecycle'),
      async (id, timestamp, body, deliveryClass) => {
        const secret = generateSigningSecret();
        const ours = deliveryHeadersSync({ id, timestamp, body, secrets: [secret], deliveryClass, installId: 'ins_1' });
        expect(ours).toEqual(await deliveryHeaders({ id, timestamp, body, secret, deliveryClass, installId: 'ins_1' }));
        expect(signDeliverySync({ id, timestamp, body, secret })).toBe(await signDelivery({ id, timestamp, body, secret }));
      },
    ), { numRuns: 100 });
  });

  it('signs with every live secret, newest first, and either one verifies', async () => {
    const [current, previous] = [generateSigningSecret(), generateSigningSecret()];
    const now = 1_700_000_000;
    const body = '{"a":"é"}';
    const headers = deliveryHeadersSync({ id: 'dlv_1', timestamp: now, body, secrets: [current, previous], deliveryClass: 'interactive', installId: 'ins_1' });
    expect(headers['webhook-signature']).toBe(`${await signDelivery({ id: 'dlv_1', timestamp: now, body, secret: current })} ${await signDelivery({ id: 'dlv_1', timestamp: now, body, secret: previous })}`);
    for (const secret of [current, previous]) {
      expect(await verifyDelivery({ headers, body, secret, now: now * 1000 })).toMatchObject({ ok: true, id: 'dlv_1' });
    }
  });

  it('refuses a malformed secret, an empty id and no secret at all', () => {
    expect(() => signDeliverySync({ id: 'x', timestamp: 1, body: '', secret: 'whsec_!!!' })).toThrow(TypeError);
    expect(() => signDeliverySync({ id: '', timestamp: 1, body: '', secret: generateSigningSecret() })).toThrow(TypeError);
    expect(() => deliveryHeadersSync({ id: 'x', timestamp: 1, body: '', secrets: [], deliveryClass: 'interactive', installId: 'ins_1' })).toThrow(TypeError);
  });
});

describe('verifying with node:crypto (what serve installs)', () => {
  // Standard Webhooks' reference vector (as in test/sandbox-lib/signing.test.ts).
  const VECTOR = { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}', signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' };
  const headers = (signature = VECTOR.signature) => ({ 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': signature });
  let previous: ReturnType<typeof useSyncHmac> = null;
  beforeAll(() => { previous = useSyncHmac(nodeHmacSha256); });
  afterAll(() => { useSyncHmac(previous); });

  it('computes the HMAC WebCrypto computes, for any key and bytes', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 80 }), fc.uint8Array({ maxLength: 600 }), async (key, data) => {
      const imported = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      expect([...nodeHmacSha256(key, data)]).toEqual([...new Uint8Array(await crypto.subtle.sign('HMAC', imported, data))]);
    }), { numRuns: 100 });
  });

  it('verifies the reference vector byte-exactly and refuses a changed body, id or signature', async () => {
    const verify = (over: { body?: string; signature?: string; id?: string } = {}) => verifyDelivery({
      headers: { ...headers(over.signature), ...(over.id === undefined ? {} : { 'webhook-id': over.id }) }, body: over.body ?? VECTOR.body, secret: VECTOR.secret, now: VECTOR.timestamp * 1000,
    });
    expect(await verify()).toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
    expect(await verify({ body: '{"test": 2432232315}' })).toEqual({ ok: false, reason: 'signature-mismatch' });
    expect(await verify({ id: 'msg_other' })).toEqual({ ok: false, reason: 'signature-mismatch' });
    expect(await verify({ signature: 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=' })).toEqual({ ok: false, reason: 'signature-mismatch' });
    expect(await signDelivery(VECTOR)).toBe(VECTOR.signature);
  });

  it('is what serve installs', async () => {
    useSyncHmac(null);
    const server = await serve({ fetch: async () => new Response(null, { status: 204 }) }, { port: 0, env: {} });
    try {
      expect(useSyncHmac(nodeHmacSha256)).toBe(nodeHmacSha256);
    } finally {
      await server.close();
    }
  });
});
