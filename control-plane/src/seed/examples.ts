/**
 * @module seed/examples
 * The demo workspace's example app (apps/deploy-desk.ts), set up once the runtime node is ready,
 * the way an author and an admin would, through the public APIs only (the app's own request
 * function, with the owner's key): create the app, bundle it with esbuild and upload it
 * (`POST /v0/apps/{id}/versions`), read its consent screen and install it, then, as the app with
 * an install token, post its cards into the welcome conversation, send the owner a notification,
 * save a memory and post to a stream. A workspace that already has
 * the app is left as it is.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { DemoWorkspace } from './demo.ts';

type RequestFn = (path: string, init: RequestInit) => Promise<Response>;

export const EXAMPLE_SLUG = 'deploy-desk';
const SOURCE = fileURLToPath(new URL('./apps/deploy-desk.ts', import.meta.url));

export interface SeededExample {
  created: boolean;
  appId: string;
  blockIds: string[];
}

async function call(request: RequestFn, method: string, path: string, auth: string, body?: unknown, raw?: Uint8Array): Promise<any> {
  const headers: Record<string, string> = { authorization: auth };
  if (raw !== undefined) headers['content-type'] = 'application/javascript';
  else if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(path, { method, headers, ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`Seeding the example app: ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text === '' ? null : JSON.parse(text);
}

/** The app's bundle, as `platform deploy` builds it. */
export async function bundleExample(): Promise<Uint8Array> {
  const out = await build({
    entryPoints: [SOURCE], bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  return out.outputFiles[0]!.contents;
}

/**
 * @example
 * const example = await seedExampleApp({ request: (p, init) => app.request(p, init), ownerKey, demo });
 */
export async function seedExampleApp(deps: { request: RequestFn; ownerKey: string; demo: DemoWorkspace }): Promise<SeededExample> {
  const owner = `Bearer ${deps.ownerKey}`;
  const req = (method: string, path: string, body?: unknown, raw?: Uint8Array) => call(deps.request, method, path, owner, body, raw);
  const existing = (await req('GET', '/client/v1/apps')).items.find((a: { slug: string }) => a.slug === EXAMPLE_SLUG);
  if (existing !== undefined) return { created: false, appId: existing.id, blockIds: [] };

  const created = await req('POST', '/client/v1/apps', { name: 'Deploy desk', slug: EXAMPLE_SLUG, hosting: 'platform' });
  const appId: string = created.app.id;
  await req('POST', `/v0/apps/${appId}/versions?target=production`, undefined, await bundleExample());
  const consent = await req('GET', `/client/v1/apps/${appId}/consent`);
  const installed = await req('POST', `/client/v1/apps/${appId}/installs`, { version: consent.consent.version });
  const basic = `Basic ${Buffer.from(`${created.clientId}:${created.clientSecret}`).toString('base64')}`;
  const minted = await call(deps.request, 'POST', `/v0/apps/installs/${installed.install.id}/access-tokens`, basic, {});
  const asApp = (path: string, body: unknown) => call(deps.request, 'POST', path, `Bearer ${minted.token}`, body);

  const conversationId = deps.demo.conversationId;
  const cards = [
    await asApp('/v0/blocks', { type: 'deploy', props: { service: 'checkout', version: 'v2.4.1', env: 'production' }, conversationId }),
    await asApp('/v0/blocks', { type: 'poll', props: { question: 'Where do we eat on Friday?' }, conversationId }),
  ];
  // Something in the inbox, the memories and the app streams pages too.
  await asApp('/v0/notifications', { memberId: deps.demo.owner.id, text: 'Deploy checkout v2.4.1 is waiting for your approval' });
  await asApp('/v0/memories', { title: 'Release rule', text: 'Production deploys need one approval from the owning team.' });
  await asApp('/v0/streams/events', { circleId: deps.demo.circles.public, title: 'Deploys', markdown: 'checkout v2.4.0 went out to production.' });
  return { created: true, appId, blockIds: cards.map((c: { id: string }) => c.id) };
}
