/**
 * @module ingress/directory
 * Where hosted ingress learns which version of an app serves `{slug}`: its latest production
 * version. The control plane owns that registry; the HTTP implementation (http-directory.ts)
 * asks it, the in-memory one serves tests and embedded setups.
 */

export interface ResolvedApp {
  appId: string;
  slug: string;
  version: number;
  sha256: string;
  /** The version's source map, when it was uploaded with one. */
  sourceMapSha256?: string | null;
  /** Env vars of the production target. */
  env: Record<string, string>;
  /** Keys of `env` whose values are secret (never logged). */
  secretEnvKeys: string[];
  egressHosts: string[];
  /** The service's API origin (`{base_url}`); calls to its /v0 are allowed. */
  baseUrl: string | null;
}

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
