/**
 * @module supervisor/profiles
 * Which requests run under the CPU profiler: after a version is stopped at its CPU budget, its next
 * request (the same code, likely the same path), at most one per version a minute. Profiling costs
 * the profiled request a few milliseconds of CPU (sandbox/profile.ts); every other request pays
 * nothing, so the hot path stays free of it.
 */

export const PROFILE_EVERY_MS = 60_000;
const MAX_VERSIONS = 10_000;

export function createProfileGate(now: () => number, everyMs = PROFILE_EVERY_MS) {
  const armed = new Set<string>();
  const last = new Map<string, number>();
  return {
    /** Whether the next request of version `key` is profiled (once per arming). */
    take(key: string): boolean {
      if (armed.size === 0 || !armed.delete(key)) return false;
      last.delete(key);
      last.set(key, now());
      if (last.size > MAX_VERSIONS) last.delete(last.keys().next().value as string);
      return true;
    },
    /** Version `key` was stopped at its CPU budget: profile its next request unless one was profiled within `everyMs`. */
    stopped(key: string): void {
      const t = last.get(key);
      if (t !== undefined && now() - t < everyMs) return;
      if (armed.size >= MAX_VERSIONS) armed.clear();
      armed.add(key);
    },
  };
}

export type ProfileGate = ReturnType<typeof createProfileGate>;
