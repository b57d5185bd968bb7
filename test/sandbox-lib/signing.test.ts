// Standard Webhooks signing: the public reference vector, a peer check both ways against the
// `standardwebhooks` reference library, rotation, and hostile headers that must fail, never throw.
import { createHmac } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { LIMITS, MIN_SECRET_BYTES, deliveryHeaders, generateSigningSecret, parseSigningSecret, signDelivery, verifyDelivery } from '@platform/sdk';
import { signDeliverySync } from '@platform/sdk/node';

// Reference vector of the Standard Webhooks libraries ("sign function works" in
// standard-webhooks/standard-webhooks libraries/javascript/src/webhook.test.ts, and TestWebhookSign
// in libraries/go/webhook_test.go).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
// A well-formed signature that matches nothing (the reference tests' "invalid signature").
const FOREIGN = 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=';

const NOW_MS = VECTOR.timestamp * 1000;
const headersOf = (signature = VECTOR.signature, extra: Record<string, unknown> = {}) => ({
  'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': signature, ...extra,
});
const check = (headers: unknown, options: { body?: string | Uint8Array | ArrayBuffer; secret?: string | string[]; now?: number | Date } = {}) =>
  verifyDelivery({ headers: headers as never, body: options.body ?? VECTOR.body, secret: options.secret ?? VECTOR.secret, now: options.now ?? NOW_MS });

describe('reference vector', () => {
  it('signs byte-exactly', async () => {
    expect(await signDelivery(VECTOR)).toBe(VECTOR.signature);
    expect(await signDelivery({ ...VECTOR, timestamp: new Date(NOW_MS + 999) })).toBe(VECTOR.signature);
    expect(await signDelivery({ ...VECTOR, secret: VECTOR.secret.slice('whsec_'.length) })).toBe(VECTOR.signature);
    expect(await signDelivery({ ...VECTOR, body: new TextEncoder().encode(VECTOR.body) })).toBe(VECTOR.signature);
  });

  it('verifies, returning id and timestamp', async () => {
    expect(await check(headersOf())).toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
    expect(await check(new Headers(headersOf()))).toMatchObject({ ok: true });
    expect(await check(headersOf(), { body: new TextEncoder().encode(VECTOR.body).buffer })).toMatchObject({ ok: true });
  });

  it('rejects a changed body, id or timestamp', async () => {
    expect(await check(headersOf(), { body: VECTOR.body.replace('2', '3') })).toEqual({ ok: false, reason: 'signature-mismatch' });
    expect(await check({ ...headersOf(), 'webhook-id': 'msg_other' })).toEqual({ ok: false, reason: 'signature-mismatch' });
    expect(await check({ ...headersOf(), 'webhook-timestamp': String(VECTOR.timestamp + 1) })).toEqual({ ok: false, reason: 'signature-mismatch' });
    expect(await check(headersOf(FOREIGN))).toEqual({ ok: false, reason: 'signature-mismatch' });
  });

  it('signing needs a valid secret and id', async () => {
    await expect(signDelivery({ ...VECTOR, secret: 'whsec_not base64!' })).rejects.toThrow(TypeError);
    await expect(signDelivery({ ...VECTOR, secret: 'whsec_' })).rejects.toThrow(TypeError);
    await expect(signDelivery({ ...VECTOR, id: '' })).rejects.toThrow(TypeError);
  });
});

describe('peer check against the standardwebhooks library', () => {
  it('our signature verifies with the library', async () => {
    const secret = generateSigningSecret();
    const body = JSON.stringify({ type: 'block.action', data: { text: 'héllo ✓' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = await deliveryHeaders({ id: 'dlv_1', timestamp, body, secret, deliveryClass: 'interactive', installId: 'ins_1' });
    expect(headers).toMatchObject({ 'webhook-id': 'dlv_1', 'webhook-timestamp': String(timestamp), 'platform-delivery': 'interactive', 'platform-install': 'ins_1' });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("the library's signature verifies with ours", async () => {
    const secret = generateSigningSecret();
    const body = JSON.stringify({ type: 'app.installed', data: { n: 1 } });
    const at = new Date();
    const signature = new Webhook(secret).sign('dlv_2', at, body);
    const headers = { 'webhook-id': 'dlv_2', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
    expect(await verifyDelivery({ headers, body, secret, now: at })).toMatchObject({ ok: true, id: 'dlv_2' });
    expect(await signDelivery({ id: 'dlv_2', timestamp: at, body, secret })).toBe(signature);
  });

  it('agrees with the library on arbitrary bodies and ids', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }).filter((id) => /^[\x21-\x2b\x2d-\x7e]+$/.test(id)), fc.string(), async (id, body) => {
      const secret = VECTOR.secret;
      expect(await signDelivery({ id, timestamp: VECTOR.timestamp, body, secret })).toBe(new Webhook(secret).sign(id, new Date(NOW_MS), body));
    }), { numRuns: 100 });
  });
});

describe('rotation and several signatures', () => {
  it('accepts a header holding several signatures when any v1 matches', async () => {
    const header = [FOREIGN, `v2,${VECTOR.signature.slice(3)}`, 'v1a,c2lnbmF0dXJl', VECTOR.signature, FOREIGN].join(' ');
    expect(await check(headersOf(header))).toMatchObject({ ok: true });
  });

  it('accepts when any of several secrets matches', async () => {
    expect(await check(headersOf(), { secret: [generateSigningSecret(), VECTOR.secret] })).toMatchObject({ ok: true });
    expect(await check(headersOf(), { secret: [generateSigningSecret()] })).toEqual({ ok: false, reason: 'signature-mismatch' });
  });

  it('ignores the signature of a version it does not know', async () => {
    expect(await check(headersOf(`v2,${VECTOR.signature.slice(3)}`))).toEqual({ ok: false, reason: 'signature-mismatch' });
  });
});

describe('timestamps', () => {
  const tolerance = LIMITS.deliveries.signatureToleranceSeconds;
  it.each([
    [-tolerance, true], [tolerance, true], [tolerance + 1, false], [-(tolerance + 1), false],
  ])('clock %i s from the timestamp: ok %s', async (offset, ok) => {
    const result = await check(headersOf(), { now: NOW_MS + offset * 1000 });
    expect(result.ok).toBe(ok);
    if (!ok) expect(result).toEqual({ ok: false, reason: offset > 0 ? 'timestamp-too-old' : 'timestamp-too-new' });
  });

  it('checks the timestamp before looking at the body', async () => {
    const body = { get length(): number { throw new Error('the body was read'); } } as unknown as string;
    expect(await check(headersOf(), { body, now: NOW_MS + 3_600_000 })).toEqual({ ok: false, reason: 'timestamp-too-old' });
  });
});

describe('hostile headers fail, never throw', () => {
  const rows: Array<[string, unknown, string]> = [
    ['no headers at all', {}, 'missing-header'],
    ['null headers', null, 'missing-header'],
    ['no id', { ...headersOf(), 'webhook-id': undefined }, 'missing-header'],
    ['no timestamp', { 'webhook-id': VECTOR.id, 'webhook-signature': VECTOR.signature }, 'missing-header'],
    ['no signature', { 'webhook-id': VECTOR.id, 'webhook-timestamp': '1' }, 'missing-header'],
    ['an empty array', { ...headersOf(), 'webhook-signature': [] }, 'missing-header'],
    ['a repeated header (array)', { ...headersOf(), 'webhook-id': [VECTOR.id, VECTOR.id] }, 'duplicate-header'],
    ['a repeated header (two cases)', { ...headersOf(), 'Webhook-Signature': VECTOR.signature }, 'duplicate-header'],
    ['a repeated header joined by Headers', (() => { const h = new Headers(headersOf()); h.append('webhook-signature', VECTOR.signature); return h; })(), 'duplicate-header'],
    ['a non-string value', { ...headersOf(), 'webhook-id': 42 }, 'malformed-header'],
    ['an oversized id', { ...headersOf(), 'webhook-id': 'x'.repeat(LIMITS.deliveries.webhookIdMaxChars + 1) }, 'oversized-header'],
    ['an oversized signature header', headersOf(`${VECTOR.signature} `.repeat(200).trim()), 'oversized-header'],
    ['too many signatures', headersOf(Array.from({ length: LIMITS.deliveries.signaturesPerHeader + 1 }, () => FOREIGN).join(' ')), 'oversized-header'],
    ['an oversized timestamp', { ...headersOf(), 'webhook-timestamp': '1'.repeat(40) }, 'oversized-header'],
    ['an id with spaces', { ...headersOf(), 'webhook-id': 'msg 1' }, 'malformed-header'],
    ['an empty id', { ...headersOf(), 'webhook-id': '' }, 'malformed-header'],
    ['a non-numeric timestamp', { ...headersOf(), 'webhook-timestamp': 'hello' }, 'invalid-timestamp'],
    ['a negative timestamp', { ...headersOf(), 'webhook-timestamp': '-1614265330' }, 'invalid-timestamp'],
    ['a fractional timestamp', { ...headersOf(), 'webhook-timestamp': '1614265330.5' }, 'invalid-timestamp'],
    ['an exponent timestamp', { ...headersOf(), 'webhook-timestamp': '1.6e9' }, 'invalid-timestamp'],
    ['a padded timestamp', { ...headersOf(), 'webhook-timestamp': ' 1614265330' }, 'invalid-timestamp'],
    ['a huge timestamp', { ...headersOf(), 'webhook-timestamp': '999999999999' }, 'timestamp-too-new'],
    ['a signature without version', headersOf(VECTOR.signature.slice(3)), 'malformed-header'],
    ['a truncated signature', headersOf(VECTOR.signature.slice(0, 8)), 'signature-mismatch'],
    ['an empty v1 signature', headersOf('v1,'), 'malformed-header'],
    ['double spaces', headersOf(`${FOREIGN}  ${VECTOR.signature}`), 'malformed-header'],
    ['signature not base64', headersOf('v1,@@@@'), 'signature-mismatch'],
    ['an empty signature header', headersOf(''), 'malformed-header'],
  ];

  it.each(rows)('%s → %s', async (_name, headers, reason) => {
    await expect(check(headers)).resolves.toEqual({ ok: false, reason });
  });

  it('an invalid secret is a failure too', async () => {
    await expect(check(headersOf(), { secret: 'whsec_***' })).resolves.toEqual({ ok: false, reason: 'invalid-secret' });
    await expect(check(headersOf(), { secret: [] })).resolves.toEqual({ ok: false, reason: 'invalid-secret' });
  });

  it('headers whose reading throws are a failure', async () => {
    const trap = new Proxy({}, { ownKeys() { throw new Error('trap'); } });
    await expect(check(trap)).resolves.toEqual({ ok: false, reason: 'malformed-header' });
    await expect(check({ get() { throw new Error('trap'); } })).resolves.toEqual({ ok: false, reason: 'malformed-header' });
  });

  it('arbitrary header values never throw and never verify', async () => {
    await fc.assert(fc.asyncProperty(
      fc.record({ 'webhook-id': fc.oneof(fc.string(), fc.constant(VECTOR.id)), 'webhook-timestamp': fc.oneof(fc.string(), fc.constant(String(VECTOR.timestamp))), 'webhook-signature': fc.string({ maxLength: 5000 }) }, { requiredKeys: [] }),
      async (headers) => {
        const result = await check(headers);
        expect(result.ok).toBe(false);
      },
    ), { numRuns: 300 });
  });
});

describe('secrets', () => {
  it('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(parseSigningSecret(a)).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(a);
  });

  it.each(['', 'whsec_', 'whsec_abc', 'whsec_ab=c', 'whsec_YQ==YQ==', 'whsec_YR=='])('refuses %j', (secret) => {
    expect(parseSigningSecret(secret)).toBeNull();
  });
});

describe('secrets shorter than 24 bytes (Standard Webhooks guidance)', () => {
  const secretOf = (bytes: number) => `whsec_${btoa('k'.repeat(bytes))}`;
  const macWith = (bytes: number) => `v1,${createHmac('sha256', Buffer.from('k'.repeat(bytes))).update(`${VECTOR.id}.${VECTOR.timestamp}.${VECTOR.body}`).digest('base64')}`;

  it('is 24', () => {
    expect(MIN_SECRET_BYTES).toBe(24);
    expect(parseSigningSecret(VECTOR.secret)).toHaveLength(24);
  });

  it.each([1, 16, 23])('verifyDelivery refuses a secret of %i bytes, even with the signature it makes', async (bytes) => {
    await expect(check(headersOf(macWith(bytes)), { secret: secretOf(bytes) })).resolves.toEqual({ ok: false, reason: 'secret-too-short' });
  });

  it('verifyDelivery refuses a short secret beside a good one (a misconfiguration is told, not skipped)', async () => {
    await expect(check(headersOf(), { secret: [VECTOR.secret, secretOf(8)] })).resolves.toEqual({ ok: false, reason: 'secret-too-short' });
  });

  it('verifyDelivery takes 24 bytes', async () => {
    await expect(check(headersOf(macWith(24)), { secret: secretOf(24) })).resolves.toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
  });

  it('signDelivery and signDeliverySync refuse them with a message that says the length and the rule', async () => {
    const message = 'The signing secret is 23 bytes; it must be at least 24 (Standard Webhooks). Use the secret the platform issued (whsec_…)';
    await expect(signDelivery({ ...VECTOR, secret: secretOf(23) })).rejects.toThrow(new TypeError(message));
    expect(() => signDeliverySync({ ...VECTOR, secret: secretOf(23) })).toThrow(new TypeError(message));
    await expect(signDelivery({ ...VECTOR, secret: secretOf(24) })).resolves.toBe(macWith(24));
    expect(signDeliverySync({ ...VECTOR, secret: secretOf(24) })).toBe(macWith(24));
  });
});

describe('portability', () => {
  it('signing uses only Web-standard APIs (no node: imports, Buffer or atob)', () => {
    const dir = fileURLToPath(new URL('../../sandbox-lib/src/signing/', import.meta.url));
    for (const file of readdirSync(dir)) {
      const source = readFileSync(dir + file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      expect(source, file).not.toMatch(/from ['"]node:|require\(|\bBuffer\b|\batob\(|\bbtoa\(/);
    }
  });
});
