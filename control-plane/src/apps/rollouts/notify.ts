/**
 * @module apps/rollouts/notify
 * Telling the author that the platform aborted a rollout: a line in the app's log (what
 * `platform logs` and the console's log view show, live), a warning in the control plane's own log,
 * and a mail to the app's owner committed with nothing else (sent after, as the pause's mail is).
 */
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { MailService } from '../../workspace/mail/service.ts';
import { findApp } from '../apps/store.ts';
import type { LogsService } from '../logs/service.ts';
import type { RolloutRow } from './store.ts';

export interface AbortNotifier {
  /** In the abort's transaction: the owner's mail. */
  write(tx: Db, rollout: RolloutRow, reason: string): Promise<void>;
  /** After it committed: the log lines, and the mail sent. */
  told(rollout: RolloutRow, reason: string, at: Date): Promise<void>;
}

export function createAbortNotifier(deps: { db: Db; logger: Logger; mail: Pick<MailService, 'write' | 'flush'>; logs: Pick<LogsService, 'ingest'>; publicUrl: string }): AbortNotifier {
  return {
    async write(tx, rollout, reason) {
      const app = await findApp(tx, rollout.app_id);
      if (app === undefined) return;
      await deps.mail.write(tx, {
        memberId: app.owner_member_id,
        subject: `Rollout of ${app.name} version ${rollout.version} aborted`,
        body: [
          `The platform aborted the rollout of version ${rollout.version} of your app "${app.name}" (${app.slug}):`,
          reason,
          '',
          'Every install the rollout moved runs the version it ran before; new installs get that version too.',
          `See the figures at ${deps.publicUrl}/console/apps/${encodeURIComponent(app.id)}/rollout`,
        ].join('\n'),
      });
    },
    async told(rollout, reason, at) {
      const message = `Rollout of version ${rollout.version} aborted by the platform: ${reason}. Every install it moved runs its previous version again.`;
      deps.logger.warn({ appId: rollout.app_id, rolloutId: rollout.id, version: rollout.version, reason }, 'rollout aborted');
      await deps.logs.ingest('control-plane', [{
        at: at.toISOString(), appId: rollout.app_id, version: rollout.version, requestId: '', deliveryId: null, installId: null,
        kind: 'lifecycle', level: 'warn', status: 'ok', message,
      }]);
      void deps.mail.flush().catch((err: unknown) => deps.logger.error({ err }, 'mail flush failed'));
    },
  };
}
