/**
 * The delivery pipeline signs what is sent: a self-hosted app's envelope carries its install token;
 * a hosted app's is signed without it (hosted apps never handle install tokens) and the token travels
 * apart, for the runtime node to add to the app's own /v0 calls. Every live signing secret signs.
 * An install's token is reused for five minutes, so a schedule due every minute mints one for five
 * firings, each with at least 55 minutes of its hour left.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyDelivery } from '@platform/sdk';
import { newSigningSecret } from '../../../control-plane/src/apps/apps/signing.ts';
import { createSecrets } from '../../../control-plane/src/core/crypto/secrets.ts';
import { createDeliveryPipeline, TOKEN_REUSE_MS } from '../../../control-plane/src/deliveries/pipeline/pipeline.ts';
import type { InstallTarget } from '../../../control-plane/src/deliveries/pipeline/install-target.ts';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const secrets = createSecrets({ masterKey: randomBytes(32) });
const signing = newSigningSecret(secrets, 'app_1');

function pipeline() {
  return createDeliveryPipeline({
    clock: { now: () => NOW },
    tokens: { mint: async () => ({ token: 'platapp_minted', expiresAt: NOW + 3_600_000 }) },
    secrets,
    target: { send: async () => ({ ok: true, status: 200, body: new Uint8Array(), durationMs: 0 }) },
  });
}

function target(hosting: 'self' | 'platform'): InstallTarget {
  return {
    installId: 'ins_1', workspaceId: 'wsp_1', installKind: 'workspace', installStatus: 'active', version: 3, scopes: [], configEnc: null,
    app: { id: 'app_1', slug: 'counter', name: 'Counter', hosting, endpointUrl: hosting === 'self' ? 'https://counter.example.com/platform' : null, signingSecretEnc: signing.sealed, previousSigningSecretEnc: null, previousSigningSecretExpiresAt: null },
  };
}

const request = (hosting: 'self' | 'platform') => ({
  id: 'dlv_1', deliveryClass: 'lifecycle' as const, type: 'decision.published', createdAt: new Date(NOW), target: target(hosting),
  actor: null, data: { decision: { id: 'dec_1' } }, withInstallToken: true, timeoutMs: 15_000, maxResponseBytes: 1 << 20,
});

describe('delivery pipeline', () => {
  it('puts the install token in a self-hosted app\'s signed envelope', async () => {
    const d = await pipeline().prepare(request('self'));
    expect(JSON.parse(d.body).installToken.token).toBe('platapp_minted');
    expect(d.installToken ?? null).toBeNull();
    expect(await verifyDelivery({ headers: d.headers, body: d.body, secret: signing.secret, now: NOW })).toMatchObject({ ok: true, id: 'dlv_1' });
  });

  it('signs a hosted app\'s envelope without the install token, which travels apart', async () => {
    const d = await pipeline().prepare(request('platform'));
    expect(JSON.parse(d.body)).not.toHaveProperty('installToken');
    expect(d.body).not.toContain('platapp_minted');
    expect(d.installToken).toBe('platapp_minted');
    expect(await verifyDelivery({ headers: d.headers, body: d.body, secret: signing.secret, now: NOW })).toMatchObject({ ok: true, id: 'dlv_1' });
  });

  it('reuses an install token for five minutes, longer than a schedule due every minute, then mints a fresh one', async () => {
    let now = NOW;
    const minted: number[] = [];
    const p = createDeliveryPipeline({
      clock: { now: () => now },
      tokens: { mint: async () => { minted.push(now); return { token: `platapp_${minted.length}`, expiresAt: now + 3_600_000 }; } },
      secrets,
      target: { send: async () => ({ ok: true, status: 200, body: new Uint8Array(), durationMs: 0 }) },
    });
    const tokenAt = async (at: number) => {
      now = at;
      return JSON.parse((await p.prepare({ ...request('self'), createdAt: new Date(at) })).body).installToken as { token: string; expiresAt: string };
    };
    expect(TOKEN_REUSE_MS).toBeGreaterThan(60_000);
    const firings = [];
    for (let i = 0; i < 5; i++) firings.push(await tokenAt(NOW + i * 60_000));
    expect(firings.map((t) => t.token)).toEqual(Array(5).fill('platapp_1'));
    expect(Date.parse(firings[4]!.expiresAt) - (NOW + 4 * 60_000)).toBeGreaterThanOrEqual(55 * 60_000);
    expect((await tokenAt(NOW + TOKEN_REUSE_MS - 1)).token).toBe('platapp_1');
    expect((await tokenAt(NOW + TOKEN_REUSE_MS)).token).toBe('platapp_2');
    expect(minted).toEqual([NOW, NOW + TOKEN_REUSE_MS]);
  });
});
