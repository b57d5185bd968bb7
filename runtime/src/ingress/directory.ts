/**
 * @module ingress/directory
 * Where hosted ingress learns which version of an app serves `{slug}`: its latest production
 * version. The control plane owns that registry; the HTTP implementation (http-directory.ts)
 * asks it, the in-memory one serves tests and embedded setups.
 */

import type { ResolvedApp } from '../protocol/run-input.ts';

export type { ResolvedApp };


export interface AppDirectory {
  resolve(slug: string): Promise<ResolvedApp | null>;
  /** The answer when it is at hand without waiting (cached), else undefined: the hot path's way around `resolve`. */
  cached?(slug: string): ResolvedApp | null | undefined;
}

export function createMemoryAppDirectory(initial: ResolvedApp[] = []) {
  const apps = new Map(initial.map((a) => [a.slug, a]));
  return {
    async resolve(slug: string): Promise<ResolvedApp | null> {
      return apps.get(slug) ?? null;
    },
    cached(slug: string): ResolvedApp | null {
      return apps.get(slug) ?? null;
    },
    set(app: ResolvedApp): void {
      apps.set(app.slug, app);
    },
    delete(slug: string): void {
      apps.delete(slug);
    },
  };
}
