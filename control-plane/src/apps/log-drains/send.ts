/**
 * @module apps/log-drains/send
 * One signed POST of a batch to a drain. Signed as deliveries are (Standard Webhooks headers, the
 * SDK's signer), with every live secret: the current one and, for 24 hours after a rotation, the
 * previous one (space-separated signatures, as apps/apps/signing.ts does for app secrets). The POST
 * itself is handed in (`DrainPost`): the deliveries area's guarded client, so a drain reaches what
 * an app's endpoint may reach and nothing else.
 */
import { DELIVERY_HEADERS, generateSigningSecret, signDelivery } from '@platform/sdk';
import type { Secrets } from '../../core/crypto/secrets.ts';
import { SIGNING_ROTATION_MS } from '../apps/signing.ts';
import type { DrainRow } from './store.ts';

/** The previous secret signs this long after a rotation (the app secret's window). */
export const DRAIN_ROTATION_MS = SIGNING_ROTATION_MS;

export type DrainPostOutcome =
  | { ok: true; status: number; durationMs: number }
  | { ok: false; failure: string; message: string; status?: number; durationMs: number };

export type DrainPost = (input: { url: string; body: string; headers: Record<string, string>; timeoutMs: number; maxResponseBytes: number }) => Promise<DrainPostOutcome>;

// Bound as associated data: a sealed secret copied onto another drain's row does not open there.
const context = (drainId: string) => `log-drain:${drainId}`;

export function newDrainSecret(secrets: Secrets, drainId: string): { secret: string; sealed: string } {
  const secret = generateSigningSecret();
  return { secret, sealed: secrets.seal(secret, context(drainId)) };
}

export function drainSecrets(secrets: Secrets, drain: Pick<DrainRow, 'id' | 'secret_enc' | 'previous_secret_enc' | 'previous_secret_expires_at'>, now: number): string[] {
  const out = [secrets.open(drain.secret_enc, context(drain.id))];
  if (drain.previous_secret_enc !== null && drain.previous_secret_expires_at !== null && drain.previous_secret_expires_at.getTime() > now) {
    out.push(secrets.open(drain.previous_secret_enc, context(drain.id)));
  }
  return out;
}

/** `webhook-id`, `webhook-timestamp` and `webhook-signature` (one per live secret) of a body. */
export async function signedHeaders(input: { id: string; body: string; secrets: readonly string[]; now: number }): Promise<Record<string, string>> {
  const timestamp = Math.floor(input.now / 1000);
  const signatures = await Promise.all(input.secrets.map((secret) => signDelivery({ id: input.id, timestamp, body: input.body, secret })));
  return {
    [DELIVERY_HEADERS.id]: input.id,
    [DELIVERY_HEADERS.timestamp]: String(timestamp),
    [DELIVERY_HEADERS.signature]: signatures.join(' '),
    'content-type': 'application/json',
    'user-agent': 'platform-log-drain/1',
  };
}

/** A 2xx acknowledges; anything else (other statuses, no answer, a refused address) is a failure to retry. */
export function acknowledged(outcome: DrainPostOutcome): outcome is { ok: true; status: number; durationMs: number } {
  return outcome.ok && outcome.status >= 200 && outcome.status < 300;
}

export function failureText(outcome: DrainPostOutcome): string {
  const text = outcome.ok ? `The drain answered ${outcome.status}` : `${outcome.failure}: ${outcome.message}`;
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}
