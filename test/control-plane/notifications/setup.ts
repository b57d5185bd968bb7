/**
 * The notifications and memories suites' world, built through the real endpoints: a workspace with
 * an owner, a member and a developer, another workspace, apps installed with the scopes a test
 * asks for (a manifest without blocks: the scopes are the app's own), and the developer's
 * development app (`PUT /v0/apps/dev`). Install tokens come from the token service the access-token
 * endpoint uses.
 */
import { expect } from 'vitest';
import { startStack, type ApiClient, type CreatedWorkspace, type Stack, type StackOptions } from '../../helpers/stack.ts';
import { createApp, install, selfManifest, sync, uniqueSlug } from '../apps/helpers.ts';

export interface Installed {
  appId: string;
  installId: string;
  workspaceId: string;
  clientId: string;
  clientSecret: string;
  /** A fresh install token (`platapp_…`). */
  token(): Promise<string>;
  /** `/v0` with a fresh install token. */
  api(): Promise<ApiClient>;
}

export interface Person {
  id: string;
  apiKey: string;
  client: ApiClient;
}

export interface InboxWorld {
  stack: Stack;
  ws: CreatedWorkspace;
  owner: Person;
  member: Person;
  developer: Person;
  foreign: CreatedWorkspace;
  /** An app of the workspace owner, installed in the workspace with `scopes`. */
  installApp(scopes: string[], name?: string): Promise<Installed>;
  /** The developer's development app with `scopes`, and its development install. */
  devApp(scopes: string[]): Promise<Installed>;
  /** Rows of a table (what a refused request must not change). */
  count(table: 'notifications' | 'memories'): Promise<number>;
  stop(): Promise<void>;
}

/** A self-hosted manifest whose only access is `scopes`. */
export const scopedManifest = (slug: string, scopes: string[], name = 'Helper') => selfManifest(slug, { name, scopes, blocks: [] });

export async function startInboxWorld(options: StackOptions = {}): Promise<InboxWorld> {
  const stack = await startStack(options);
  try {
    const ws = await stack.createWorkspace({ ownerName: 'Olive Owner' });
    const member = await stack.addMember(ws.apiKey, { role: 'member', name: 'Mia Member' });
    const developer = await stack.addMember(ws.apiKey, { role: 'member', name: 'Dana Developer' });
    const foreign = await stack.createWorkspace({ name: 'Elsewhere', ownerName: 'Fay Foreign' });

    const installed = (appId: string, installId: string, clientId: string, clientSecret: string): Installed => {
      const token = async () => (await stack.controlPlane.tokens.mint('install', { installId, appId, workspaceId: ws.workspace.id })).token;
      return { appId, installId, workspaceId: ws.workspace.id, clientId, clientSecret, token, api: async () => stack.v0(await token()) };
    };

    return {
      stack, ws, foreign,
      owner: { id: ws.owner.id, apiKey: ws.apiKey, client: ws.client },
      member: { id: member.member.id, apiKey: member.apiKey, client: member.client },
      developer: { id: developer.member.id, apiKey: developer.apiKey, client: developer.client },
      async installApp(scopes, name) {
        const app = await createApp(ws.client, { name: name ?? 'Helper' });
        await sync(stack, ws.apiKey, app.app.id, scopedManifest(app.app.slug, scopes, name), 'production');
        const ins = await install(ws, app.app.id);
        return installed(app.app.id, ins.id, app.clientId, app.clientSecret);
      },
      async devApp(scopes) {
        const res = await stack.v0(developer.apiKey).put('/apps/dev', { manifest: scopedManifest(uniqueSlug('dev'), scopes, 'Dev helper') });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return installed(res.body.appId, res.body.devInstallId, res.body.clientId, '');
      },
      async count(table) {
        const { rows } = await stack.db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
        return rows[0]!.n;
      },
      stop: () => stack.stop(),
    };
  } catch (err) {
    await stack.stop();
    throw err;
  }
}
