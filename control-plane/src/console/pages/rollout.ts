/**
 * @module console/pages/rollout
 * The Rollout page of an app (`GET /v0/apps/{app_id}/rollout`, ours): the running rollout, else
 * the newest finished one: its share, the installs by version, the failures of the new and the old
 * version since it started, and the verdict's bounds; an abort says who aborted it and why (the
 * platform's reason is the one its mail gives). A running one is advanced, promoted or aborted
 * here (`POST …/rollout/advance|promote|abort`), promote and abort behind a confirm.
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp, statusOf, type AuthorApp, type C } from './app-frame.ts';
import { confirmAction, invalidAttrs, problemOf, problemText, textField, when, type Problem } from './author-forms.ts';

interface Side { outcomes: number; failures: number }
interface Rollout {
  version: number; percent: number; status: 'running' | 'promoted' | 'aborted'; reason: string | null; abortedBy: 'author' | 'platform' | null;
  startedAt: string; endedAt: string | null;
  installs: { moved: number; byVersion: Array<{ version: number; installs: number }> };
  signals: { new: Side; old: Side; newErrorGroups: number };
  verdict: { worse: boolean; newLower: number | null; baseline: number | null; minOutcomes: number };
}

const enc = encodeURIComponent;
const pct = (n: number | null) => (n === null ? '—' : `${Math.round(n * 1000) / 10} %`);
const rate = (s: Side) => (s.outcomes === 0 ? '—' : pct(s.failures / s.outcomes));

function headline(r: Rollout): { tone: 'success' | 'danger' | 'info'; text: string } {
  if (r.status === 'running') return { tone: 'info', text: `Version ${r.version} is rolling out to ${r.percent} % of the installs.` };
  if (r.status === 'promoted') return { tone: 'success', text: `Version ${r.version} was promoted: every install may run it.` };
  return { tone: 'danger', text: `The rollout of version ${r.version} was aborted by ${r.abortedBy === 'platform' ? 'the platform' : 'the author'}: ${r.reason ?? ''}` };
}

function figures(appId: string, r: Rollout): Markup {
  return html`<dl class="facts"><dt>Version</dt><dd>v${r.version}</dd><dt>Share</dt><dd>${r.percent} %</dd><dt>Started</dt><dd><time datetime="${r.startedAt}">${when(r.startedAt)}</time></dd>
      ${r.endedAt === null ? '' : html`<dt>Ended</dt><dd><time datetime="${r.endedAt}">${when(r.endedAt)}</time></dd>`}<dt>Moved</dt><dd>${r.installs.moved} installs</dd>
      <dt>New error groups</dt><dd>${r.signals.newErrorGroups === 0 ? '0' : html`<a href="${appPath(appId, `/errors?version=${r.version}`)}">${r.signals.newErrorGroups}</a>`}</dd></dl>
    <h2 id="by-version">Installs by version</h2>
    <table class="table" aria-labelledby="by-version"><thead><tr><th scope="col">Version</th><th scope="col">Installs</th></tr></thead>
      <tbody>${r.installs.byVersion.map((v) => html`<tr><th scope="row">v${v.version}</th><td class="num">${v.installs}</td></tr>`)}</tbody></table>
    <h2 id="signals">Requests and deliveries since it started</h2>
    <table class="table" aria-labelledby="signals"><thead><tr><th scope="col">Side</th><th scope="col">Outcomes</th><th scope="col">Failed</th><th scope="col">Rate</th></tr></thead>
      <tbody><tr><th scope="row">New (installs it moved)</th><td class="num">${r.signals.new.outcomes}</td><td class="num">${r.signals.new.failures}</td><td class="num">${rate(r.signals.new)}</td></tr>
        <tr><th scope="row">Old (the other installs, app routes)</th><td class="num">${r.signals.old.outcomes}</td><td class="num">${r.signals.old.failures}</td><td class="num">${rate(r.signals.old)}</td></tr></tbody></table>
    <p class="muted">${r.verdict.newLower === null ? `The platform judges once the new version has ${r.verdict.minOutcomes} outcomes.`
      : `With 99 % confidence the new version fails at least ${pct(r.verdict.newLower)}; it is aborted when that is above ${pct(r.verdict.baseline)} (the old version's upper bound, or 50 % while the old one is quiet).`}</p>`;
}

function actions(app: AuthorApp, r: Rollout, problem: Problem | null, opened: string | undefined): Markup {
  if (r.status !== 'running') return html``;
  const page = appPath(app.id, '/rollout');
  return html`<h2>Change it</h2>${problemText('rollout-error', problem)}
    <form method="post" action="${appPath(app.id, '/rollout/advance')}" class="row" aria-label="Advance the rollout">
      <label for="advance-percent">Share (%)</label><input id="advance-percent" name="percent" inputmode="numeric" size="4" value="${Math.min(100, r.percent * 2)}"${invalidAttrs('rollout-error', problem)}>
      <button type="submit" class="primary">Advance</button></form>
    <p class="row">${confirmAction({
    id: 'promote', page, trigger: 'Promote', destructive: false, title: `Move every install to version ${r.version}?`,
    text: 'Installs whose access it widens keep their version until an admin approves, as after any publish.', action: appPath(app.id, '/rollout/promote'), confirm: 'Promote', opened,
  })} ${confirmAction({
    id: 'abort', page, trigger: 'Abort', title: `Abort the rollout of version ${r.version}?`,
    text: 'Every install it moved goes back to the version it ran before.', action: appPath(app.id, '/rollout/abort'), confirm: 'Abort the rollout', opened,
  })}</p>`;
}

async function show(c: C, assets: Assets, problem: Problem | null = null, status: ContentfulStatusCode = 200) {
  const got = await loadApp(c);
  if (got.status !== 200) return appRefused(c, assets, got, 'Rollout');
  const app = got.body.app;
  const title = `Rollout of ${app.name}`;
  const r = await c.get('api').v0.get<Rollout>(`/apps/${enc(app.id)}/rollout`);
  if (r.status === 404 && (r.body as { _tag?: string })._tag === 'PlatformApiNotFoundError') {
    return appPage(c, assets, app, { title, current: 'rollout', body: html`<p class="muted">No rollout yet: <code>npx platform deploy --production --rollout 10</code> moves a tenth of the installs to the new version and compares it with the old.</p>` });
  }
  if (r.status !== 200) return appPage(c, assets, app, { title, current: 'rollout', body: problemText('rollout-error', problemOf(r)), status: statusOf(r) });
  const body = html`${figures(app.id, r.body)}${actions(app, r.body, problem, c.req.query('confirm'))}`;
  return appPage(c, assets, app, { title, current: 'rollout', body, flash: headline(r.body), status });
}

export function registerRolloutPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/rollout', (c) => show(c, assets));
  router.post('/apps/:appId/rollout/:action{advance|promote|abort}', async (c) => {
    const appId = c.req.param('appId');
    const action = c.req.param('action');
    const form = await c.req.parseBody();
    const body = action === 'advance' ? { percent: Number(textField(form, 'percent')) } : {};
    const done = await c.get('api').v0.post(`/apps/${enc(appId)}/rollout/${action}`, body);
    if (done.status === 200) return c.redirect(appPath(appId, '/rollout'), 303);
    return show(c, assets, problemOf(done), statusOf(done));
  });
}
