/**
 * Apps, versions and installs for the lifecycle suites, written straight into the tables of
 * 005/007 (the contract the apps feature writes the same way), so these suites depend only on the
 * lifecycle code and the workspace model. Manifests pass `validateManifest`; signing secrets and
 * install config are sealed the way the apps feature seals them.
 */
import { randomBytes } from 'node:crypto';
import { EVENT_TYPES, generateSigningSecret, validateManifest, type EventType } from '@platform/sdk';
import { sealSigningSecret } from '../../../control-plane/src/apps/apps/signing.ts';
import { sealConfig } from '../../../control-plane/src/apps/installs/config.ts';
import type { Stack } from '../../helpers/stack.ts';

const rid = () => randomBytes(6).toString('hex');

export const READ_SCOPES = ['conversations:read', 'decisions:read', 'calls:read'] as const;

export interface ManifestInput {
  slug: string;
  events?: readonly EventType[];
  scopes?: readonly string[];
  hosting?: 'self' | 'platform';
  endpoint?: string;
  references?: Array<{ kind: string; patterns: Array<{ id: string; pattern: string }> }>;
  domains?: string[];
  /** Ours (docs/decisions/schedules.md); left out when not given. */
  schedules?: Array<{ name: string; cron: string; timeZone?: string }>;
  /** Ours (docs/decisions/queues.md): the app consumes its queue. */
  queue?: { maxAttempts: number };
}

export function manifestOf(input: ManifestInput): Record<string, unknown> {
  const hosting = input.hosting ?? 'self';
  const manifest = {
    schemaVersion: 1,
    name: `App ${input.slug}`,
    slug: input.slug,
    hosting,
    ...(hosting === 'self' ? { endpoint: { url: input.endpoint ?? 'https://app.example.com/platform' } } : {}),
    scopes: [...(input.scopes ?? READ_SCOPES)],
    domains: input.domains ?? (input.references ? ['tracker.example.com'] : []),
    references: (input.references ?? []).map((r) => ({ kind: r.kind, title: r.kind, patterns: r.patterns, searchable: false, hasBlock: false })),
    events: [...(input.events ?? EVENT_TYPES)],
    ...(input.schedules ? { schedules: input.schedules } : {}),
    ...(input.queue ? { queue: input.queue } : {}),
  };
  const checked = validateManifest(manifest);
  if (!checked.valid) throw new Error(`fixture manifest invalid: ${JSON.stringify(checked.error)}`);
  return checked.manifest as unknown as Record<string, unknown>;
}

export interface SeededApp {
  id: string;
  slug: string;
  signingSecret: string;
}

/** An app with one production version of `manifest`; `dev` makes it a development app. */
export async function seedApp(stack: Stack, input: { workspaceId: string; ownerId: string; dev?: boolean; bundleSha256?: string } & Partial<ManifestInput>): Promise<SeededApp> {
  const id = `app_${rid()}`;
  const slug = input.slug ?? `app-${rid()}`;
  const manifest = manifestOf({ ...input, slug });
  const signingSecret = generateSigningSecret();
  const at = new Date(stack.clock.now());
  await stack.db.query(
    `insert into apps (id, workspace_id, owner_member_id, slug, name, hosting, endpoint_url, private, dev_base_slug, client_id, client_secret_hash, signing_secret_enc, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'unused', $11, $12)`,
    [id, input.workspaceId, input.ownerId, slug, manifest.name, manifest.hosting, (manifest.endpoint as { url: string } | undefined)?.url ?? null,
      input.dev === true, input.dev === true ? slug : null, `cli_${rid()}`, sealSigningSecret(stack.controlPlane.secrets, id, signingSecret), at]);
  await stack.db.query(
    `insert into app_versions (app_id, version, target, manifest, manifest_hash, bundle_sha256, bundle_bytes, created_at) values ($1, 1, $2, $3, $4, $5, $6, $7)`,
    [id, input.dev === true ? 'preview' : 'production', JSON.stringify(manifest), rid(), input.bundleSha256 ?? null, input.bundleSha256 === undefined ? null : 1, at]);
  return { id, slug, signingSecret };
}

/** An active install of the app's version 1 with the given approved scopes (default: the read scopes). */
export async function seedInstall(stack: Stack, input: {
  appId: string; workspaceId: string; kind?: 'workspace' | 'dev'; scopes?: readonly string[]; installedBy?: string; config?: Record<string, unknown>;
}): Promise<string> {
  const id = `ins_${rid()}`;
  const at = new Date(stack.clock.now());
  await stack.db.query(
    `insert into installs (id, app_id, workspace_id, kind, version, approved_scopes, config_enc, status, installed_by_member_id, created_at, updated_at)
     values ($1, $2, $3, $4, 1, $5, $6, 'active', $7, $8, $8)`,
    [id, input.appId, input.workspaceId, input.kind ?? 'workspace', JSON.stringify(input.scopes ?? READ_SCOPES),
      input.config === undefined ? null : sealConfig(stack.controlPlane.secrets, id, input.config), input.installedBy ?? null, at]);
  return id;
}

export interface DeliveryState {
  id: string;
  install_id: string;
  type: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
}

export async function deliveriesOf(stack: Stack, installId: string): Promise<DeliveryState[]> {
  const { rows } = await stack.db.query<DeliveryState>(
    `select d.id, d.install_id, d.type, d.status, d.attempts, d.next_attempt_at, d.last_status, d.last_error
       from deliveries d left join outbox_events e on e.id = d.event_id where d.install_id = $1 order by d.created_at, e.seq, d.id`, [installId]);
  return rows;
}

/** The outbox rows (events) written for an install, oldest first, with their payloads. */
export async function eventsOf(stack: Stack, installId: string): Promise<Array<{ id: string; type: string; payload: any; actor: any }>> {
  const { rows } = await stack.db.query<{ id: string; type: string; payload: any; actor: any }>(
    'select id, type, payload, actor from outbox_events where install_id = $1 order by seq', [installId]);
  return rows;
}

/** A workspace with an owner, a second member, a public circle (with chat) and a private circle, through the client API. */
export async function seedWorkspace(stack: Stack) {
  const ws = await stack.createWorkspace();
  const other = await stack.addMember(ws.apiKey, { role: 'member', name: 'Dana Developer' });
  const pub = await ws.client.post('/circles', { name: 'General', visibility: 'public', chat: true });
  const priv = await ws.client.post('/circles', { name: 'Secret', visibility: 'private' });
  if (pub.status !== 201 || priv.status !== 201) throw new Error('circles not created');
  return { ws, other, publicCircle: pub.body.circle.id as string, privateCircle: priv.body.circle.id as string };
}
