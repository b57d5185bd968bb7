/**
 * @module console/pages/admin
 * Admin pages: the app directory (apps of the workspace and whether each is installed), the consent
 * screen before installing (scopes in plain words, egress hosts, domains, events, MCP; what a new
 * version adds over the running one), the install config form generated from the app's JSON Schema
 * (secrets masked), approving a version that widens access, and suspend, resume, uninstall.
 */
import type { Context, Hono } from 'hono';
import { html, raw } from 'hono/html';
import { appIcon } from '../kit/app-icon.ts';
import { messageOf, type Answer } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page, type Markup } from '../kit/layout.ts';
import { configFields, readConfig } from './config-form.ts';

type C = Context<ConsoleEnv>;
interface App { id: string; name: string; slug: string; hosting: string; development: boolean; icon: string | null }
interface Install { id: string; appId: string; app: { name: string }; kind: string; version: number; pendingVersion: number | null; status: string; config: unknown; secretsSet: string[] }
interface Consent {
  app: { id: string; name: string; description: string | null; hosting: string };
  version: number; currentVersion: number | null;
  scopes: Array<{ scope: string; allows: string }>;
  storage: { maxBytes: number; retainDays: number };
  access: { egressHosts: string[]; domains: string[]; events: string[]; mcpUrl: string | null };
  added: Array<{ kind: string; detail: string }>;
  installConfig: unknown; secretFields: string[];
}

const fail = (c: C, assets: Assets, a: Answer, title: string) =>
  c.html(page(assets, { title, section: 'apps', me: c.get('me'), body: html`<p><a href="/console/admin/apps">Back to the apps</a></p>`, flash: { tone: 'danger', text: messageOf(a) } }), a.status === 404 ? 404 : a.status === 403 ? 403 : 422);

const list = (items: string[], none: string): Markup => (items.length === 0 ? html`<p class="muted">${none}</p>` : html`<ul>${items.map((i) => html`<li><code>${i}</code></li>`)}</ul>`);

/** The consent screen's body: what the app may do, in words, and what a new version adds. */
function consentBody(consent: Consent): Markup {
  return html`<p>${consent.app.description ?? ''}</p><p class="muted">Version ${consent.version}${consent.currentVersion === null ? '' : ` (running ${consent.currentVersion})`} · ${consent.app.hosting === 'platform' ? 'hosted by the platform' : 'self-hosted'}</p>
    ${consent.added.length === 0 ? '' : html`<section aria-labelledby="added-title" class="invocation"><h2 id="added-title">What this version adds</h2><ul>${consent.added.map((a) => html`<li><strong>${a.kind}</strong>: ${a.detail}</li>`)}</ul></section>`}
    <h2>It will be able to</h2>${consent.scopes.length === 0 ? html`<p class="muted">Nothing beyond its own cards.</p>` : html`<ul class="scopes">${consent.scopes.map((s) => html`<li>${s.allows} <span class="muted">(<code>${s.scope}</code>)</span></li>`)}</ul>`}
    <h2>It keeps data</h2><p>Up to ${Math.round(consent.storage.maxBytes / 1_048_576)} MB in this workspace, kept ${consent.storage.retainDays} days after an uninstall (a reinstall finds it); admins see how much and may delete it.</p>
    <h2>It calls out to</h2>${list(consent.access.egressHosts, 'No outside hosts.')}
    <h2>It claims links of</h2>${list(consent.access.domains, 'No domains.')}
    <h2>It hears of</h2>${list(consent.access.events, 'No events.')}
    <h2>MCP server</h2><p>${consent.access.mcpUrl === null ? html`<span class="muted">None.</span>` : html`<code>${consent.access.mcpUrl}</code>`}</p>`;
}

interface StorageUsage { appId: string; keys: number; bytes: number; purgeAfter: string | null }

const sizeText = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1_048_576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1_048_576).toFixed(1)} MB`);

/** What an app keeps in the workspace (its storage), and until when when it was uninstalled. */
function dataKept(u: StorageUsage | undefined): Markup {
  if (u === undefined) return html`<span class="muted">none</span>`;
  return html`${sizeText(u.bytes)} · ${u.keys} ${u.keys === 1 ? 'key' : 'keys'}${u.purgeAfter === null ? '' : html` <span class="muted">(removed ${u.purgeAfter.slice(0, 10)})</span>`}`;
}

async function directory(c: C, assets: Assets) {
  const api = c.get('api');
  const [apps, installs, storage] = await Promise.all([
    api.get<{ items: App[] }>('/apps'), api.get<{ items: Install[] }>('/installs'), api.get<{ items: StorageUsage[] }>('/storage'),
  ]);
  if (apps.status !== 200) return fail(c, assets, apps, 'Apps');
  const kept = new Map((storage.body?.items ?? []).map((u) => [u.appId, u]));
  const byApp = new Map((installs.body?.items ?? []).filter((i) => i.kind === 'workspace' && i.status !== 'uninstalled').map((i) => [i.appId, i]));
  const rows = apps.body.items.filter((a) => !a.development).map((a) => {
    const inst = byApp.get(a.id);
    const actions = inst === undefined ? html`<a href="/console/admin/apps/${a.id}/install">Install<span class="sr-only"> ${a.name}</span></a>` : html`
      ${inst.pendingVersion === null ? '' : html`<a href="/console/admin/installs/${inst.id}/review">Review version ${inst.pendingVersion}</a> `}
      <form method="post" action="/console/admin/installs/${inst.id}/${inst.status === 'suspended' ? 'resume' : 'suspend'}" class="inline"><button type="submit">${inst.status === 'suspended' ? 'Resume' : 'Suspend'}<span class="sr-only"> ${a.name}</span></button></form>
      <form method="post" action="/console/admin/installs/${inst.id}/uninstall" class="inline"><button type="submit" class="danger">Uninstall<span class="sr-only"> ${a.name}</span></button></form>
      <a href="/console/admin/apps/${a.id}/usage">Usage<span class="sr-only"> of ${a.name}</span></a>`;
    return html`<tr><td>${raw(appIcon(a.icon))}<strong>${a.name}</strong> <span class="muted">${a.slug}</span></td><td>${inst === undefined ? 'not installed' : html`<span class="badge">${inst.status}</span> version ${inst.version}`}</td><td>${dataKept(kept.get(a.id))}</td><td>${actions}</td></tr>`;
  });
  const body = html`<table class="table"><caption class="sr-only">Apps of the workspace</caption><thead><tr><th scope="col">App</th><th scope="col">Install</th><th scope="col">Data kept</th><th scope="col">Actions</th></tr></thead><tbody>${rows}</tbody></table>`;
  return c.html(page(assets, { title: 'Apps', section: 'apps', me: c.get('me'), body }));
}

async function installScreen(c: C, assets: Assets, error: string | null = null) {
  const appId = c.req.param('appId') ?? '';
  const got = await c.get('api').get<{ consent: Consent }>(`/apps/${appId}/consent`);
  if (got.status !== 200) return fail(c, assets, got, 'Install');
  const consent = got.body.consent;
  const body = html`${consentBody(consent)}<form method="post" action="/console/admin/apps/${appId}/install" class="stack"><input type="hidden" name="version" value="${consent.version}">
    ${configFields(consent.installConfig, null)}<button type="submit" class="primary">Install ${consent.app.name}</button></form>`;
  return c.html(page(assets, { title: `Install ${consent.app.name}`, section: 'apps', me: c.get('me'), body, flash: error === null ? null : { tone: 'danger', text: error } }), error === null ? 200 : 422);
}

async function reviewScreen(c: C, assets: Assets, error: string | null = null) {
  const installId = c.req.param('installId') ?? '';
  const api = c.get('api');
  const [got, install] = await Promise.all([api.get<{ consent: Consent }>(`/installs/${installId}/consent`), api.get<{ install: Install }>(`/installs/${installId}`)]);
  if (got.status !== 200) return fail(c, assets, got, 'Review');
  const consent = got.body.consent;
  const body = html`${consentBody(consent)}<form method="post" action="/console/admin/installs/${installId}/approve" class="stack"><input type="hidden" name="version" value="${consent.version}">
    ${configFields(consent.installConfig, install.body?.install?.config ?? null, install.body?.install?.secretsSet ?? [])}<button type="submit" class="primary">Approve version ${consent.version}</button></form>`;
  return c.html(page(assets, { title: `Update ${consent.app.name}`, section: 'apps', me: c.get('me'), body, flash: error === null ? null : { tone: 'danger', text: error } }), error === null ? 200 : 422);
}

export function registerAdminPages(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/admin/apps', (c) => directory(c, assets));
  router.get('/admin/apps/:appId/install', (c) => installScreen(c, assets));
  router.post('/admin/apps/:appId/install', async (c) => {
    const appId = c.req.param('appId');
    const fields = await c.req.parseBody();
    const consent = await c.get('api').get<{ consent: Consent }>(`/apps/${appId}/consent`);
    const config = consent.status === 200 ? readConfig(consent.body.consent.installConfig, fields) : undefined;
    const done = await c.get('api').post(`/apps/${appId}/installs`, { version: Number(fields.version), ...(config === undefined ? {} : { config }) });
    return done.status === 201 ? c.redirect('/console/admin/apps', 303) : installScreen(c, assets, messageOf(done));
  });
  router.get('/admin/installs/:installId/review', (c) => reviewScreen(c, assets));
  router.post('/admin/installs/:installId/approve', async (c) => {
    const installId = c.req.param('installId');
    const fields = await c.req.parseBody();
    const consent = await c.get('api').get<{ consent: Consent }>(`/installs/${installId}/consent`);
    const config = consent.status === 200 ? readConfig(consent.body.consent.installConfig, fields) : undefined;
    const done = await c.get('api').post(`/installs/${installId}/approve`, { version: Number(fields.version), ...(config === undefined ? {} : { config }) });
    return done.status < 300 ? c.redirect('/console/admin/apps', 303) : reviewScreen(c, assets, messageOf(done));
  });
  for (const verb of ['suspend', 'resume', 'uninstall'] as const) {
    router.post(`/admin/installs/:installId/${verb}`, async (c) => {
      const installId = c.req.param('installId');
      const done = verb === 'uninstall' ? await c.get('api').del(`/installs/${installId}`) : await c.get('api').post(`/installs/${installId}/${verb}`);
      return done.status < 300 ? c.redirect('/console/admin/apps', 303) : fail(c, assets, done, 'Apps');
    });
  }
}
