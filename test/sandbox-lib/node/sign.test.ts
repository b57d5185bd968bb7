// The servers sign deliveries with node:crypto for speed (`@platform/sdk/node`); the bytes
// must be exactly those of the main entry's Standard Webhooks signer (and so of the reference
// libraries it is checked against).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, generateSigningSecret, signDelivery, verifyDelivery } from '@platform/sdk';
import { deliveryHeadersSync, signDeliverySync } from '@platform/sdk/node';

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
