/**
 * @module console/pages/inbox
 * The inbox: notifications apps sent the member, newest first, unread ones marked; mark one or
 * all read (`POST /notifications/{id}/read`, `POST /notifications/read { upTo }`).
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { messageOf } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page } from '../kit/layout.ts';

interface Notification { id: string; text: string; url: string | null; blockId: string | null; app: { name: string } | null; createdAt: string; readAt?: string | null }

export function registerInboxPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/inbox', async (c) => {
    const got = await c.get('api').get<{ items: Notification[]; unreadCount?: number }>('/notifications');
    const items = got.status === 200 ? got.body.items : [];
    const unread = got.body?.unreadCount ?? items.filter((n) => n.readAt == null).length;
    const newest = items[0];
    const body = html`<p>${unread} unread</p>
      ${newest === undefined || unread === 0 ? '' : html`<form method="post" action="/console/inbox/read"><input type="hidden" name="upTo" value="${newest.id}"><button type="submit">Mark all read</button></form>`}
      ${items.length === 0 ? html`<p class="muted">Nothing here yet.</p>` : html`<ul class="inbox">${items.map((n) => html`<li class="${n.readAt == null ? 'unread' : 'read'}">
        <p>${n.readAt == null ? html`<span class="badge">new</span> ` : ''}${n.url === null ? n.text : html`<a href="${n.url}" rel="noopener noreferrer" target="_blank">${n.text}</a>`}</p>
        <p class="muted">${n.app?.name ?? 'An app'} · <time datetime="${n.createdAt}">${n.createdAt.slice(0, 16).replace('T', ' ')}</time></p>
        ${n.readAt == null ? html`<form method="post" action="/console/inbox/${n.id}/read"><button type="submit" class="link-button">Mark read<span class="sr-only">: ${n.text}</span></button></form>` : ''}</li>`)}</ul>`}`;
    return c.html(page(assets, { title: 'Inbox', section: 'inbox', me: c.get('me'), body, flash: got.status === 200 ? null : { tone: 'danger', text: messageOf(got) } }));
  });

  router.post('/inbox/read', async (c) => {
    const fields = await c.req.parseBody();
    await c.get('api').post('/notifications/read', { upTo: typeof fields.upTo === 'string' ? fields.upTo : '' });
    return c.redirect('/console/inbox', 303);
  });

  router.post('/inbox/:notificationId/read', async (c) => {
    await c.get('api').post(`/notifications/${c.req.param('notificationId')}/read`);
    return c.redirect('/console/inbox', 303);
  });
}
