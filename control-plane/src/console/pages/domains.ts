/**
 * @module console/pages/domains
 * The Domains page of an app (`/client/v1/apps/{appId}/domains`, the developer area's routes: the
 * tooling API has none): each claimed domain with whether it is verified and the TXT record to
 * publish for it, claiming a domain, asking the service to look the record up, dropping one. A
 * lookup that finds nothing (409) or cannot ask DNS (503) is said in the domain's own row.
 */
import type { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp, statusOf, type AuthorApp, type C } from './app-frame.ts';
import { confirmAction, copyButton, invalidAttrs, problemFor, problemOf, problemText, textField, when, type Problem } from './author-forms.ts';

interface Domain { domain: string; record: { type: 'TXT'; name: string; value: string }; verified: boolean; verifiedAt: string | null; createdAt: string }

const enc = encodeURIComponent;
/** An id-safe form of a domain (letters, digits, dots and hyphens are all it has once valid). */
const slug = (d: string) => d.replace(/[^a-z0-9-]/gi, '-');

function state(d: Domain): Markup {
  return d.verified ? html`<span class="badge outcome-delivered">verified</span> <span class="muted">${when(d.verifiedAt)}</span>`
    : html`<span class="badge outcome-pending">pending verification</span>`;
}

function record(d: Domain): Markup {
  return html`<dl class="facts record"><dt>Type</dt><dd><code>${d.record.type}</code></dd>
    <dt>Name</dt><dd><code>${d.record.name}</code> ${copyButton(d.record.name, `the record name of ${d.domain}`)}</dd>
    <dt>Value</dt><dd><code class="record-value">${d.record.value}</code> ${copyButton(d.record.value, `the record value of ${d.domain}`)}</dd></dl>`;
}

function row(app: AuthorApp, d: Domain, problem: Problem | null, opened: string | undefined): Markup {
  const id = slug(d.domain);
  return html`<tr data-domain="${d.domain}"><th scope="row">${d.domain}</th><td>${state(d)}</td><td>${record(d)}</td>
    <td>${d.verified ? '' : html`<form method="post" action="${appPath(app.id, '/domains/verify')}" class="inline"><input type="hidden" name="domain" value="${d.domain}">
        <button type="submit"${raw(problem === null ? '' : ` aria-describedby="verify-${id}-error"`)}>Verify<span class="sr-only"> ${d.domain}</span></button></form>`}
      ${confirmAction({
        id: `remove-${id}`, page: appPath(app.id, '/domains'), trigger: 'Remove', triggerDetail: d.domain, title: `Remove ${d.domain}?`,
        text: 'Versions that claim links of this domain no longer publish until it is added and verified again.',
        action: appPath(app.id, '/domains/remove'), fields: { domain: d.domain }, confirm: 'Remove', opened,
      })}${problemText(`verify-${id}-error`, problem)}</td></tr>`;
}

interface Shown { problem?: Problem | null; rowProblem?: { domain: string; problem: Problem } | null; typed?: string; status?: ContentfulStatusCode }

const DONE: Record<string, string> = {
  added: 'Added. Publish the TXT record below, then verify.', verified: 'Verified.', removed: 'Removed.',
};

async function show(c: C, assets: Assets, input: Shown = {}) {
  const got = await loadApp(c);
  if (got.status !== 200) return appRefused(c, assets, got, 'Domains');
  const app = got.body.app;
  const q = c.req.query();
  const list = await c.get('api').get<{ items: Domain[] }>(`/apps/${enc(app.id)}/domains`);
  const items = list.body?.items ?? [];
  const rowProblem = (d: Domain) => (input.rowProblem?.domain === d.domain ? input.rowProblem.problem : null);
  const listing = list.status !== 200 ? problemText('domains-list-error', problemOf(list)) : items.length === 0 ? html`<p class="muted">No domains yet.</p>`
    : html`<div class="table-scroll"><table class="table"><caption class="sr-only">Claimed domains</caption>
      <thead><tr><th scope="col">Domain</th><th scope="col">State</th><th scope="col">DNS record to create</th><th scope="col">Actions</th></tr></thead>
      <tbody>${items.map((d) => row(app, d, rowProblem(d), q.confirm))}</tbody></table></div>`;
  const domainProblem = problemFor(input.problem ?? null, 'domain');
  // A refusal about a domain the list no longer has (removed meanwhile) is said above the list.
  const orphan = input.rowProblem != null && !items.some((d) => d.domain === input.rowProblem!.domain) ? input.rowProblem.problem : null;
  const body = html`<p>A domain lets the app claim links of it (the manifest's <code>domains</code>) and host its MCP server under it. The service proves
      it is yours by a TXT record at <code>_platform-verify.</code> plus the domain; a verified domain covers its subdomains.</p>
    ${problemText('domains-error', orphan)}${listing}
    <form method="post" action="${appPath(app.id, '/domains')}" class="stack" aria-labelledby="domain-form-title"><h2 id="domain-form-title">Add a domain</h2>
      <label for="domain">Domain</label><input id="domain" name="domain" value="${input.typed ?? ''}" required placeholder="example.com" autocomplete="off" spellcheck="false"${invalidAttrs('domain-error', domainProblem)}>
      ${problemText('domain-error', domainProblem)}${problemText('domain-form-error', problemFor(input.problem ?? null, null, ['domain']))}
      <button type="submit" class="primary">Add domain</button></form>`;
  const done = q.done !== undefined && Object.hasOwn(DONE, q.done) ? DONE[q.done]! : null;
  return appPage(c, assets, app, {
    title: `Domains of ${app.name}`, current: 'domains', body, status: input.status ?? (list.status === 200 ? 200 : statusOf(list)),
    flash: done === null ? null : { tone: 'success', text: done },
  });
}

export function registerDomainsPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/domains', (c) => show(c, assets));
  router.post('/apps/:appId/domains', async (c) => {
    const appId = c.req.param('appId');
    const domain = textField(await c.req.parseBody(), 'domain');
    const done = await c.get('api').post(`/apps/${enc(appId)}/domains`, { domain });
    if (done.status === 201) return c.redirect(appPath(appId, '/domains?done=added'), 303);
    return show(c, assets, { problem: problemOf(done), typed: domain, status: statusOf(done) });
  });
  router.post('/apps/:appId/domains/verify', async (c) => {
    const appId = c.req.param('appId');
    const domain = textField(await c.req.parseBody(), 'domain');
    const done = await c.get('api').post(`/apps/${enc(appId)}/domains/${enc(domain)}/verify`);
    if (done.status === 200) return c.redirect(appPath(appId, '/domains?done=verified'), 303);
    return show(c, assets, { rowProblem: { domain, problem: problemOf(done) }, status: statusOf(done) });
  });
  router.post('/apps/:appId/domains/remove', async (c) => {
    const appId = c.req.param('appId');
    const domain = textField(await c.req.parseBody(), 'domain');
    const done = await c.get('api').del(`/apps/${enc(appId)}/domains/${enc(domain)}`);
    if (done.status === 204) return c.redirect(appPath(appId, '/domains?done=removed'), 303);
    return show(c, assets, { rowProblem: { domain, problem: problemOf(done) }, status: statusOf(done) });
  });
}
