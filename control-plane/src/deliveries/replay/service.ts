/**
 * @module deliveries/replay/service
 * Replaying a recorded delivery against a version of the app (`platform replay`): the delivery's
 * request (a lifecycle event's payload, or an interactive delivery's kept request) goes through the
 * delivery pipeline again, to the same install, with `app.version` set to the version asked for
 * (default: the latest preview) and a fresh `webhook-id`. The router sends it where that install's
 * deliveries go: a runtime node runs the version's bundle, a self-hosted endpoint or the relay
 * gets the envelope. Both answers are returned side by side.
 *
 * Nothing in the workspace may change: the install token is a fresh read-only one, and so is the
 * interaction token of a delivery that carried one (bound to the same block or run), so every
 * `/v0` write the app makes answers `PlatformReplayReadOnlyError`; the answer itself is not applied
 * (no block state written, no message posted), and the replay is not recorded as a delivery.
 */
import { LIMITS, PlatformError, isPlatformError, type InteractiveType } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { manageableApp, type ToolingCaller } from '../../apps/guards/access.ts';
import type { TokenService } from '../../apps/tokens/service.ts';
import { findVersion, latestVersion } from '../../apps/versions/store.ts';
import { newDeliveryId, waitFor } from '../interactive/engine.ts';
import type { RecordedRequest } from '../interactive/request-record.ts';
import { SCHEDULE } from '../outbox/schedule.ts';
import { findDelivery, listAttempts, type DeliveryDetailRow } from '../page/store.ts';
import { findInstallTarget } from '../pipeline/install-target.ts';
import type { DeliveryPipeline } from '../pipeline/pipeline.ts';
import { recordedAnswer } from '../pipeline/recorded-answer.ts';
import type { DeliveryOutcome } from '../targets/target.ts';
import type { ReplayResponse } from './schemas.ts';

type RequestToRun = Omit<RecordedRequest, 'version' | 'interaction'> & { version: number | null };

const conflict = (message: string, path: string[] = []) => new PlatformError('PlatformApiConflictError', message, { path });

export interface ReplayDeps {
  db: Db;
  clock: Clock;
  pipeline: DeliveryPipeline;
  tokens: Pick<TokenService, 'mint'>;
}

export type ReplayService = ReturnType<typeof createReplayService>;

/** The version to run: the one asked for, else the latest preview; hosted versions need their bundle. */
async function versionToRun(db: Db, app: { id: string; hosting: string }, asked: number | undefined) {
  const row = asked === undefined ? await latestVersion(db, app.id, 'preview') : await findVersion(db, app.id, asked);
  if (row === undefined) {
    if (asked === undefined) throw conflict('The app has no preview version: deploy one, or give the version to run', ['version']);
    throw new PlatformError('PlatformApiNotFoundError', `The app has no version ${asked}`, { path: ['version'] });
  }
  if (app.hosting === 'platform' && row.bundle_sha256 === null) {
    throw conflict(`Version ${row.version} has no uploaded bundle (it was a manifest sync): deploy the code as a preview`, ['version']);
  }
  return row;
}

const answerOf = (sent: DeliveryOutcome) => {
  const kept = sent.ok ? recordedAnswer(sent.body) : null;
  return {
    status: sent.status ?? null, error: sent.ok ? null : `${sent.failure}: ${sent.message}`,
    response: kept?.text ?? null, responseTruncated: kept?.truncated ?? false, durationMs: Math.round(sent.durationMs),
  };
};

export function createReplayService(deps: ReplayDeps) {
  const { db } = deps;

  /** The request as recorded, with a read-only interaction token where the delivery carried one. */
  const requestOf = async (row: DeliveryDetailRow, workspaceId: string): Promise<RequestToRun> => {
    if (row.class === 'lifecycle') return { data: row.payload ?? {}, actor: row.actor, version: null };
    if (row.request === null) throw conflict('This delivery\'s request was not kept (recorded before requests were, or over 256 KB): it cannot be replayed');
    const { interaction, ...request } = row.request;
    if (interaction === undefined) return request;
    const token = await deps.tokens.mint('interaction', {
      installId: row.install_id, appId: row.app_id, workspaceId, blockId: interaction.blockId, invocationId: interaction.invocationId, readOnly: true,
    });
    return { ...request, data: { ...request.data, interactionToken: token.token } };
  };

  return {
    async replay(caller: ToolingCaller, appId: string, deliveryId: string, input: { version?: number | undefined }): Promise<ReplayResponse> {
      const app = await manageableApp(db, caller, appId);
      const row = await findDelivery(db, app.id, deliveryId);
      if (row === undefined) throw new PlatformError('PlatformApiNotFoundError', 'No delivery with that id for this app', { path: ['deliveryId'] });
      const version = await versionToRun(db, app, input.version);
      const target = await findInstallTarget(db, row.install_id);
      if (target === undefined || target.installStatus !== 'active') throw conflict('The install is uninstalled or suspended: its tokens are refused, so nothing can be replayed');
      const request = await requestOf(row, target.workspaceId);
      const replayId = newDeliveryId();
      const delivery = await deps.pipeline.prepare({
        id: replayId, deliveryClass: row.class, type: row.type, createdAt: new Date(deps.clock.now()), target: { ...target, version: version.version },
        actor: request.actor, data: request.data, withInstallToken: true, readOnly: true,
        timeoutMs: row.class === 'lifecycle' ? SCHEDULE.ackTimeoutMs : waitFor(row.type as InteractiveType), maxResponseBytes: LIMITS.actions.responseBodyBytes,
      });
      let sent: DeliveryOutcome;
      try {
        sent = await deps.pipeline.send(delivery);
      } catch (err) {
        // The relay answers "not connected" by throwing its own error; nothing was delivered.
        if (!isPlatformError(err)) throw err;
        sent = { ok: false, failure: 'relay-not-connected', message: err.message, durationMs: 0 };
      }
      const last = (await listAttempts(db, row.id)).at(-1);
      return {
        deliveryId: row.id, replayId, class: row.class, type: row.type, installId: row.install_id, hosting: app.hosting, version: version.version,
        recorded: {
          version: request.version, attempt: last?.attempt ?? null, status: last?.status ?? null, error: last?.error ?? null,
          response: last?.response ?? null, responseTruncated: last?.response_truncated ?? false,
        },
        replayed: answerOf(sent),
      };
    },
  };
}
