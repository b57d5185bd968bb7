/**
 * @module apps/apps/signing
 * An app's signing secrets (`whsec_…`), sealed at rest. Rotating keeps the previous secret for 24
 * hours, and every delivery in that window is signed with both (space-separated signatures), so
 * the app can switch to the new secret whenever it likes without dropping a delivery.
 */
import { generateSigningSecret } from '@platform/sdk';
import type { Secrets } from '../../core/crypto/secrets.ts';
import type { AppRow } from './store.ts';

/** How long the previous secret keeps signing after a rotation. */
export const SIGNING_ROTATION_MS = 24 * 60 * 60 * 1000;

// Bound as associated data: a sealed secret copied onto another app's row does not open there.
const context = (appId: string) => `signing:${appId}`;

export function sealSigningSecret(secrets: Secrets, appId: string, secret: string): string {
  return secrets.seal(secret, context(appId));
}

export function openSigningSecret(secrets: Secrets, appId: string, sealed: string): string {
  return secrets.open(sealed, context(appId));
}

/** A fresh secret and its sealed form. */
export function newSigningSecret(secrets: Secrets, appId: string): { secret: string; sealed: string } {
  const secret = generateSigningSecret();
  return { secret, sealed: sealSigningSecret(secrets, appId, secret) };
}

type SigningColumns = Pick<AppRow, 'id' | 'signing_secret_enc' | 'previous_signing_secret_enc' | 'previous_signing_secret_expires_at'>;

/**
 * The secrets a delivery to `app` is signed with at `now`: the current one first, then the previous
 * one while its 24 hours last. The delivery engine signs with each and joins the signatures.
 *
 * @example
 * const secrets = signingSecretsFor(deps.secrets, app, new Date(clock.now())); // ['whsec_new…', 'whsec_old…']
 */
export function signingSecretsFor(secrets: Secrets, app: SigningColumns, now: Date | number): string[] {
  const at = typeof now === 'number' ? now : now.getTime();
  const out = [openSigningSecret(secrets, app.id, app.signing_secret_enc)];
  if (app.previous_signing_secret_enc !== null && app.previous_signing_secret_expires_at !== null &&
      app.previous_signing_secret_expires_at.getTime() > at) {
    out.push(openSigningSecret(secrets, app.id, app.previous_signing_secret_enc));
  }
  return out;
}
