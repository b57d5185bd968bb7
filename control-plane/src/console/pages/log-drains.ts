/**
 * @module console/pages/log-drains
 * The Log drains page of an app (`/v0/apps/{app_id}/log-drains`): the drains with their state and
 * last outcome, adding one, sending a test batch, rotating a secret, enabling a disabled drain and
 * removing one (the last two behind a confirm when they cannot be undone). A new signing secret is
 * shown once, in the answer to the POST that made it, as the Credentials page shows its secrets
 * (pages are `no-store`); it is never drawn again.
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp, statusOf, type AuthorApp, type C } from './app-frame.ts';
import { confirmAction, copyButton, invalidAttrs, problemFor, problemOf, problemText, textField, when, type Problem } from './author-forms.ts';

interface Drain {
  id: string; url: string; state: 'active' | 'disabled'; disabledReason: string | null; failures: number; failingSince: string | null;
  lastStatus: number | null; lastError: string | null; lastDeliveredAt: string | null; previousSecretExpiresAt: string | null;
}
interface WithSecret { drain: Drain; secret: string }
interface Tested { delivered: boolean; status: number | null; durationMs: number; error: string | null }

const enc = encodeURIComponent;

function revealed(r: WithSecret, rotated: boolean): Markup {
  return html`<section class="secret-once" aria-labelledby="secret-once-title"><h2 id="secret-once-title">Signing secret of ${r.drain.url}</h2>
    <p>Shown only now: keep it where the receiver verifies batches (<code>verifyDelivery</code> of <code>@platform/sdk</code>, or any Standard Webhooks library).</p>
    <p><code id="new-secret" class="secret">${r.secret}</code> ${copyButton(r.secret, 'the signing secret')}</p>
    ${rotated && r.drain.previousSecretExpiresAt !== null ? html`<p>Until <time datetime="${r.drain.previousSecretExpiresAt}">${when(r.drain.previousSecretExpiresAt)}</time>, batches carry a second signature made with the previous secret.</p>` : ''}</section>`;
}

function outcome(d: Drain): Markup {
  if (d.state === 'disabled') return html`<span class="badge badge-danger">disabled</span> ${d.disabledReason ?? ''}`;
  if (d.failures > 0) return html`<span class="badge badge-danger">failing</span> ${d.failures} failed since <time datetime="${d.failingSince ?? ''}">${when(d.failingSince)}</time>: ${d.lastError ?? ''}`;
  return d.lastDeliveredAt === null ? html`<span class="muted">nothing delivered yet</span>` : html`delivered <time datetime="${d.lastDeliveredAt}">${when(d.lastDeliveredAt)}</time>`;
}

function table(app: AuthorApp, items: Drain[], opened: string | undefined): Markup {
  if (items.length === 0) return html`<p class="muted">No log drains yet. A drain receives every log line of the app, in signed batches.</p>`;
  const page = appPath(app.id, '/log-drains');
  return html`<table class="table"><caption class="sr-only">Log drains</caption>
    <thead><tr><th scope="col">Endpoint</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead><tbody>
    ${items.map((d) => html`<tr data-drain="${d.id}"><th scope="row"><code>${d.url}</code><br><span class="muted">${d.id}</span></th><td>${outcome(d)}</td>
      <td><form method="post" action="${appPath(app.id, '/log-drains/test')}" class="inline"><input type="hidden" name="drain" value="${d.id}">
        <button type="submit">Send a test batch<span class="sr-only"> to ${d.url}</span></button></form>
      ${d.state === 'disabled' ? html`<form method="post" action="${appPath(app.id, '/log-drains/enable')}" class="inline"><input type="hidden" name="drain" value="${d.id}">
        <button type="submit" class="primary">Enable<span class="sr-only"> ${d.url}</span></button></form>` : ''}
      ${confirmAction({
        id: `rotate-${d.id}`, page, trigger: 'Rotate secret', triggerDetail: d.url, destructive: false,
        title: `Rotate the signing secret of ${d.url}?`, text: 'The new secret is shown once. The current one keeps signing beside it for 24 hours, so the receiver can switch without missing a batch.',
        action: appPath(app.id, '/log-drains/rotate'), fields: { drain: d.id }, confirm: 'Rotate', opened,
      })}
      ${confirmAction({
        id: `remove-${d.id}`, page, trigger: 'Remove', triggerDetail: d.url,
        title: `Remove the drain to ${d.url}?`, text: 'It receives nothing more; lines it has not received yet are not sent anywhere else.',
        action: appPath(app.id, '/log-drains/remove'), fields: { drain: d.id }, confirm: 'Remove', opened,
      })}</td></tr>`)}</tbody></table>`;
}

function form(app: AuthorApp, url: string, problem: Problem | null): Markup {
  const urlProblem = problemFor(problem, 'url');
  return html`<form method="post" action="${appPath(app.id, '/log-drains')}" class="stack" aria-labelledby="drain-form-title">
    <h2 id="drain-form-title">Add a log drain</h2>
    <p class="muted">Batches of at most 500 lines and 1 MiB, about a second after the first new line; retried with backoff; a drain failing for 24 hours is disabled and you are mailed. At most 3 drains.</p>
    <label for="drain-url">Endpoint URL (https://)</label><input id="drain-url" name="url" type="url" value="${url}" required autocomplete="off" spellcheck="false"${invalidAttrs('drain-url-error', urlProblem)}>${problemText('drain-url-error', urlProblem)}
    ${problemText('drain-form-error', problemFor(problem, null, ['url']))}
    <button type="submit" class="primary">Add drain</button></form>`;
}

interface Shown {
  url?: string;
  problem?: Problem | null;
  listProblem?: Problem | null;
  revealed?: { answer: WithSecret; rotated: boolean };
  flash?: { tone: 'success' | 'danger'; text: string } | null;
  status?: ContentfulStatusCode;
}

const DONE: Record<string, string> = { removed: 'Removed.', enabled: 'Enabled: it resumes after the last line it delivered.' };

async function show(c: C, assets: Assets, input: Shown = {}) {
  const got = await loadApp(c);
  if (got.status !== 200) return appRefused(c, assets, got, 'Log drains');
  const app = got.body.app;
  const q = c.req.query();
  const list = await c.get('api').v0.get<{ items: Drain[] }>(`/apps/${enc(app.id)}/log-drains`);
  const listing = list.status === 200 ? table(app, list.body.items, q.confirm) : problemText('drain-list-error', problemOf(list));
  const body = html`${input.revealed === undefined ? '' : revealed(input.revealed.answer, input.revealed.rotated)}<h2>Log drains</h2>
    ${problemText('drain-action-error', input.listProblem ?? null)}${listing}${form(app, input.url ?? '', input.problem ?? null)}`;
  const done = q.done !== undefined && Object.hasOwn(DONE, q.done) ? { tone: 'success' as const, text: DONE[q.done]! } : null;
  return appPage(c, assets, app, {
    title: `Log drains of ${app.name}`, current: 'drains', body, status: input.status ?? (list.status === 200 ? 200 : statusOf(list)), flash: input.flash ?? done,
  });
}

export function registerLogDrainsPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  const drainOf = async (c: C) => textField(await c.req.parseBody(), 'drain');
  const base = (c: C) => `/apps/${enc(c.req.param('appId') ?? '')}/log-drains`;
  router.get('/apps/:appId/log-drains', (c) => show(c, assets));
  router.post('/apps/:appId/log-drains', async (c) => {
    const url = textField(await c.req.parseBody(), 'url').trim();
    const done = await c.get('api').v0.post<WithSecret>(base(c), { url });
    if (done.status === 201) return show(c, assets, { revealed: { answer: done.body, rotated: false }, status: 201 });
    return show(c, assets, { url, problem: problemOf(done), status: statusOf(done) });
  });
  router.post('/apps/:appId/log-drains/test', async (c) => {
    const done = await c.get('api').v0.post<Tested>(`${base(c)}/${enc(await drainOf(c))}/test`);
    if (done.status !== 200) return show(c, assets, { listProblem: problemOf(done), status: statusOf(done) });
    const t = done.body;
    return show(c, assets, {
      flash: t.delivered ? { tone: 'success', text: `Test batch delivered (HTTP ${t.status}, ${Math.round(t.durationMs)} ms).` } : { tone: 'danger', text: `Test batch not delivered: ${t.error}` },
    });
  });
  router.post('/apps/:appId/log-drains/rotate', async (c) => {
    const done = await c.get('api').v0.post<WithSecret>(`${base(c)}/${enc(await drainOf(c))}/rotate-secret`);
    if (done.status !== 200) return show(c, assets, { listProblem: problemOf(done), status: statusOf(done) });
    return show(c, assets, { revealed: { answer: done.body, rotated: true } });
  });
  router.post('/apps/:appId/log-drains/enable', async (c) => {
    const done = await c.get('api').v0.post(`${base(c)}/${enc(await drainOf(c))}/enable`);
    if (done.status === 200) return c.redirect(appPath(c.req.param('appId'), '/log-drains?done=enabled'), 303);
    return show(c, assets, { listProblem: problemOf(done), status: statusOf(done) });
  });
  router.post('/apps/:appId/log-drains/remove', async (c) => {
    const done = await c.get('api').v0.del(`${base(c)}/${enc(await drainOf(c))}`);
    if (done.status === 204) return c.redirect(appPath(c.req.param('appId'), '/log-drains?done=removed'), 303);
    return show(c, assets, { listProblem: problemOf(done), status: statusOf(done) });
  });
}
