/**
 * @module apps/publish/context
 * What `validateManifest` needs to know about an app when one of its versions is accepted: the
 * recorded slug and hosting, its verified domains, which environment variables have a value in the
 * target, the service's reserved domains and names, whether the app is private.
 */
import type { ManifestContext } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import type { AppRow } from '../apps/store.ts';
import { RESERVED_APP_NAMES } from '../apps/reserved.ts';
import { verifiedDomains } from '../domains/store.ts';
import { listEnvVars } from '../env-vars/store.ts';
import type { Target } from '../versions/store.ts';

export interface ServiceDomains {
  /** The service's own domains: no app claims them or calls out to them. */
  reservedDomains: readonly string[];
  /** The hosted-app domain: an MCP server on `<slug>.<domain>` needs no verified domain. */
  hostedAppDomain: string | null;
}

export async function manifestContextFor(db: Db, domains: ServiceDomains, app: AppRow, target: Target): Promise<ManifestContext> {
  const env = await listEnvVars(db, app.id, target);
  return {
    recordedSlug: app.slug,
    recordedHosting: app.hosting,
    verifiedDomains: await verifiedDomains(db, app.id),
    // Only keys matter to `env-missing`; values stay sealed.
    envValues: Object.fromEntries(env.map((row) => [row.key, ''])),
    reservedDomains: domains.reservedDomains,
    reservedNames: RESERVED_APP_NAMES,
    ...(domains.hostedAppDomain === null ? {} : { hostedAppDomain: domains.hostedAppDomain }),
    appPrivate: app.private,
  };
}
