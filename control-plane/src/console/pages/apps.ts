/**
 * @module console/pages/apps
 * My apps: the apps the member owns in this workspace (`GET /apps`), each with its own page
 * (versions, environment, domains, credentials), its Deliveries page, its Logs page (hosted apps)
 * and the playground.
 */
import type { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { messageOf } from '../kit/api.ts';
import { appIcon } from '../kit/app-icon.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page } from '../kit/layout.ts';

interface App { id: string; slug: string; name: string; hosting: string; development: boolean; ownerMemberId: string; icon: string | null }

export function registerAppsPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps', async (c) => {
    const got = await c.get('api').get<{ items: App[] }>('/apps');
    const mine = (got.body?.items ?? []).filter((a) => a.ownerMemberId === c.get('me').member.id);
    const body = mine.length === 0 ? html`<p class="muted">You have no apps yet. <code>npx platform deploy --create</code> makes one.</p>`
      : html`<table class="table"><caption class="sr-only">Your apps</caption><thead><tr><th scope="col">App</th><th scope="col">Hosting</th><th scope="col">Pages</th></tr></thead><tbody>
        ${mine.map((a) => html`<tr><td>${raw(appIcon(a.icon))}<strong><a href="/console/apps/${a.id}">${a.name}</a></strong> <span class="muted">${a.slug}${a.development ? ' · development' : ''}</span></td><td>${a.hosting === 'platform' ? 'hosted' : 'self-hosted'}</td>
        <td><a href="/console/apps/${a.id}/deliveries">Deliveries<span class="sr-only"> of ${a.name}</span></a> · ${a.hosting === 'platform' ? html`<a href="/console/apps/${a.id}/logs">Logs<span class="sr-only"> of ${a.name}</span></a> · ` : ''}<a href="/console/apps/${a.id}/playground">Playground<span class="sr-only"> of ${a.name}</span></a></td></tr>`)}</tbody></table>`;
    return c.html(page(assets, { title: 'My apps', section: 'author', me: c.get('me'), body, flash: got.status === 200 ? null : { tone: 'danger', text: messageOf(got) } }));
  });
}
