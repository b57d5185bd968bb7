/**
 * @module apps/installs/consent
 * The consent screen's data for one version: every scope it asks for with what the scope allows,
 * the rest of its access, what it adds over the version an install runs, and the install form.
 */
import { LIMITS, SCOPES, isScope, type AccessWidening } from '@platform/sdk';
import type { AppRow } from '../apps/store.ts';
import type { VersionRow } from '../versions/store.ts';
import { secretFieldPaths } from './config.ts';
import type { Consent } from './schemas.ts';

export function consentFor(app: AppRow, version: VersionRow, current: { version: number; added: AccessWidening[] } | null): Consent {
  const m = version.manifest;
  return {
    app: {
      id: app.id, slug: app.slug, name: m.name, description: m.description ?? null, icon: m.icon ?? null, hosting: app.hosting, private: app.private,
    },
    version: version.version,
    currentVersion: current?.version ?? null,
    scopes: m.scopes.map((scope) => ({ scope, allows: isScope(scope) ? SCOPES[scope].allows : scope })),
    storage: { maxBytes: LIMITS.storage.bytesPerInstall, retainDays: Math.round(LIMITS.storage.retainAfterUninstallMs / 86_400_000) },
    access: { egressHosts: m.egressHosts, domains: m.domains, events: m.events, mcpUrl: m.mcp?.url ?? null },
    added: current?.added.map((a) => ({ kind: a.kind, detail: a.detail })) ?? [],
    installConfig: m.installConfig ?? null,
    secretFields: secretFieldPaths(m.installConfig).map((p) => p.join('.')),
  };
}
