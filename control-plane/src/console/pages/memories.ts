/**
 * @module console/pages/memories
 * Memories apps saved for the member or the workspace: read, edit (`PATCH /memories/{id}`) and
 * delete (`DELETE /memories/{id}`). A refused edit shows the API's message above the list.
 */
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { messageOf } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page } from '../kit/layout.ts';

interface Memory { id: string; title: string | null; text: string; app: { name: string } | null; createdAt: string }

async function list(c: Context<ConsoleEnv>, assets: Assets, flash: { tone: 'success' | 'danger'; text: string } | null) {
  const got = await c.get('api').get<{ items: Memory[] }>('/memories');
  const items = got.status === 200 ? got.body.items : [];
  const body = items.length === 0 ? html`<p class="muted">No memories yet. Apps save them (for example when a decision is published).</p>`
    : html`<ul class="memories">${items.map((m) => html`<li class="memory"><h2>${m.title ?? 'Untitled'}</h2><p class="message-text">${m.text}</p>
      <p class="muted">${m.app?.name ?? 'An app'} · <time datetime="${m.createdAt}">${m.createdAt.slice(0, 10)}</time></p>
      <details><summary>Edit<span class="sr-only">: ${m.title ?? m.text.slice(0, 40)}</span></summary>
        <form method="post" action="/console/memories/${m.id}" class="stack">
          <label for="title-${m.id}">Title</label><input id="title-${m.id}" name="title" value="${m.title ?? ''}">
          <label for="text-${m.id}">Text</label><textarea id="text-${m.id}" name="text" rows="4" required>${m.text}</textarea>
          <button type="submit" class="primary">Save</button></form></details>
      <form method="post" action="/console/memories/${m.id}/delete"><button type="submit" class="danger">Delete<span class="sr-only">: ${m.title ?? m.text.slice(0, 40)}</span></button></form></li>`)}</ul>`;
  return c.html(page(assets, { title: 'Memories', section: 'memories', me: c.get('me'), body, flash: flash ?? (got.status === 200 ? null : { tone: 'danger', text: messageOf(got) }) }), flash?.tone === 'danger' ? 422 : 200);
}

export function registerMemoriesPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/memories', (c) => list(c, assets, c.req.query('done') === 'saved' ? { tone: 'success', text: 'Saved.' } : c.req.query('done') === 'deleted' ? { tone: 'success', text: 'Deleted.' } : null));

  router.post('/memories/:memoryId', async (c) => {
    const fields = await c.req.parseBody();
    const edited = await c.get('api').patch(`/memories/${c.req.param('memoryId')}`, {
      text: typeof fields.text === 'string' ? fields.text : '', title: typeof fields.title === 'string' && fields.title.trim() !== '' ? fields.title : null,
    });
    return edited.status === 200 ? c.redirect('/console/memories?done=saved', 303) : list(c, assets, { tone: 'danger', text: messageOf(edited) });
  });

  router.post('/memories/:memoryId/delete', async (c) => {
    const deleted = await c.get('api').del(`/memories/${c.req.param('memoryId')}`);
    return deleted.status < 300 ? c.redirect('/console/memories?done=deleted', 303) : list(c, assets, { tone: 'danger', text: messageOf(deleted) });
  });
}
