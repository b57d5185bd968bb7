/**
 * @module console/pages/version-compare
 * Two versions of an app side by side (`GET /v0/apps/{app_id}/versions/{version}` for each): what
 * the second adds in access over the first (the rule installs are asked to approve by, from
 * sandbox-lib, as the service applies it), then every manifest change grouped by manifest key
 * (manifest-diff.ts): added and removed scopes, hosts, events, commands…, and values changed from
 * one to the other. Both manifests are there too, folded, for the exact text.
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { accessWidening } from '@platform/sdk';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appRefused, loadApp, statusOf, type AuthorApp, type C } from './app-frame.ts';
import { problemOf, problemText, when, type Problem } from './author-forms.ts';
import { bySection, diffManifests, type Change } from './manifest-diff.ts';
import { compareForm, targetBadge, type VersionPage, type VersionSummary } from './versions.ts';

type Detail = VersionSummary & { manifest: Record<string, unknown> };

const enc = encodeURIComponent;

/** A value in a change: a scalar as code, a structure folded with its JSON. */
function value(v: unknown): Markup {
  if (v === null || typeof v !== 'object') return html`<code>${typeof v === 'string' ? v : JSON.stringify(v)}</code>`;
  return html`<details><summary>${Array.isArray(v) ? `${v.length} item${v.length === 1 ? '' : 's'}` : 'definition'}</summary><pre class="payload">${JSON.stringify(v, null, 2)}</pre></details>`;
}

const WORDS = { added: ['+', 'Added'], removed: ['−', 'Removed'], changed: ['~', 'Changed'] } as const;

function change(ch: Change): Markup {
  const [mark, word] = WORDS[ch.kind];
  const where = ch.path.slice(1);
  return html`<li class="diff-${ch.kind}"><span class="diff-mark" aria-hidden="true">${mark}</span> <span class="sr-only">${word}:</span>
    ${where.length === 0 ? '' : html`<span class="diff-path">${where.join(' › ')}</span> `}${ch.kind === 'changed' ? html`${value(ch.before)} <span aria-hidden="true">→</span><span class="sr-only">becomes</span> ${value(ch.after)}` : value(ch.value)}</li>`;
}

function changes(list: Change[]): Markup {
  if (list.length === 0) return html`<p class="muted">The manifests are the same.</p>`;
  const count = (k: Change['kind']) => list.filter((c) => c.kind === k).length;
  return html`<p>${count('added')} added, ${count('removed')} removed, ${count('changed')} changed.</p>
    ${bySection(list).map((s) => html`<section class="diff" aria-labelledby="diff-${s.key}"><h3 id="diff-${s.key}">${s.label}</h3><ul class="diff-list">${s.changes.map(change)}</ul></section>`)}`;
}

function head(v: Detail): Markup {
  return html`<div><strong>v${v.version}</strong> ${targetBadge(v)} <span class="muted">${when(v.createdAt)}</span>
    <details><summary>Manifest of v${v.version}</summary><pre class="payload" tabindex="0" aria-label="Manifest of v${v.version}">${JSON.stringify(v.manifest, null, 2)}</pre></details></div>`;
}

function comparison(from: Detail, to: Detail): Markup {
  // The manifests come from the service as it validated them, so they have every piece the rule reads.
  const widening = accessWidening(from.manifest as unknown as Parameters<typeof accessWidening>[0], to.manifest as unknown as Parameters<typeof accessWidening>[0]);
  return html`<div class="columns compare-heads">${head(from)}${head(to)}</div>
    <h2>What v${to.version} adds in access over v${from.version}</h2>
    ${widening.length === 0 ? html`<p class="muted">Nothing: installs would move to it without asking an admin.</p>`
      : html`<ul class="diff-list">${widening.map((w) => html`<li class="diff-added"><span class="diff-mark" aria-hidden="true">+</span> ${w.kind}: <code>${w.detail}</code></li>`)}</ul>
        <p class="muted">Published to production, it waits for an admin's approval in each install.</p>`}
    <h2>Manifest changes</h2>${changes(diffManifests(from.manifest, to.manifest))}`;
}

const number = (s: string | undefined): number | null => (s !== undefined && /^\d{1,9}$/.test(s) ? Number(s) : null);

async function compare(c: C, assets: Assets) {
  const got = await loadApp(c);
  if (got.status !== 200) return appRefused(c, assets, got, 'Compare versions');
  const app: AuthorApp = got.body.app;
  const api = c.get('api');
  const [from, to] = [number(c.req.query('from')), number(c.req.query('to'))];
  const path = (n: number) => `/apps/${enc(app.id)}/versions/${n}`;
  const [versions, a, b] = await Promise.all([
    api.v0.get<VersionPage>(`/apps/${enc(app.id)}/versions?limit=100`),
    from === null ? null : api.v0.get<Detail>(path(from)),
    to === null ? null : api.v0.get<Detail>(path(to)),
  ]);
  const refused = [a, b].find((x): x is NonNullable<typeof x> => x !== null && x.status !== 200);
  const problem: Problem | null = from === null || to === null ? { tag: 'ConsoleInvalidRequest', message: 'Pick two versions to compare', field: null }
    : refused === undefined ? null : problemOf(refused);
  const body = html`${compareForm(app, versions.body?.items ?? [], from ?? undefined, to ?? undefined)}${problemText('compare-error', problem)}
    ${problem === null ? comparison(a!.body, b!.body) : ''}`;
  const title = problem === null ? `${app.name}: v${from} → v${to}` : `Compare versions of ${app.name}`;
  return appPage(c, assets, app, { title, current: 'versions', body, status: refused === undefined ? (problem === null ? 200 : 400) : statusOf(refused) });
}

export function registerVersionComparePage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/versions/compare', (c) => compare(c, assets));
}
