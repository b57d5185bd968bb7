/**
 * @module apps/internal/production
 * What a runtime node needs to run a hosted app's production version (the runtime's `ResolvedApp`,
 * docs/runtime.md): which version and bundle, the hosts its code may call, the production
 * environment values (decrypted) with the keys that are secret, and the API origin its code calls.
 */
import type { Db } from '../../core/db/db.ts';
import { findAppBySlug } from '../apps/store.ts';
import type { EnvVarsService } from '../env-vars/service.ts';
import { findVersion, servedProductionVersion } from '../versions/store.ts';

export interface ProductionApp {
  appId: string;
  slug: string;
  version: number;
  sha256: string;
  bytes: number;
  /** The source map uploaded with the bundle, or null. */
  sourceMapSha256: string | null;
  egressHosts: string[];
  env: Record<string, string>;
  secretEnvKeys: string[];
  /** `{base_url}`: the guest may call `{baseUrl}/v0…` (the runtime adds the install token). */
  baseUrl: string;
}

export interface ProductionResolver {
  /** Null when no hosted app has that slug, or it has no uploaded production version. */
  resolve(slug: string): Promise<ProductionApp | null>;
}

export function createProductionResolver(deps: { db: Db; env: Pick<EnvVarsService, 'environmentFor'>; baseUrl: string }): ProductionResolver {
  return {
    async resolve(slug) {
      const app = await findAppBySlug(deps.db, slug);
      if (app === undefined || app.hosting !== 'platform') return null;
      // During a rollout app-level routes keep the version before it (docs/decisions/rollouts.md).
      const served = await servedProductionVersion(deps.db, app.id);
      const version = served === undefined ? undefined : await findVersion(deps.db, app.id, served);
      if (version === undefined || version.bundle_sha256 === null) return null;
      return {
        appId: app.id,
        slug: app.slug,
        version: version.version,
        sha256: version.bundle_sha256,
        bytes: version.bundle_bytes ?? 0,
        sourceMapSha256: version.source_map_sha256 ?? null,
        egressHosts: version.manifest.egressHosts,
        ...(await deps.env.environmentFor(app.id, 'production')),
        baseUrl: deps.baseUrl,
      };
    },
  };
}
