/**
 * @module supervisor/crash
 * What becomes of a dead worker's requests. Its entry journal says which ones may have run guest
 * code: every request up to the highest one it entered fails with a tagged error (the one running
 * at the time, the culprit, with the error that names the cause); every later one never entered
 * and runs again on a healthy worker, transparently. The culprit's version goes to quarantine.
 */
import type { RunError } from '../protocol/messages.ts';
import type { JournalEntry } from '../protocol/journal.ts';
import type { Pending } from './pending.ts';
import type { DeathCause } from './worker-handle.ts';

export type KillReason = 'memory' | 'hung' | null;

export interface CrashVerdict {
  fail: Array<{ pending: Pending; error: RunError; outcome: 'crashed' | 'memory_limit' | 'cpu_limit' }>;
  retry: Pending[];
  culprit: Pending | null;
  /** For logs and metrics. */
  reason: 'memory' | 'unstoppable' | 'hung' | 'crash';
}

const CRASHED: RunError = { tag: 'PlatformRuntimeCrashedError', message: 'The sandbox worker running this request ended unexpectedly' };

export function judgeCrash(jobs: Iterable<Pending>, journal: JournalEntry, killedFor: KillReason, cause: DeathCause): CrashVerdict {
  const reason = killedFor ?? cause ?? 'crash';
  const pending = [...jobs].sort((a, b) => a.job.seq - b.job.seq);
  // Killed for the worker's resident memory: every isolate there held some of it, not only the
  // one running at that moment, so all that entered fail alike and none is blamed.
  if (killedFor === 'memory') {
    const error: RunError = { tag: 'PlatformRuntimeMemoryLimitError', message: 'The sandbox worker running this request passed its memory ceiling and was replaced' };
    return {
      fail: pending.filter((p) => p.job.seq <= journal.maxEntered).map((p) => ({ pending: p, error, outcome: 'memory_limit' as const })),
      retry: pending.filter((p) => p.job.seq > journal.maxEntered),
      culprit: null,
      reason,
    };
  }
  const culprit = pending.find((p) => p.job.seq === journal.current) ?? null;
  const verdict: CrashVerdict = { fail: [], retry: [], culprit, reason };
  for (const p of pending) {
    if (p.job.seq > journal.maxEntered) {
      verdict.retry.push(p);
      continue;
    }
    if (p !== culprit) {
      verdict.fail.push({ pending: p, error: CRASHED, outcome: 'crashed' });
      continue;
    }
    verdict.fail.push({ pending: p, ...culpritError(reason, 'cpuBudgetMs' in p.job ? p.job.cpuBudgetMs : null) });
  }
  return verdict;
}

/** What the request running when its worker died is answered: the error that names the cause. */
export function culpritError(reason: CrashVerdict['reason'], limitMs: number | null): { error: RunError; outcome: CrashVerdict['fail'][number]['outcome'] } {
  if (reason === 'memory') return { outcome: 'memory_limit', error: { tag: 'PlatformRuntimeMemoryLimitError', message: 'The app ran out of memory and its sandbox worker was replaced' } };
  if (reason === 'unstoppable') {
    return { outcome: 'cpu_limit', error: { tag: 'PlatformRuntimeCpuLimitError', message: 'The app kept computing after its CPU budget ran out and its sandbox worker was replaced', fields: { limitMs } } };
  }
  return { error: CRASHED, outcome: 'crashed' };
}

export { CRASHED };
