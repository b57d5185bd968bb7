/**
 * Apps and installs for the credential suites, written straight into the tables of 005_apps.sql
 * (the contract the apps feature writes the same way), so these suites depend only on the
 * credentials code. Client secrets are hashed with the same `hashClientSecret` the apps feature uses.
 */
import { randomBytes } from 'node:crypto';
import { generateSigningSecret } from '@platform/sdk';
import { generateClientSecret } from '../../../control-plane/src/apps/credentials/client-secret.ts';
import type { Stack } from '../../helpers/stack.ts';

const rid = () => randomBytes(8).toString('hex');

export interface SeededApp {
  id: string;
  clientId: string;
  clientSecret: string;
}

export async function seedApp(stack: Stack, input: { workspaceId: string; ownerId: string }): Promise<SeededApp> {
  const id = `app_${rid()}`;
  const clientId = `client_${rid()}`;
  const { secret, hash } = generateClientSecret();
  await stack.db.query(
    `insert into apps (id, workspace_id, owner_member_id, slug, name, hosting, endpoint_url, client_id, client_secret_hash, signing_secret_enc, created_at)
     values ($1, $2, $3, $4, 'Test app', 'self', 'https://app.example.com/hook', $5, $6, $7, $8)`,
    [id, input.workspaceId, input.ownerId, `test-${rid()}`, clientId, hash, stack.controlPlane.secrets.seal(generateSigningSecret(), `signing:${id}`), new Date(stack.clock.now())]);
  return { id, clientId, clientSecret: secret };
}

export async function seedInstall(stack: Stack, input: { appId: string; workspaceId: string; scopes?: string[]; kind?: 'workspace' | 'dev' }): Promise<string> {
  const id = `ins_${rid()}`;
  const at = new Date(stack.clock.now());
  await stack.db.query(
    `insert into installs (id, app_id, workspace_id, kind, version, approved_scopes, status, created_at, updated_at)
     values ($1, $2, $3, $4, 1, $5, 'active', $6, $6)`,
    [id, input.appId, input.workspaceId, input.kind ?? 'workspace', JSON.stringify(input.scopes ?? []), at]);
  return id;
}

export async function setInstall(stack: Stack, installId: string, change: { status?: 'active' | 'uninstalled' | 'suspended'; scopes?: string[] }): Promise<void> {
  if (change.status !== undefined) await stack.db.query('update installs set status = $2 where id = $1', [installId, change.status]);
  if (change.scopes !== undefined) await stack.db.query('update installs set approved_scopes = $2 where id = $1', [installId, JSON.stringify(change.scopes)]);
}

export const basic = (clientId: string, secret: string) => `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
