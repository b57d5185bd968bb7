/**
 * @module console/pages/versions
 * The Versions page of an app (`GET /v0/apps/{app_id}/versions`): each version, newest first, with
 * its target, whether it is live, when it was made, where it came from (an uploaded bundle, a synced
 * manifest, a rollback) and what it adds in access; two versions picked for a diff
 * (version-compare.ts); Rollback of an earlier production version (`POST /v0/apps/{app_id}/rollback`),
 * behind a confirm.
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp, statusOf, type AuthorApp, type C } from './app-frame.ts';
import { confirmAction, problemOf, problemText, textField, when, type Problem } from './author-forms.ts';

/** A version as `GET /v0/apps/{app_id}/versions` lists it. */
export interface VersionSummary {
  version: number; target: 'preview' | 'production'; manifestSha256: string; createdAt: string;
  bundle: { sha256: string; bytes: number } | null; added: Array<{ kind: string; detail: string }>;
  rollbackOf: number | null; live: boolean;
}

export interface VersionPage { items: VersionSummary[]; nextBefore: number | null }

const enc = encodeURIComponent;

/** Where a version came from. */
function source(v: VersionSummary): Markup {
  const origin = v.bundle === null ? html`manifest sync` : html`bundle <code>${v.bundle.sha256.slice(0, 12)}</code> <span class="muted">(${Math.max(1, Math.round(v.bundle.bytes / 1024))} KB)</span>`;
  return v.rollbackOf === null ? origin : html`rollback of v${v.rollbackOf} · ${origin}`;
}

export function targetBadge(v: Pick<VersionSummary, 'target' | 'live'>): Markup {
  return html`<span class="badge target-${v.target}">${v.target}</span>${v.live ? html` <span class="badge badge-live">live</span>` : ''}`;
}

/** The two selects of a diff; `from` defaults to the second newest, `to` to the newest. */
export function compareForm(app: AuthorApp, items: readonly VersionSummary[], from?: number, to?: number): Markup {
  if (items.length < 2) return html`<p class="muted">A diff needs two versions; this app has ${items.length === 0 ? 'none yet' : 'one'}.</p>`;
  const pick = (id: string, name: string, label: string, chosen: number) => html`<label for="${id}">${label}</label>
    <select id="${id}" name="${name}">${items.map((v) => html`<option value="${v.version}"${v.version === chosen ? html` selected` : ''}>v${v.version} · ${v.target}${v.live ? ' · live' : ''}</option>`)}</select>`;
  return html`<form method="get" action="${appPath(app.id, '/versions/compare')}" class="row" aria-label="Compare two versions">
    ${pick('compare-from', 'from', 'From', from ?? items[1]!.version)}${pick('compare-to', 'to', 'To', to ?? items[0]!.version)}
    <button type="submit" class="primary">Compare manifests</button></form>`;
}

function row(app: AuthorApp, v: VersionSummary, previous: VersionSummary | undefined, opened: string | undefined): Markup {
  const rollback = v.target === 'production' && !v.live ? confirmAction({
    id: `rollback-${v.version}`, page: appPath(app.id, '/versions'), trigger: 'Roll back', triggerDetail: `to version ${v.version}`,
    title: `Serve version ${v.version} again?`,
    text: `This records a new production version copying version ${v.version}'s manifest and bundle. Installs move to it unless it adds access over the version they run; those wait for an admin's approval.`,
    action: appPath(app.id, '/versions/rollback'), fields: { version: String(v.version) }, confirm: `Roll back to v${v.version}`, opened,
  }) : '';
  return html`<tr><th scope="row">v${v.version}</th><td>${targetBadge(v)}</td><td class="num"><time datetime="${v.createdAt}">${when(v.createdAt)}</time></td><td>${source(v)}</td>
    <td>${v.added.length === 0 ? html`<span class="muted">nothing</span>` : html`<ul class="plain">${v.added.map((a) => html`<li>${a.kind}: <code>${a.detail}</code></li>`)}</ul>`}</td>
    <td>${previous === undefined ? '' : html`<a href="${appPath(app.id, `/versions/compare?from=${previous.version}&to=${v.version}`)}">Changes<span class="sr-only"> of v${v.version}</span> from v${previous.version}</a> `}${rollback}</td></tr>`;
}

const DONE = (q: Record<string, string>): string | null =>
  q.done === 'rolled-back' && /^\d+$/.test(q.version ?? '') && /^\d+$/.test(q.of ?? '') ? `Version ${q.version} is live: it serves version ${q.of} again.` : null;

async function list(c: C, assets: Assets, problem: Problem | null = null, status: ContentfulStatusCode = 200) {
  const got = await loadApp(c);
  if (got.status !== 200) return appRefused(c, assets, got, 'Versions');
  const app = got.body.app;
  const q = c.req.query();
  const before = /^\d+$/.test(q.before ?? '') ? `&before=${q.before}` : '';
  const versions = await c.get('api').v0.get<VersionPage>(`/apps/${enc(app.id)}/versions?limit=50${before}`);
  if (versions.status !== 200) return appPage(c, assets, app, { title: `Versions of ${app.name}`, current: 'versions', body: problemText('versions-error', problemOf(versions)), status: statusOf(versions) });
  const { items, nextBefore } = versions.body;
  const body = html`<h2>Compare two versions</h2>${compareForm(app, items)}
    <h2 id="versions-title">Versions</h2>${problemText('versions-error', problem)}
    ${items.length === 0 ? html`<p class="muted">No versions yet: <code>npx platform deploy</code> publishes one.</p>` : html`<div class="table-scroll"><table class="table" aria-labelledby="versions-title">
      <thead><tr><th scope="col">Version</th><th scope="col">Target</th><th scope="col">Created</th><th scope="col">Source</th><th scope="col">Adds in access</th><th scope="col">Actions</th></tr></thead>
      <tbody>${items.map((v, i) => row(app, v, items[i + 1], q.confirm))}</tbody></table></div>`}
    <p class="muted">The platform does not record who published a version; a version's bundle and manifest digest say what it was.</p>
    ${nextBefore === null ? '' : html`<p><a href="${appPath(app.id, `/versions?before=${nextBefore}`)}">Older versions</a></p>`}`;
  const done = DONE(q);
  return appPage(c, assets, app, { title: `Versions of ${app.name}`, current: 'versions', body, flash: done === null ? null : { tone: 'success', text: done }, status });
}

export function registerVersionsPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/versions', (c) => list(c, assets));
  router.post('/apps/:appId/versions/rollback', async (c) => {
    const appId = c.req.param('appId');
    const version = Number(textField(await c.req.parseBody(), 'version'));
    const done = await c.get('api').v0.post<{ version: number; rollbackOf: number | null }>(`/apps/${enc(appId)}/rollback`, { version });
    if (done.status === 200) return c.redirect(appPath(appId, `/versions?done=rolled-back&version=${done.body.version}&of=${done.body.rollbackOf ?? version}`), 303);
    return list(c, assets, problemOf(done), statusOf(done));
  });
}
