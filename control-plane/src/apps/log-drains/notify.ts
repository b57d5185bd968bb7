/**
 * @module apps/log-drains/notify
 * Telling the author that a drain was disabled, as a paused endpoint's owner is told: a mail to
 * the app's owner, a line in the app's own log (what `platform logs` and the console show), and a
 * warning in the control plane's log.
 */
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { MailService } from '../../workspace/mail/service.ts';
import { findApp } from '../apps/store.ts';
import type { LogsService } from '../logs/service.ts';
import type { DrainRow } from './store.ts';

export interface DrainNotifier {
  /** In the transaction that disabled the drain: the owner's mail (committed with the disable, or not at all). */
  write(tx: Db, drain: DrainRow, reason: string): Promise<void>;
  /** After it committed: the log lines, and the mail sent. */
  told(drain: DrainRow, reason: string, at: Date): Promise<void>;
}

export function createDrainNotifier(deps: { logger: Logger; mail: Pick<MailService, 'write' | 'flush'>; logs: Pick<LogsService, 'ingest'>; publicUrl: string }): DrainNotifier {
  return {
    async write(tx, drain, reason) {
      const app = await findApp(tx, drain.app_id);
      if (app === undefined) return;
      await deps.mail.write(tx, {
        memberId: app.owner_member_id,
        subject: `Log drain of ${app.name} disabled`,
        body: [
          `The log drain ${drain.id} of your app "${app.name}" (${app.slug}) to ${drain.url} is disabled:`,
          reason,
          '',
          'Lines stored meanwhile are kept for the log retention (72 hours by default) and are sent once you enable it again:',
          `${deps.publicUrl}/console/apps/${encodeURIComponent(app.id)}/log-drains (or: platform drains enable ${drain.id})`,
        ].join('\n'),
      });
    },
    async told(drain, reason, at) {
      deps.logger.warn({ appId: drain.app_id, drainId: drain.id, reason }, 'log drain disabled');
      // This line goes to the drain's cursor too, where the drain, once enabled, finds it first.
      await deps.logs.ingest('control-plane', [{
        at: at.toISOString(), appId: drain.app_id, version: null, requestId: '', deliveryId: null, installId: null,
        kind: 'lifecycle', level: 'warn', status: 'ok', message: `Log drain ${drain.id} to ${drain.url} disabled: ${reason}`,
      }]);
      void deps.mail.flush().catch((err: unknown) => deps.logger.error({ err }, 'mail flush failed'));
    },
  };
}
