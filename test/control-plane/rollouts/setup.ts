/**
 * The rollouts suites' world over real HTTP: a stack (with a real SMTP server on loopback for the
 * owner's mail), one self-hosted server on loopback that answers as the version each delivery
 * names (as a server mid-release would) and can be told that a version throws on every request,
 * and many workspaces that each installed the app through the API.
 */
import { expect } from 'vitest';
import { defineApp, defineBlock, ui, type App } from '@platform/sdk';
import { serve, type Served } from '@platform/sdk/node';
import { z } from 'zod';
import { startSmtpServer, type SmtpServerHandle } from '../../helpers/smtp-server.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The same app at every version but its title, so no version widens access over another; a title
 * ending in "lean" drops the Close action (removing an action widens nothing either). Ping answers
 * with the version's title in the summary, so a test sees which version applied a click.
 */
function noteApp(endpoint: string, slug: string, title: string, now: () => number): App {
  const lean = title.endsWith('lean');
  const state = z.object({ by: z.string().default('') });
  const ping = { handler: () => ({ state: { by: title } }) };
  const render = ({ state: s }: { state: { by: string } }) => ui.block({ summary: `${title}: ${s.by}` }, [ui.header({ title }), ui.actions([
    ui.button({ label: 'Ping', action: 'ping' }), ...(lean ? [] : [ui.button({ label: 'Close', action: 'close' })]),
  ])]);
  const base = { type: 'note', title, insertable: true, props: z.object({}), state, render } as const;
  const note = lean ? defineBlock({ ...base, actions: { ping } })
    : defineBlock({ ...base, actions: { ping, close: { handler: () => ({ final: { summary: 'Closed' } }) } } });
  return defineApp({ name: 'Notes', slug, hosting: 'self', endpoint, scopes: ['blocks:write'], blocks: [note] }, { logger: quiet, now });
}

export interface RolloutWorld {
  stack: Stack;
  smtp: SmtpServerHandle;
  owner: CreatedWorkspace;
  /** Workspaces other than the owner's, each with one install of the app. */
  installs: Array<{ ws: CreatedWorkspace; installId: string }>;
  appId: string;
  /** The manifest of a version titled `title`. */
  manifest(title: string): unknown;
  /** Versions whose deliveries throw (the server answers 500). */
  throwing: Set<number>;
  /** Every delivery the server saw: its install and version. */
  seen: Array<{ installId: string; version: number }>;
  publish(title: string, query?: string): Promise<{ status: number; body: any }>;
  installVersion(installId: string): Promise<number>;
  /** Inserts a card for the install (one render delivered to the version it runs); answers the status. */
  insertCard(installId: string): Promise<number>;
  /** Inserts a card for the install; answers its id. */
  card(installId: string): Promise<string>;
  /** The workspace of an install (its member client clicks). */
  workspaceOf(installId: string): CreatedWorkspace;
  stop(): Promise<void>;
}

export async function startRolloutWorld(options: { slug: string; workspaces: number }): Promise<RolloutWorld> {
  const smtp = await startSmtpServer();
  const stack = await startStack({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Platform <platform@example.test>' } });
  const throwing = new Set<number>();
  const seen: RolloutWorld['seen'] = [];
  const env: Record<string, string> = {};
  const apps = new Map<string, App>();
  const titles = new Map<number, string>();
  let served: Served | undefined;
  try {
    served = await serve({
      async fetch(request, _env, ctx) {
        const envelope = JSON.parse(await request.clone().text()) as { app: { version: number }; install: { id: string } };
        seen.push({ installId: envelope.install.id, version: envelope.app.version });
        if (throwing.has(envelope.app.version)) throw new Error(`version ${envelope.app.version} is broken`);
        return apps.get(titles.get(envelope.app.version) ?? 'v1')!.fetch(request, env, ctx);
      },
    }, { port: 0, env, logger: quiet });
    const endpoint = `${served.url}/platform`;
    const manifest = (title: string) => {
      if (!apps.has(title)) apps.set(title, noteApp(endpoint, options.slug, title, () => stack.clock.now()));
      return apps.get(title)!.manifest;
    };
    const owner = await stack.createWorkspace({ name: 'Author' });
    expect((await owner.client.put('/me/mail-address', { address: 'olive@example.test' })).status).toBe(200);
    const created = await owner.client.post('/apps', { name: 'Notes', slug: options.slug, hosting: 'self', endpoint: { url: endpoint } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const appId = created.body.app.id as string;
    Object.assign(env, { PLATFORM_SIGNING_SECRET: created.body.signingSecret, PLATFORM_API_URL: stack.url });
    const basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');

    const publish = async (title: string, query = '') => {
      const res = await stack.v0(owner.apiKey).put(`/apps/${appId}/manifest${query}`, { manifest: manifest(title), target: 'production' });
      if (res.status === 200) titles.set(res.body.version as number, title);
      return res;
    };
    expect((await publish('v1')).status).toBe(200);
    const installs: RolloutWorld['installs'] = [];
    for (let i = 0; i < options.workspaces; i++) {
      const ws = await stack.createWorkspace({ name: `Team ${i}` });
      const res = await ws.client.post(`/apps/${appId}/installs`, { version: 1 });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      installs.push({ ws, installId: res.body.install.id as string });
    }
    const byInstall = new Map(installs.map((i) => [i.installId, i.ws]));
    const conversations = new Map<string, string>();
    const insert = async (installId: string) => {
      const ws = byInstall.get(installId)!;
      if (!conversations.has(installId)) {
        const circle = (await ws.client.post('/circles', { name: 'Cards', visibility: 'public' })).body.circle.id;
        conversations.set(installId, (await ws.client.post(`/circles/${circle}/conversations`, { title: 'Cards' })).body.conversation.id);
      }
      const token = (await stack.v0().request('POST', `/apps/installs/${installId}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } })).body.token as string;
      return stack.v0(token).post('/blocks', { type: 'note', props: {}, conversationId: conversations.get(installId) });
    };

    return {
      stack, smtp, owner, installs, appId, manifest, throwing, seen, publish,
      async installVersion(installId) {
        return (await byInstall.get(installId)!.client.get(`/installs/${installId}`)).body.install.version as number;
      },
      async insertCard(installId) {
        return (await insert(installId)).status;
      },
      async card(installId) {
        const res = await insert(installId);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.id as string;
      },
      workspaceOf: (installId) => byInstall.get(installId)!,
      async stop() {
        await served?.close();
        await stack.stop();
        await smtp.stop();
      },
    };
  } catch (err) {
    await served?.close();
    await stack.stop();
    await smtp.stop();
    throw err;
  }
}
