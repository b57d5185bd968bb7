/**
 * @module deliveries/outbox/health
 * What a batch's outcomes mean for each install (spec States, "Install deliveries"):
 *
 * - any acknowledged delivery ends the install's failure streak;
 * - a `410` pauses the install's deliveries at once;
 * - failures with no success in between, for three days since the first of them, pause the
 *   install's deliveries and mail the app's owner (the mail commits with the pause).
 *
 * Paused deliveries wait; the developer resumes them from the app's Deliveries page.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { MailService } from '../../workspace/mail/service.ts';
import { clearFailing, installOwner, markFailing, pauseInstall, type PauseReason } from './pause-store.ts';
import { SCHEDULE } from './schedule.ts';

export interface AttemptSummary {
  installId: string;
  kind: 'delivered' | 'failed' | 'gone';
  at: Date;
}

export interface DeliveryHealth {
  apply(results: readonly AttemptSummary[]): Promise<void>;
  pause(installId: string, reason: PauseReason, at: Date, failingSince?: Date): Promise<boolean>;
}

function pauseMail(owner: { app_name: string; slug: string; app_id: string; workspace_id: string }, installId: string, failingSince: Date, publicUrl: string) {
  return {
    subject: `Deliveries to ${owner.app_name} are paused`,
    body: [
      `Lifecycle deliveries to your app "${owner.app_name}" (${owner.slug}) for install ${installId} in workspace ${owner.workspace_id}`,
      `have failed without a success since ${failingSince.toISOString()}, for three days, so they are paused.`,
      '',
      'Nothing is lost: the deliveries wait. Once the app answers again, resume them from the app\'s Deliveries page:',
      `${publicUrl}/console/apps/${encodeURIComponent(owner.app_id)}/deliveries`,
    ].join('\n'),
  };
}

export function createDeliveryHealth(deps: { db: Db; clock: Clock; logger: Logger; mail: MailService; publicUrl: string }): DeliveryHealth {
  const { db } = deps;

  async function pause(installId: string, reason: PauseReason, at: Date, failingSince?: Date): Promise<boolean> {
    const paused = await db.transaction(async (tx) => {
      if (!(await pauseInstall(tx, installId, reason, at))) return false;
      if (reason === 'failing') {
        const owner = await installOwner(tx, installId);
        if (owner !== undefined) {
          await deps.mail.write(tx, { memberId: owner.owner_member_id, ...pauseMail(owner, installId, failingSince ?? at, deps.publicUrl) });
        }
      }
      return true;
    });
    if (paused) {
      deps.logger.warn({ installId, reason }, 'lifecycle deliveries paused');
      // Sent in the background: a slow mail server must not hold up deliveries (the maintenance
      // timer retries what this misses).
      if (reason === 'failing') void deps.mail.flush().catch((err: unknown) => deps.logger.error({ err }, 'mail flush failed'));
    }
    return paused;
  }

  return {
    pause,
    async apply(results) {
      const byInstall = new Map<string, AttemptSummary[]>();
      for (const r of results) byInstall.set(r.installId, [...(byInstall.get(r.installId) ?? []), r]);
      const healthy: string[] = [];
      for (const [installId, list] of byInstall) {
        const gone = list.find((r) => r.kind === 'gone');
        if (gone !== undefined) {
          await pause(installId, 'gone', gone.at);
          continue;
        }
        if (list.some((r) => r.kind === 'delivered')) {
          healthy.push(installId);
          continue;
        }
        const firstFailure = list.reduce((min, r) => (r.at < min ? r.at : min), list[0]!.at);
        const since = await markFailing(db, installId, firstFailure);
        const last = list.reduce((max, r) => (r.at > max ? r.at : max), list[0]!.at);
        if (last.getTime() - since.getTime() >= SCHEDULE.pauseAfterMs) await pause(installId, 'failing', last, since);
      }
      await clearFailing(db, healthy, new Date(deps.clock.now()));
    },
  };
}
