/**
 * @module console/pages/messages
 * A list of messages: author, time, text (markdown shown as written; an editor document as its
 * text), the app card a message carries, its link cards (link-cards.ts), and its message actions.
 */
import { html, raw } from 'hono/html';
import type { Api } from '../kit/api.ts';
import { loadCard } from '../kit/cards.ts';
import { linkCardsHtml } from '../kit/link-cards.ts';
import type { Markup } from '../kit/layout.ts';
import { devBadge, type AppCommands } from './commands.ts';
import { docText } from './text.ts';

export interface MessageItem {
  id: string;
  author: { kind: 'member' | 'app'; name: string | null };
  content: unknown;
  markdown: string | null;
  createdAt: string;
  blockId: string | null;
}

function actionsMenu(message: MessageItem, apps: AppCommands[]): Markup | '' {
  // "Remind me (Hello)", and the author's own development install "Remind me (Hello, development) dev".
  const actions = apps.flatMap((a) => a.messageActions.map((m) => ({ installId: a.installId, appName: a.installKind === 'dev' ? `${a.name}, development` : a.name, badge: devBadge(a), ...m })));
  if (actions.length === 0) return '';
  return html`<details class="message-actions"><summary>Message actions</summary><ul>${actions.map((m) => html`<li>
    <form method="post" action="/console/messages/${message.id}/actions"><input type="hidden" name="installId" value="${m.installId}">
    <input type="hidden" name="actionId" value="${m.id}"><button type="submit" class="link-button">${m.label} <span class="muted">(${m.appName})</span>${m.badge}</button></form></li>`)}</ul></details>`;
}

/** Messages oldest first, each with its card and link cards. */
export async function messageList(api: Api, messages: MessageItem[], apps: AppCommands[]): Promise<Markup> {
  const items = await Promise.all(messages.map(async (m) => {
    const text = m.markdown ?? docText(m.content);
    const card = m.blockId === null ? '' : raw(await loadCard(api, m.blockId));
    const when = new Date(m.createdAt);
    return html`<li class="message" id="message-${m.id}"><div class="message-head"><strong>${m.author.name ?? 'Someone'}</strong>
      ${m.author.kind === 'app' ? html`<span class="badge">app</span>` : ''}
      <time datetime="${m.createdAt}">${when.toISOString().slice(0, 16).replace('T', ' ')}</time></div>
      ${m.blockId === null ? html`<p class="message-text">${text}</p>` : ''}${card}${raw(await linkCardsHtml(api, m.id))}${actionsMenu(m, apps)}</li>`;
  }));
  return items.length === 0 ? html`<p class="muted">No messages yet.</p>` : html`<ol class="messages">${items}</ol>`;
}
