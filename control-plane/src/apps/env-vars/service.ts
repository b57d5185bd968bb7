/**
 * @module apps/env-vars/service
 * Environment variables per app and target: list keys, set, delete. Every value is sealed at rest
 * (bound to its app, target and key); secret values are write-only through the API and leave the
 * control plane only towards the runtime (`valuesFor`). At most 128 per environment, values at
 * most 5 KB (the schema).
 */
import { LIMITS, PlatformError } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Secrets } from '../../core/crypto/secrets.ts';
import type { Db } from '../../core/db/db.ts';
import { iso } from '../../core/http/common.ts';
import { deployableApp, type ToolingCaller } from '../guards/access.ts';
import { latestVersion, type Target } from '../versions/store.ts';
import type { EnvironmentCache } from './cache.ts';
import type { EnvVar } from './schemas.ts';
import * as store from './store.ts';

const sealContext = (appId: string, target: Target, key: string) => `env:${appId}:${target}:${key}`;

export type EnvVarsService = ReturnType<typeof createEnvVarsService>;

/** `cache`: the opened environments kept in memory for deliveries (apps/env-vars/cache.ts); none reads through. */
export function createEnvVarsService(deps: { db: Db; clock: Clock; secrets: Secrets; cache?: EnvironmentCache }) {
  const { db, secrets } = deps;
  const changed = async (appId: string, target: Target) => deps.cache?.changed(appId, target);

  const view = (row: store.EnvVarRow): EnvVar => ({
    key: row.key,
    secret: row.secret,
    ...(row.secret ? {} : { value: secrets.open(row.value_enc, sealContext(row.app_id, row.target, row.key)) }),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });

  /** Whether some version of the app declares `key` secret (then it stays secret whatever the caller says). */
  const declaredSecret = async (appId: string, key: string): Promise<boolean> => {
    const latest = await latestVersion(db, appId);
    return latest?.manifest.env.some((e) => e.key === key && e.secret) ?? false;
  };

  return {
    /** Reading needs the same access as deploying to the target. */
    async list(caller: ToolingCaller, appId: string, target: Target) {
      const app = await deployableApp(db, caller, appId, target);
      return { target, items: (await store.listEnvVars(db, app.id, target)).map(view) };
    },

    async set(caller: ToolingCaller, appId: string, target: Target, key: string, input: { value: string; secret?: boolean | undefined }): Promise<EnvVar> {
      const app = await deployableApp(db, caller, appId, target);
      const secret = (input.secret ?? true) || (await declaredSecret(app.id, key));
      const at = new Date(deps.clock.now());
      const saved = await db.transaction(async (tx) => {
        await store.lockEnvironment(tx, app.id, target);
        const existing = await store.findEnvVar(tx, app.id, target, key);
        if (existing === undefined && (await store.countEnvVars(tx, app.id, target)) >= LIMITS.manifest.envVarsPerEnvironment) {
          throw new PlatformError('PlatformApiConflictError',
            `An environment holds at most ${LIMITS.manifest.envVarsPerEnvironment} variables; delete one first`, { path: ['key'] });
        }
        const row: store.EnvVarRow = {
          app_id: app.id, target, key, value_enc: secrets.seal(input.value, sealContext(app.id, target, key)), secret,
          created_at: existing?.created_at ?? at, updated_at: at,
        };
        await store.upsertEnvVar(tx, row);
        return view(row);
      });
      await changed(app.id, target);
      return saved;
    },

    async remove(caller: ToolingCaller, appId: string, target: Target, key: string): Promise<void> {
      const app = await deployableApp(db, caller, appId, target);
      if (!(await store.deleteEnvVar(db, app.id, target, key))) {
        throw new PlatformError('PlatformApiNotFoundError', `No variable ${key} in ${target}`, { path: ['key'] });
      }
      await changed(app.id, target);
    },

    /** Keys that have a value in the target (what `env-missing` checks); values are not opened. */
    async keysFor(appId: string, target: Target, db_: Db = db): Promise<string[]> {
      return (await store.listEnvVars(db_, appId, target)).map((r) => r.key);
    },

    /**
     * Every value of the target, opened, and which keys are secret (the runtime redacts their values
     * from the app's log): for the runtime only (internal API), never for callers.
     */
    async environmentFor(appId: string, target: Target): Promise<{ env: Record<string, string>; secretEnvKeys: string[] }> {
      const load = async () => {
        const rows = await store.listEnvVars(db, appId, target);
        return {
          env: Object.fromEntries(rows.map((r) => [r.key, secrets.open(r.value_enc, sealContext(appId, target, r.key))])),
          secretEnvKeys: rows.filter((r) => r.secret).map((r) => r.key),
        };
      };
      // Callers get their own copies: the cached one is shared.
      const environment = deps.cache === undefined ? await load() : await deps.cache.get(appId, target, load);
      return { env: { ...environment.env }, secretEnvKeys: [...environment.secretEnvKeys] };
    },
  };
}
