/**
 * The references suites' world, built through the real endpoints: a stack, the Tracker fixture app
 * (tracker.ts) served over HTTP, a workspace with its owner (Olive) and a member (Mia), a public
 * circle with chat, a private circle with chat the app is not invited to (Olive only), the app
 * created with the fixture's endpoint, synced to production and installed, with install tokens
 * minted by client credentials.
 */
import { expect } from 'vitest';
import { startStack, type ApiClient, type CreatedWorkspace, type Stack, type StackOptions } from '../../helpers/stack.ts';
import { startTrackerServer, type TrackerServer } from './tracker.ts';

export interface ReferencesWorld {
  stack: Stack;
  tracker: TrackerServer;
  ws: CreatedWorkspace;
  member: { id: string; apiKey: string; client: ApiClient };
  circleId: string;
  privateCircleId: string;
  appId: string;
  installId: string;
  /** `/v0` with a fresh install token of the Tracker install. */
  app(): Promise<ApiClient>;
  /** A fresh install token of the Tracker install. */
  token(): Promise<string>;
  /** Creates, syncs (production) and installs an app from a hand-written manifest; answers its install's `/v0` client. */
  otherApp(manifest: Record<string, unknown>): Promise<{ appId: string; api: () => Promise<ApiClient> }>;
  stop(): Promise<void>;
}

export function expectStatus(res: { status: number; body: unknown }, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
}

export async function startReferencesWorld(options: StackOptions = {}): Promise<ReferencesWorld> {
  const stack = await startStack(options);
  let tracker: TrackerServer | undefined;
  try {
    tracker = await startTrackerServer({ now: () => stack.clock.now() });
    const ws = await stack.createWorkspace({ ownerName: 'Olive Owner' });
    const mia = await stack.addMember(ws.apiKey, { role: 'member', name: 'Mia Member' });
    const circle = await ws.client.post('/circles', { name: 'General', visibility: 'public', chat: true });
    expectStatus(circle, 201);
    const hidden = await ws.client.post('/circles', { name: 'Secret', visibility: 'private', chat: true });
    expectStatus(hidden, 201);

    const create = async (manifest: Record<string, unknown>, endpoint: string) => {
      const created = await ws.client.post('/apps', { name: manifest.name, slug: manifest.slug, hosting: 'self', endpoint: { url: endpoint } });
      expectStatus(created, 201);
      const appId: string = created.body.app.id;
      expectStatus(await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest, target: 'production' }), 200);
      const consent = await ws.client.get(`/apps/${appId}/consent`);
      expectStatus(consent, 200);
      const installed = await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version });
      expectStatus(installed, 201);
      const installId: string = installed.body.install.id;
      const basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');
      const token = async () => {
        const res = await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } });
        expectStatus(res, 201);
        return res.body.token as string;
      };
      const api = async () => stack.v0(await token());
      return { appId, installId, signingSecret: created.body.signingSecret as string, api, token };
    };
    const main = await create(tracker.app.manifest as unknown as Record<string, unknown>, tracker.endpoint);
    tracker.configure({ signingSecret: main.signingSecret, apiUrl: stack.url });
    const t = tracker;
    return {
      stack, tracker: t, ws,
      member: { id: mia.member.id, apiKey: mia.apiKey, client: mia.client },
      circleId: circle.body.circle.id, privateCircleId: hidden.body.circle.id,
      appId: main.appId, installId: main.installId,
      app: main.api,
      token: main.token,
      async otherApp(manifest) {
        const other = await create(manifest, (manifest.endpoint as { url: string }).url);
        return { appId: other.appId, api: other.api };
      },
      async stop() {
        await t.close();
        await stack.stop();
      },
    };
  } catch (err) {
    await tracker?.close();
    await stack.stop();
    throw err;
  }
}

/** Posts a chat message as `client` in `circleId`; answers its id. */
export async function post(client: ApiClient, circleId: string, markdown: string): Promise<string> {
  const res = await client.post(`/circles/${circleId}/messages`, { markdown });
  expectStatus(res, 201);
  return res.body.message.id;
}

/** A message's link cards, expecting success. */
export async function cards(client: ApiClient, messageId: string): Promise<any[]> {
  const res = await client.get(`/messages/${messageId}/references`);
  expectStatus(res, 200);
  return res.body.items;
}

export const issueUrl = (id: string, org = 'acme') => `https://tracker.example.com/${org}/issues/${id}`;
