/**
 * @module manifest/rules/schedules
 * Each schedule's cron expression and time zone (ours, docs/decisions/schedules.md): the zone is
 * an IANA name, the expression parses and fires, and two firings are at least a minute apart.
 * Counts and duplicate names are checked with the other lists (counts.ts, duplicates.ts).
 */
import { checkCron } from '../../cron/cron.ts';
import { manifestInvalid, type ManifestRule } from '../model/rule.ts';

export const schedulesRule: ManifestRule = (manifest) => {
  for (const [index, schedule] of (manifest.schedules ?? []).entries()) {
    const verdict = checkCron(schedule);
    if (!verdict.ok) {
      const field = verdict.reason === 'schedule-time-zone-unknown' ? 'timeZone' : 'cron';
      return manifestInvalid(verdict.reason, verdict.message, ['schedules', index, field]);
    }
  }
  return null;
};
