/**
 * @module deliveries/pipeline/pipeline
 * The one place a delivery is prepared and sent, for both classes (interactive from the engine,
 * deliveries/interactive/engine.ts; lifecycle from the outbox, deliveries/outbox/attempt.ts):
 *
 * 1. the envelope (deliveries/pipeline/envelope.ts) with the install's decrypted config
 *    (apps/installs/config.ts) and an install token (for hosted apps the token travels apart: they
 *    never handle one, the runtime node adds it to their /v0 calls);
 * 2. signed with every live signing secret of the app (apps/apps/signing.ts), by sandbox-lib's
 *    Node signer (`@platform/sdk/node`);
 * 3. handed to the target that fits the app and the install (deliveries/targets/target.ts: the
 *    app's endpoint, the development relay, or a runtime node).
 *
 * What each class decides stays with it: whether to send at all (an inactive install, a paused
 * one), how long to wait, what the answer means, what is recorded.
 *
 * Install tokens: one minted for the install within the last five minutes is reused (an hour's
 * token with at least 55 minutes left is still fresh for a handler), so a burst of clicks, a batch
 * of events or five firings of a schedule due every minute (the shortest period) mint one; a window
 * of one minute just missed that schedule and minted a token per firing. A replay's read-only token
 * is minted for it alone.
 * Signing secrets: opening sealed secrets (AES-GCM) on every delivery adds up; what opened once
 * stays known, keyed by the sealed values and whether the previous secret still signs.
 */
import type { DeliveryClass } from '@platform/sdk';
import { deliveryHeadersSync } from '@platform/sdk/node';
import { signingSecretsFor } from '../../apps/apps/signing.ts';
import { installConfigFor } from '../../apps/installs/config.ts';
import type { TokenService } from '../../apps/tokens/service.ts';
import type { Clock } from '../../core/clock/clock.ts';
import type { Secrets } from '../../core/crypto/secrets.ts';
import type { DeliveryOutcome, DeliveryTarget, OutgoingDelivery } from '../targets/target.ts';
import { envelopeObject } from './envelope.ts';
import type { InstallTarget } from './install-target.ts';

export interface DeliveryRequest {
  /** The envelope id (`webhook-id`). */
  id: string;
  deliveryClass: DeliveryClass;
  type: string;
  /** When it happened (the envelope's `timestamp`). */
  createdAt: Date;
  target: InstallTarget;
  /** The member who caused it; null leaves `actor` out. */
  actor: { memberId: string; name: string } | null;
  data: Record<string, unknown>;
  /** False leaves the install token out (an uninstalled install's last event: its tokens are refused). */
  withInstallToken: boolean;
  /** A replay: the install token is a fresh read-only one (never reused, never shared with real deliveries). */
  readOnly?: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface DeliveryPipeline {
  /** The delivery, ready to send: enveloped, signed, addressed. Throws when it cannot be prepared (a secret that does not open). */
  prepare(request: DeliveryRequest): Promise<OutgoingDelivery>;
  /** Sends a prepared delivery to the target that fits its app and install. */
  send(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
}

export interface DeliveryPipelineDeps {
  clock: Clock;
  tokens: Pick<TokenService, 'mint'>;
  /** Opens the sealed signing secrets and install config. */
  secrets: Secrets;
  /** Where deliveries go (the router: endpoint, development relay, runtime node). */
  target: DeliveryTarget;
}

/** An install token minted this recently is reused: longer than the shortest schedule period (a minute). */
export const TOKEN_REUSE_MS = 5 * 60_000;
/** Entries of the token and secret caches before they are emptied (installs and apps seen lately). */
const CACHE_MAX = 10_000;

type MintedToken = { token: string; expiresAt: number; mintedAt: number };

/**
 * @example
 * const pipeline = createDeliveryPipeline({ clock, tokens, secrets, target: router });
 * const delivery = await pipeline.prepare({ id, deliveryClass: 'lifecycle', type: 'post.created', createdAt, target, actor, data,
 *   withInstallToken: true, timeoutMs: 15_000, maxResponseBytes: 1 << 20 });
 * const outcome = await pipeline.send(delivery);
 */
export function createDeliveryPipeline(deps: DeliveryPipelineDeps): DeliveryPipeline {
  const tokens = new Map<string, Promise<MintedToken>>();
  const secretsCache = new Map<string, string[]>();

  const secretsOf = (app: InstallTarget['app'], now: number): string[] => {
    const previousLive = app.previousSigningSecretExpiresAt !== null && app.previousSigningSecretExpiresAt.getTime() > now;
    const key = `${app.id}\n${app.signingSecretEnc}\n${previousLive ? app.previousSigningSecretEnc : ''}`;
    let secrets = secretsCache.get(key);
    if (secrets === undefined) {
      secrets = signingSecretsFor(deps.secrets, {
        id: app.id, signing_secret_enc: app.signingSecretEnc, previous_signing_secret_enc: app.previousSigningSecretEnc,
        previous_signing_secret_expires_at: app.previousSigningSecretExpiresAt,
      }, now);
      if (secretsCache.size >= CACHE_MAX) secretsCache.clear();
      secretsCache.set(key, secrets);
    }
    return secrets;
  };

  const installToken = async (target: InstallTarget): Promise<MintedToken> => {
    const now = deps.clock.now();
    const hit = tokens.get(target.installId);
    if (hit !== undefined) {
      const minted = await hit.catch(() => undefined);
      if (minted !== undefined && now - minted.mintedAt < TOKEN_REUSE_MS && now >= minted.mintedAt) return minted;
    }
    const minting = deps.tokens.mint('install', { installId: target.installId, appId: target.app.id, workspaceId: target.workspaceId })
      .then((t) => ({ ...t, mintedAt: now }));
    if (tokens.size >= CACHE_MAX) tokens.clear();
    tokens.set(target.installId, minting);
    return minting;
  };

  return {
    async prepare(r) {
      const { target } = r;
      const app = target.app;
      const token = !r.withInstallToken ? null
        : r.readOnly === true ? await deps.tokens.mint('install', { installId: target.installId, appId: app.id, workspaceId: target.workspaceId, readOnly: true })
          : await installToken(target);
      // Hosted apps never handle install tokens (the spec): theirs is signed without it and travels
      // apart, to the runtime node, which adds it to the app's own /v0 calls.
      const hosted = app.hosting === 'platform';
      const body = JSON.stringify(envelopeObject({
        id: r.id, type: r.type, createdAt: r.createdAt,
        app: { id: app.id, slug: app.slug, version: target.version },
        install: { id: target.installId, workspaceId: target.workspaceId, kind: target.installKind, config: installConfigFor(deps.secrets, { id: target.installId, config_enc: target.configEnc }) },
        installToken: hosted ? null : token, actor: r.actor, data: r.data,
      }));
      const now = deps.clock.now();
      const secrets = secretsOf(app, now);
      const headers = deliveryHeadersSync({ id: r.id, timestamp: Math.floor(now / 1000), body, secrets, deliveryClass: r.deliveryClass, installId: target.installId });
      return {
        id: r.id, deliveryClass: r.deliveryClass, type: r.type,
        app: { id: app.id, slug: app.slug, version: target.version, hosting: app.hosting, endpointUrl: app.endpointUrl },
        install: { id: target.installId, kind: target.installKind },
        body, headers, installToken: hosted ? token?.token ?? null : null, timeoutMs: r.timeoutMs, maxResponseBytes: r.maxResponseBytes,
      };
    },
    send: (delivery) => deps.target.send(delivery),
  };
}
