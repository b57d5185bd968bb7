/**
 * @module apps/log-drains/service
 * An app's log drains as its tooling manages them: list, add (the signing secret is answered once),
 * remove, rotate the secret, enable a disabled drain, and send a test batch now. A drain receives
 * every line of the app, production's too, so only credentials that read every line may manage
 * drains: a preview-only deploy token or an agent builder token is refused (403), as it is for
 * production's lines.
 */
import { checkHost, PlatformError } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Secrets } from '../../core/crypto/secrets.ts';
import type { Db } from '../../core/db/db.ts';
import { newId } from '../../core/ids/ids.ts';
import { manageableApp, type ToolingCaller } from '../guards/access.ts';
import { scopeOf } from '../logs/service.ts';
import { packBatch } from './batch.ts';
import type { DrainSettings } from './limits.ts';
import type { LogDrain, LogDrainTest } from './schemas.ts';
import { acknowledged, DRAIN_ROTATION_MS, drainSecrets, failureText, newDrainSecret, signedHeaders, type DrainPost } from './send.ts';
import * as store from './store.ts';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function drainView(row: store.DrainRow): LogDrain {
  return {
    id: row.id, appId: row.app_id, url: row.url, state: row.state, disabledReason: row.disabled_reason, failures: row.failures,
    failingSince: iso(row.failing_since), nextAttemptAt: iso(row.next_attempt_at), lastStatus: row.last_status, lastError: row.last_error,
    lastDeliveredAt: iso(row.last_delivered_at), previousSecretExpiresAt: iso(row.previous_secret_expires_at), createdAt: row.created_at.toISOString(),
  };
}

export type LogDrainsService = ReturnType<typeof createLogDrainsService>;

export function createLogDrainsService(deps: { db: Db; clock: Clock; secrets: Secrets; post: DrainPost; settings: DrainSettings; allowLoopback: boolean }) {
  const { db } = deps;

  /** The app, when `caller` may manage it and read all of its lines. */
  async function drainableApp(caller: ToolingCaller, appId: string) {
    const app = await manageableApp(db, caller, appId);
    if (scopeOf(caller) !== 'all') {
      throw new PlatformError('PlatformAppDeployTargetForbiddenError', 'A drain receives production\'s lines: this credential may read preview lines only');
    }
    return app;
  }

  async function drainOf(caller: ToolingCaller, appId: string, drainId: string): Promise<store.DrainRow> {
    const app = await drainableApp(caller, appId);
    const row = await store.findDrain(db, app.id, drainId);
    if (row === undefined) throw new PlatformError('PlatformApiNotFoundError', 'The app has no such log drain');
    return row;
  }

  function checkUrl(url: string): void {
    const host = new URL(url).hostname;
    const verdict = checkHost(host, { allowLoopback: deps.allowLoopback });
    if (!verdict.allowed) {
      throw new PlatformError('PlatformAppManifestInvalidError', `The drain's host ${host} is ${verdict.reason}: batches are never sent there`, {
        path: ['url'], fields: { reason: 'endpoint-address' },
      });
    }
  }

  return {
    async list(caller: ToolingCaller, appId: string): Promise<{ items: LogDrain[] }> {
      const app = await drainableApp(caller, appId);
      return { items: (await store.listDrains(db, app.id)).map(drainView) };
    },

    async add(caller: ToolingCaller, appId: string, input: { url: string }): Promise<{ drain: LogDrain; secret: string }> {
      const app = await drainableApp(caller, appId);
      checkUrl(input.url);
      const id = newId('logDrain');
      const { secret, sealed } = newDrainSecret(deps.secrets, id);
      const row = await store.insertDrain(db, { id, appId: app.id, url: input.url, secretEnc: sealed, at: new Date(deps.clock.now()) }, deps.settings.perApp);
      if (row === null) throw new PlatformError('PlatformApiConflictError', `The app already has ${deps.settings.perApp} log drains, the most it may have`);
      return { drain: drainView(row), secret };
    },

    async remove(caller: ToolingCaller, appId: string, drainId: string): Promise<void> {
      const row = await drainOf(caller, appId, drainId);
      await store.deleteDrain(db, row.app_id, row.id);
    },

    /** A new secret; the previous one keeps signing (a second signature) for 24 hours. */
    async rotate(caller: ToolingCaller, appId: string, drainId: string): Promise<{ drain: LogDrain; secret: string }> {
      const row = await drainOf(caller, appId, drainId);
      const { secret, sealed } = newDrainSecret(deps.secrets, row.id);
      const updated = await store.rotateSecret(db, row.app_id, row.id, sealed, new Date(deps.clock.now() + DRAIN_ROTATION_MS));
      if (updated === undefined) throw new PlatformError('PlatformApiNotFoundError', 'The app has no such log drain');
      return { drain: drainView(updated), secret };
    },

    async enable(caller: ToolingCaller, appId: string, drainId: string): Promise<LogDrain> {
      const row = await drainOf(caller, appId, drainId);
      const updated = await store.enableDrain(db, row.app_id, row.id);
      if (updated === undefined) throw new PlatformError('PlatformApiNotFoundError', 'The app has no such log drain');
      return drainView(updated);
    },

    /** One signed batch of a made-up line (`test: true`), sent now; the drain's record is left as it is. */
    async test(caller: ToolingCaller, appId: string, drainId: string): Promise<LogDrainTest> {
      const row = await drainOf(caller, appId, drainId);
      const now = deps.clock.now();
      const line = {
        id: '0', at: new Date(now).toISOString(), appId: row.app_id, version: null, installId: null, requestId: null, deliveryId: null,
        kind: 'lifecycle', level: 'info' as const, status: 'ok' as const, message: 'A test line from platform drains test', request: null, error: null,
      };
      const batch = packBatch(row.id, row.app_id, [line], { maxLines: 1, maxBytes: deps.settings.batchBytes }, true)!;
      const headers = await signedHeaders({ id: `${row.id}-test-${now}`, body: batch.body, secrets: drainSecrets(deps.secrets, row, now), now });
      const outcome = await deps.post({ url: row.url, body: batch.body, headers, timeoutMs: deps.settings.timeoutMs, maxResponseBytes: deps.settings.responseBytes });
      const delivered = acknowledged(outcome);
      return { delivered, status: outcome.status ?? null, durationMs: outcome.durationMs, error: delivered ? null : failureText(outcome), batch: JSON.parse(batch.body) as LogDrainTest['batch'] };
    },
  };
}
