/**
 * @module apps/installs/schemas
 * Wire shapes of installs in the client API: the consent screen's data, installing, approving a
 * version that widens access, the install config, uninstalling and suspending.
 */
import { z } from 'zod';
import { COUNTER_MAX } from '@platform/sdk';
import { Id, Timestamp } from '../../core/http/common.ts';

const Json = z.record(z.string(), z.unknown());

export const Install = z
  .object({
    id: Id,
    appId: Id,
    app: z.object({ id: Id, slug: z.string(), name: z.string(), icon: z.string().nullable().describe('The app\'s icon, an asset id served at `/assets/{id}`; null: none') }),
    workspaceId: Id,
    kind: z.enum(['workspace', 'dev']),
    version: z.int().describe('The version the install runs'),
    pendingVersion: z.int().nullable().describe('A published version that widens access, waiting for an admin\'s approval'),
    scopes: z.array(z.string()).describe('Scopes an admin approved'),
    status: z.enum(['active', 'uninstalled', 'suspended']),
    config: Json.nullable().describe('Install config without its secret fields'),
    secretsSet: z.array(z.string()).describe('Secret config fields (dotted paths) that hold a value'),
    installedBy: Id.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Install' });
export type Install = z.output<typeof Install>;

export const ScopeToApprove = z.object({ scope: z.string(), allows: z.string() });

export const Consent = z
  .object({
    app: z.object({
      id: Id, slug: z.string(), name: z.string(), description: z.string().nullable(), icon: z.string().nullable(),
      hosting: z.enum(['self', 'platform']), private: z.boolean(),
    }),
    version: z.int().describe('The version being approved: send it back when installing or approving'),
    currentVersion: z.int().nullable().describe('The version the install runs now (approving a pending version)'),
    scopes: z.array(ScopeToApprove).describe('Every scope the version asks for, with what it allows'),
    storage: z.object({
      maxBytes: z.int().describe('How much data the app may keep in the workspace (its storage; docs/decisions/storage.md)'),
      retainDays: z.int().describe('How long the data stays after an uninstall (a reinstall finds it)'),
    }).describe('Every app may keep data in the workspace: the consent screen says how much and for how long'),
    access: z.object({
      egressHosts: z.array(z.string()),
      domains: z.array(z.string()),
      events: z.array(z.string()),
      mcpUrl: z.string().nullable(),
    }),
    added: z.array(z.object({ kind: z.string(), detail: z.string() })).describe('What the version adds over the current one (empty for a new install)'),
    installConfig: z.unknown().nullable().describe('JSON Schema of the install form; fields with `writeOnly: true` are secret'),
    secretFields: z.array(z.string()).describe('Dotted paths of the secret fields of the form'),
  })
  .meta({ id: 'Consent' });
export type Consent = z.output<typeof Consent>;

export const ConsentResponse = z.object({ consent: Consent });
export const InstallResponse = z.object({ install: Install });
export const InstallList = z.object({ items: z.array(Install) });

export const InstallBody = z.strictObject({
  version: z.int().min(1).max(COUNTER_MAX).describe('The version shown on the consent screen'),
  config: Json.optional(),
});
export const ApproveBody = z.strictObject({
  version: z.int().min(1).max(COUNTER_MAX).describe('The pending version shown on the consent screen'),
  config: Json.optional().describe('A new config, when the version\'s form asks for more; secret fields left out keep their value'),
});
export const ConfigBody = z.strictObject({ config: Json });
