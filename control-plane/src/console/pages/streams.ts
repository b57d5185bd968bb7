/**
 * @module console/pages/streams
 * App streams of every circle the member sees: revoke one (its later events answer 410) or undo
 * that (`POST /streams/{id}/revoke`, `/unrevoke`; owners and admins).
 */
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { messageOf } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page } from '../kit/layout.ts';

interface Stream { id: string; name: string; appId: string; createdAt: string; revoked: { at: string } | null }

async function list(c: Context<ConsoleEnv>, assets: Assets, flash: string | null) {
  const api = c.get('api');
  const circles = await api.get<{ items: Array<{ id: string; name: string }> }>('/circles');
  const groups = await Promise.all((circles.body?.items ?? []).map(async (circle) => {
    const got = await api.get<{ streams: Stream[] }>(`/circles/${circle.id}/streams`);
    return { circle, streams: got.status === 200 ? got.body.streams : [] };
  }));
  const shown = groups.filter((g) => g.streams.length > 0);
  const body = shown.length === 0 ? html`<p class="muted">No app has a stream in your circles.</p>` : html`${shown.map((g) => html`<section aria-labelledby="circle-${g.circle.id}">
    <h2 id="circle-${g.circle.id}">${g.circle.name}</h2><ul class="streams">${g.streams.map((s) => html`<li><strong>${s.name}</strong>
    ${s.revoked === null ? html`<span class="badge">active</span>` : html`<span class="badge badge-danger">revoked</span>`}
    <form method="post" action="/console/streams/${s.id}/${s.revoked === null ? 'revoke' : 'unrevoke'}"><button type="submit" class="${s.revoked === null ? 'danger' : ''}">${s.revoked === null ? 'Revoke' : 'Un-revoke'}<span class="sr-only">: ${s.name}</span></button></form></li>`)}</ul></section>`)}`;
  return c.html(page(assets, { title: 'App streams', section: 'streams', me: c.get('me'), body, flash: flash === null ? null : { tone: 'danger', text: flash } }), flash === null ? 200 : 422);
}

export function registerStreamsPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/streams', (c) => list(c, assets, null));
  for (const verb of ['revoke', 'unrevoke'] as const) {
    router.post(`/streams/:streamId/${verb}`, async (c) => {
      const done = await c.get('api').post(`/streams/${c.req.param('streamId')}/${verb}`);
      return done.status === 200 ? c.redirect('/console/streams', 303) : list(c, assets, messageOf(done));
    });
  }
}
