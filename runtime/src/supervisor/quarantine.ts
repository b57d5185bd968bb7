/**
 * @module supervisor/quarantine
 * App versions that took a sandbox worker down (a memory kill, a crash, a CPU stop that did not
 * take effect) run on the quarantine worker for a while, so a repeat offence shares fate only with
 * other offenders. The period doubles with each offence (10 minutes, 20, 40, … at most a day) and
 * the count is forgotten a day after the last offence.
 */

export const QUARANTINE = { baseMs: 10 * 60_000, maxMs: 24 * 60 * 60_000, forgetMs: 24 * 60 * 60_000, maxEntries: 10_000 } as const;

interface Offender {
  offences: number;
  until: number;
  last: number;
}

export function createQuarantine(now: () => number, limits: { baseMs: number; maxMs: number; forgetMs: number; maxEntries: number } = QUARANTINE) {
  const offenders = new Map<string, Offender>();
  return {
    /** True while `key` must run on the quarantine worker. */
    holds(key: string): boolean {
      if (offenders.size === 0) return false;
      const o = offenders.get(key);
      return o !== undefined && o.until > now();
    },
    /** Records an offence; returns how long the version stays in quarantine. */
    offend(key: string): { offences: number; ms: number } {
      const t = now();
      const previous = offenders.get(key);
      const offences = previous !== undefined && t - previous.last < limits.forgetMs ? previous.offences + 1 : 1;
      const ms = Math.min(limits.maxMs, limits.baseMs * 2 ** (offences - 1));
      offenders.delete(key);
      offenders.set(key, { offences, until: t + ms, last: t });
      if (offenders.size > limits.maxEntries) offenders.delete(offenders.keys().next().value as string);
      return { offences, ms };
    },
    /** Versions in quarantine now. */
    count(): number {
      const t = now();
      let n = 0;
      for (const o of offenders.values()) if (o.until > t) n++;
      return n;
    },
  };
}

export type Quarantine = ReturnType<typeof createQuarantine>;
