/**
 * @module console/pages/search
 * Search the objects apps added (`GET /search?q=`), best match first, with the next page's link.
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { messageOf } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page } from '../kit/layout.ts';

interface Result { app: { name: string }; kind: string; title: string; url: string; subtitle?: string }

export function registerSearchPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/search', async (c) => {
    const q = (c.req.query('q') ?? '').slice(0, 200);
    const cursor = c.req.query('cursor');
    const params = new URLSearchParams();
    if (q !== '') params.set('q', q);
    if (cursor !== undefined) params.set('cursor', cursor);
    const got = await c.get('api').get<{ items: Result[]; nextCursor: string | null }>(`/search?${params}`);
    const items = got.status === 200 ? got.body.items : [];
    const next = got.status === 200 && got.body.nextCursor !== null ? `/console/search?${new URLSearchParams({ q, cursor: got.body.nextCursor })}` : null;
    const body = html`<form method="get" action="/console/search" role="search" class="row"><label for="q">Search for</label>
      <input id="q" name="q" type="search" value="${q}"><button type="submit" class="primary">Search</button></form>
      ${items.length === 0 ? html`<p class="muted">${q === '' ? 'Nothing has been added yet.' : 'No matches.'}</p>` : html`<ol class="results">${items.map((r) => html`<li>
        <a href="${r.url}" rel="noopener noreferrer" target="_blank">${r.title}</a>${r.subtitle === undefined ? '' : html` <span class="muted">${r.subtitle}</span>`}
        <p class="muted">${r.kind} · ${r.app.name}</p></li>`)}</ol>`}
      ${next === null ? '' : html`<p><a href="${next}">More results</a></p>`}`;
    return c.html(page(assets, { title: 'Search', section: 'search', me: c.get('me'), body, flash: got.status === 200 ? null : { tone: 'danger', text: messageOf(got) } }));
  });
}
