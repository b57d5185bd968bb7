// The node signs deliveries with node:crypto for speed; the bytes must be exactly those of
// sandbox-lib's Standard Webhooks signer (and so of the reference libraries it is checked against).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, generateSigningSecret, verifyDelivery } from '@platform/sandbox-lib';
import { signedDeliveryHeaders } from '../../runtime/src/deliveries/sign.ts';

describe('signedDeliveryHeaders', () => {
  it('matches sandbox-lib\'s deliveryHeaders for any id, time, body and secret', async () => {
    await fc.assert(fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 4_000_000_000 }), fc.string({ maxLength: 300 }), fc.constantFrom('interactive', 'lifecycle'),
      async (id, timestamp, body, deliveryClass) => {
        const secret = generateSigningSecret();
        const ours = signedDeliveryHeaders({ id, timestamp, body, secret, deliveryClass, installId: 'ins_1' });
        expect(ours).toEqual(await deliveryHeaders({ id, timestamp, body, secret, deliveryClass, installId: 'ins_1' }));
      },
    ), { numRuns: 100 });
  });

  it('is verified by sandbox-lib\'s verifier', async () => {
    const secret = generateSigningSecret();
    const now = 1_700_000_000;
    const headers = signedDeliveryHeaders({ id: 'dlv_1', timestamp: now, body: '{"a":1}', secret, deliveryClass: 'interactive', installId: 'ins_1' });
    expect(await verifyDelivery({ headers, body: '{"a":1}', secret, now: now * 1000 })).toMatchObject({ ok: true, id: 'dlv_1' });
  });

  it('refuses a malformed secret', () => {
    expect(() => signedDeliveryHeaders({ id: 'x', timestamp: 1, body: '', secret: 'whsec_!!!', deliveryClass: 'interactive', installId: '' })).toThrow(TypeError);
  });
});
