/**
 * The search suites' world, built through the real endpoints: a stack, a workspace with its owner
 * (Olive) and a member (Mia), circles of each kind the reach rule knows, and a self-hosted app
 * "Tracker" with a searchable kind (`issue`), a kind without search (`project`) and `search:write`,
 * installed in the workspace, with install tokens minted by client credentials. No delivery is
 * ever sent (search objects need none), so the endpoint is never called.
 */
import { expect } from 'vitest';
import { startStack, type ApiClient, type CreatedWorkspace, type Stack, type StackOptions } from '../../helpers/stack.ts';

export const TRACKER_MANIFEST = {
  schemaVersion: 1,
  name: 'Tracker',
  slug: 'tracker',
  hosting: 'self',
  endpoint: { url: 'https://tracker.example.com/platform' },
  scopes: ['search:write'],
  domains: ['tracker.example.com'],
  references: [
    { kind: 'issue', title: 'Issue', patterns: [{ id: 'issue', pattern: 'https://tracker.example.com/issues/:id' }], searchable: true, hasBlock: false },
    { kind: 'project', title: 'Project', patterns: [{ id: 'project', pattern: 'https://tracker.example.com/projects/:id' }], searchable: false, hasBlock: false },
  ],
  events: [],
};

export interface SearchWorld {
  stack: Stack;
  ws: CreatedWorkspace;
  member: { id: string; apiKey: string; client: ApiClient };
  /** Public circle; Olive (its creator) belongs, Mia does not. */
  publicCircleId: string;
  /** Private, app invited, Olive and Mia belong. */
  sharedCircleId: string;
  /** Private, app invited, only Olive belongs. */
  ownerCircleId: string;
  /** Private, app not invited. */
  uninvitedCircleId: string;
  appId: string;
  installId: string;
  clientId: string;
  clientSecret: string;
  /** `/v0` with a fresh install token of `installId` (default: the workspace install). */
  app(installId?: string): Promise<ApiClient>;
  /** Installs an app in another workspace (or this one) through the API; answers the install id. */
  install(ws: CreatedWorkspace, appId?: string): Promise<string>;
  /** Creates, syncs (production) and installs an app of the given slug in this workspace. */
  createApp(slug: string, manifest?: Record<string, unknown>): Promise<{ appId: string; installId: string; clientId: string; clientSecret: string }>;
  stop(): Promise<void>;
}

export function expectStatus(res: { status: number; body: unknown }, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
}

export async function startSearchWorld(options: StackOptions = {}): Promise<SearchWorld> {
  const stack = await startStack(options);
  try {
    const ws = await stack.createWorkspace({ ownerName: 'Olive Owner' });
    const mia = await stack.addMember(ws.apiKey, { role: 'member', name: 'Mia Member' });
    const circle = async (name: string, visibility: 'public' | 'private') => {
      const res = await ws.client.post('/circles', { name, visibility });
      expectStatus(res, 201);
      return res.body.circle.id as string;
    };
    const publicCircleId = await circle('General', 'public');
    const sharedCircleId = await circle('Shared', 'private');
    const ownerCircleId = await circle('Owners', 'private');
    const uninvitedCircleId = await circle('Uninvited', 'private');
    expectStatus(await ws.client.put(`/circles/${sharedCircleId}/members/${mia.member.id}`), 204);

    const credentials = new Map<string, { clientId: string; clientSecret: string }>();
    const createApp = async (slug: string, manifest: Record<string, unknown> = { ...TRACKER_MANIFEST, slug }) => {
      const created = await ws.client.post('/apps', { name: manifest.name, slug, hosting: 'self', endpoint: manifest.endpoint });
      expectStatus(created, 201);
      const appId: string = created.body.app.id;
      credentials.set(appId, { clientId: created.body.clientId, clientSecret: created.body.clientSecret });
      expectStatus(await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest, target: 'production' }), 200);
      return { appId, installId: await install(ws, appId), ...credentials.get(appId)! };
    };
    const install = async (target: CreatedWorkspace, appId: string) => {
      const consent = await target.client.get(`/apps/${appId}/consent`);
      expectStatus(consent, 200);
      const installed = await target.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version });
      expectStatus(installed, 201);
      return installed.body.install.id as string;
    };
    const tracker = await createApp('tracker', TRACKER_MANIFEST);
    for (const id of [sharedCircleId, ownerCircleId]) expectStatus(await ws.client.put(`/circles/${id}/app-invitations/${tracker.appId}`), 200);

    const appOfInstall = async (installId: string) => {
      const { rows } = await stack.db.query<{ app_id: string }>('select app_id from installs where id = $1', [installId]);
      return rows[0]!.app_id;
    };
    return {
      stack, ws,
      member: { id: mia.member.id, apiKey: mia.apiKey, client: mia.client },
      publicCircleId, sharedCircleId, ownerCircleId, uninvitedCircleId,
      ...tracker,
      async app(installId = tracker.installId) {
        const { clientId, clientSecret } = credentials.get(await appOfInstall(installId))!;
        const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
        const res = await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } });
        expectStatus(res, 201);
        return stack.v0(res.body.token);
      },
      install: (target, appId = tracker.appId) => install(target, appId),
      createApp,
      stop: () => stack.stop(),
    };
  } catch (err) {
    await stack.stop();
    throw err;
  }
}

/** A valid upsert body; `extra` replaces fields. */
export function issue(externalId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'issue', externalId, title: `Issue ${externalId}`, url: `https://tracker.example.com/issues/${externalId}`,
    updatedAt: '2026-01-01T00:00:00.000Z', visibility: 'workspace', ...extra,
  };
}

/** `DELETE /v0/search/objects` with its JSON body. */
export function remove(api: ApiClient, body: unknown) {
  return api.request('DELETE', '/search/objects', { body });
}
