/**
 * @module deliveries/interactive/engine
 * The interactive delivery engine, generic over the eight interactive types: builds the envelope
 * (fresh id = `webhook-id`, the install's decrypted config, an install token, the actor, `en`,
 * `UTC`, the type's `data`), signs it with every live signing secret, sends it through the delivery
 * router (the endpoint of a self-hosted app, the development relay for `dev` installs, a runtime
 * node for hosted apps), waits at most the type's time (5 s; 30 s for commands and message
 * actions), reads at most 1 MB, never follows a redirect and never retries. The answer is read by
 * deliveries/interactive/answer.ts; every delivery that was sent is recorded for the Deliveries page.
 */
import { randomBytes } from 'node:crypto';
import { LIMITS, isPlatformError, type InteractiveResult, type InteractiveType } from '@platform/sandbox-lib';
import { deliveryHeadersSync } from '@platform/sandbox-lib/node';
import type { Clock } from '../../core/clock/clock.ts';
import type { DeliveryTarget } from '../targets/target.ts';
import { base32 } from '../../core/ids/ids.ts';
import type { Logger } from '../../core/log/logger.ts';
import { envelopeObject } from '../pipeline/envelope.ts';
import type { TokenService } from '../../apps/tokens/service.ts';
import { readAnswer, type FailureReason } from './answer.ts';
import { recordedFailure } from './failures.ts';
import type { EngineMetrics } from './metrics.ts';
import type { DeliveryRecorder } from './recorder.ts';
import type { InstallTarget } from '../pipeline/install-target.ts';

export type { FailureReason } from './answer.ts';

export interface DeliverInput<T extends InteractiveType> {
  type: T;
  target: InstallTarget;
  /** The member who caused the delivery; null leaves `actor` out (anonymous inputs). */
  actor: { memberId: string; name: string } | null;
  data: Record<string, unknown>;
  /**
   * What the caller checks beyond the result schema (a tree against the catalog, a state against
   * the block's schema): a problem makes the outcome `response-invalid`, recorded as such.
   */
  check?: (result: InteractiveResult<T>) => string | null;
}

interface Sent {
  deliveryId: string;
  /** HTTP status of the app's answer, when it answered. */
  status: number | null;
  durationMs: number;
}

export type InteractiveOutcome<T extends InteractiveType> =
  | (Sent & { kind: 'result'; result: InteractiveResult<T> })
  | (Sent & { kind: 'deferred'; deferral: Record<string, unknown> | null })
  | (Sent & { kind: 'failed'; reason: FailureReason; message: string });

export interface InteractiveEngine {
  deliver<T extends InteractiveType>(input: DeliverInput<T>): Promise<InteractiveOutcome<T>>;
}

type SigningColumns = { id: string; signing_secret_enc: string; previous_signing_secret_enc: string | null; previous_signing_secret_expires_at: Date | null };

export interface EngineDeps {
  clock: Clock;
  logger: Logger;
  tokens: TokenService;
  target: DeliveryTarget;
  recorder: DeliveryRecorder;
  metrics?: EngineMetrics;
  signingSecretsFor(app: SigningColumns, now: number): string[];
  installConfigFor(install: { id: string; config_enc: string | null }): Record<string, unknown> | undefined;
}

/** Commands and message actions wait 30 s; every other interactive type 5 s. */
export function waitFor(type: InteractiveType): number {
  return type === 'command.run' || type === 'messageAction.run' ? LIMITS.actions.invocationWaitMs : LIMITS.actions.interactiveWaitMs;
}

export const newDeliveryId = (): string => `dlv_${base32(randomBytes(16))}`;

/** An install token minted this recently is reused: an hour's token with at least 59 minutes left is still fresh. */
const TOKEN_REUSE_MS = 60_000;
/** Entries of the token and secret caches before they are emptied (installs and apps seen lately). */
const TOKEN_CACHE_MAX = 10_000;

/**
 * @example
 * const engine = createInteractiveEngine({ clock, logger, tokens, target: lifecycle.targets.router, recorder, signingSecretsFor, installConfigFor });
 * const outcome = await engine.deliver({ type: 'block.render', target, actor: null, data: { block, mode: 'interactive' } });
 */
export function createInteractiveEngine(deps: EngineDeps): InteractiveEngine {
  const cache = new Map<string, { token: string; expiresAt: number; mintedAt: number }>();

  // Opening sealed secrets (AES-GCM) on every click adds up; what opened once stays known, keyed by
  // the sealed values and whether the previous secret still signs (rotation is read from the row).
  const secretsCache = new Map<string, string[]>();
  const secretsFor = (app: InstallTarget['app'], now: number): string[] => {
    const previousLive = app.previousSigningSecretExpiresAt !== null && app.previousSigningSecretExpiresAt.getTime() > now;
    const key = `${app.id}\n${app.signingSecretEnc}\n${previousLive ? app.previousSigningSecretEnc : ''}`;
    let secrets = secretsCache.get(key);
    if (secrets === undefined) {
      secrets = deps.signingSecretsFor({
        id: app.id, signing_secret_enc: app.signingSecretEnc, previous_signing_secret_enc: app.previousSigningSecretEnc,
        previous_signing_secret_expires_at: app.previousSigningSecretExpiresAt,
      }, now);
      if (secretsCache.size >= TOKEN_CACHE_MAX) secretsCache.clear();
      secretsCache.set(key, secrets);
    }
    return secrets;
  };

  const installToken = async (target: InstallTarget) => {
    const now = deps.clock.now();
    const hit = cache.get(target.installId);
    if (hit !== undefined && now - hit.mintedAt < TOKEN_REUSE_MS && now >= hit.mintedAt) return hit;
    const minted = await deps.tokens.mint('install', { installId: target.installId, appId: target.app.id, workspaceId: target.workspaceId });
    if (cache.size >= TOKEN_CACHE_MAX) cache.clear();
    const entry = { ...minted, mintedAt: now };
    cache.set(target.installId, entry);
    return entry;
  };

  return {
    async deliver<T extends InteractiveType>(input: DeliverInput<T>): Promise<InteractiveOutcome<T>> {
      const { target, type } = input;
      const deliveryId = newDeliveryId();
      if (target.installStatus !== 'active') {
        return { kind: 'failed', reason: 'install-inactive', message: 'The app is uninstalled or suspended in this workspace', deliveryId, status: null, durationMs: 0 };
      }
      const startedAt = deps.clock.now();
      const app = target.app;
      const envelope = envelopeObject({
        id: deliveryId, type, createdAt: new Date(startedAt),
        app: { id: app.id, slug: app.slug, version: target.version },
        install: { id: target.installId, workspaceId: target.workspaceId, kind: target.installKind, config: deps.installConfigFor({ id: target.installId, config_enc: target.configEnc }) },
        installToken: await installToken(target), actor: input.actor, data: input.data,
      });
      const body = JSON.stringify(envelope);
      const secrets = secretsFor(app, startedAt);
      const headers = deliveryHeadersSync({ id: deliveryId, timestamp: Math.floor(startedAt / 1000), body, secrets, deliveryClass: 'interactive', installId: target.installId });

      let sent;
      try {
        sent = await deps.target.send({
          id: deliveryId, deliveryClass: 'interactive', type,
          app: { id: app.id, slug: app.slug, version: target.version, hosting: app.hosting, endpointUrl: app.endpointUrl },
          install: { id: target.installId, kind: target.installKind },
          body, envelope, headers, secrets, timeoutMs: waitFor(type), maxResponseBytes: LIMITS.actions.responseBodyBytes,
        });
      } catch (err) {
        // The relay answers "not connected" by throwing its own error; nothing was delivered.
        if (!isPlatformError(err)) throw err;
        sent = { ok: false as const, failure: 'relay-not-connected' as const, message: err.message, durationMs: 0 };
      }

      const outcome: InteractiveOutcome<T> = (() => {
        if (!sent.ok) return { kind: 'failed', reason: sent.failure, message: sent.message, deliveryId, status: sent.status ?? null, durationMs: sent.durationMs };
        const answer = readAnswer(type, sent.status, sent.body);
        const base = { deliveryId, status: sent.status, durationMs: sent.durationMs };
        if (answer.kind === 'result') {
          const problem = input.check?.(answer.result) ?? null;
          if (problem !== null) return { ...base, kind: 'failed', reason: 'response-invalid', message: problem };
          return { ...base, kind: 'result', result: answer.result };
        }
        if (answer.kind === 'deferred') return { ...base, kind: 'deferred', deferral: answer.deferral };
        return { ...base, kind: 'failed', reason: answer.reason, message: answer.message };
      })();

      const failure = outcome.kind === 'failed' ? recordedFailure(outcome) : null;
      deps.recorder.record({
        id: deliveryId, appId: app.id, installId: target.installId, type, startedAt: new Date(startedAt),
        durationMs: outcome.durationMs, status: outcome.status, error: failure,
      });
      deps.metrics?.delivery(type, outcome.kind === 'failed' ? outcome.reason : outcome.kind, outcome.durationMs);
      if (failure !== null) deps.logger.info({ deliveryId, type, installId: target.installId, reason: failure }, 'interactive delivery failed');
      return outcome;
    },
  };
}
