/**
 * @module console/pages/app-author
 * The author's page of one app (`/console/apps/{appId}`): what the app is (`GET /apps/{appId}`),
 * its live version (looked for among the newest 50 of `GET /v0/apps/{app_id}/versions`, which mixes
 * previews in), the way to each of its pages, and its usage over a window (console/pages/usage.ts).
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp, type AuthorApp } from './app-frame.ts';
import { when } from './author-forms.ts';
import type { VersionPage } from './versions.ts';
import { usageSection, usageWindowOf, type UsageAnswer } from './usage.ts';

const PAGES: Array<[string, string, string]> = [
  ['/versions', 'Versions', 'every published and preview version, a diff of any two manifests, rollback'],
  ['/env', 'Environment', 'variables of production and preview; secrets are write-only'],
  ['/domains', 'Domains', 'domains the app claims links of, with the DNS record that proves each'],
  ['/credentials', 'Credentials', 'client id, signing secret, rotation'],
  ['/deliveries', 'Deliveries', 'what the platform sent the app, each attempt, redelivery'],
  ['/logs', 'Logs', 'the hosted app\'s lines, live'],
  ['/playground', 'Playground', 'a block tree checked and drawn'],
];

function overview(app: AuthorApp, versions: VersionPage | null): Markup {
  const live = versions?.items.find((v) => v.live);
  return html`<dl class="facts"><dt>Slug</dt><dd><code>${app.slug}</code>${app.development ? ' (development app)' : ''}</dd>
    <dt>Hosting</dt><dd>${app.hosting === 'platform' ? 'hosted by the platform' : html`self-hosted at <code>${app.endpoint?.url ?? '—'}</code>`}</dd>
    <dt>Visibility</dt><dd>${app.private ? 'private: installable only in this workspace' : 'installable in other workspaces'}</dd>
    <dt>Live version</dt><dd>${live === undefined ? html`<span class="muted">none published</span>` : html`v${live.version}, since ${when(live.createdAt)}`}</dd>
    <dt>Created</dt><dd>${when(app.createdAt)}</dd></dl>
    <h2>Pages</h2><ul class="page-list">${PAGES.filter(([rest]) => rest !== '/logs' || app.hosting === 'platform').map(([rest, label, what]) =>
      html`<li><a href="${appPath(app.id, rest)}">${label}</a> <span class="muted">${what}</span></li>`)}</ul>`;
}

export function registerAppAuthorPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId', async (c) => {
    const got = await loadApp(c);
    if (got.status !== 200) return appRefused(c, assets, got, 'App');
    const app = got.body.app;
    const window = usageWindowOf(c);
    const [versions, usage] = await Promise.all([
      c.get('api').v0.get<VersionPage>(`/apps/${encodeURIComponent(app.id)}/versions?limit=50`),
      c.get('api').v0.get<UsageAnswer>(`/apps/${encodeURIComponent(app.id)}/usage?last=${window}`),
    ]);
    const body = html`${overview(app, versions.status === 200 ? versions.body : null)}${usageSection(usage, window, (w) => `${appPath(app.id, '')}?window=${w}`)}`;
    return appPage(c, assets, app, { title: app.name, current: 'overview', body });
  });
}
