/**
 * @module console/pages/conversations
 * Circles and conversations: the circles the member sees with their conversations; a circle's chat;
 * a conversation with its messages and app cards, the post form, the commands of installed apps
 * and the answer of the last run. Posting, running a command or a message action, and sharing or
 * dismissing a private answer are form posts answered by a redirect back (the page reloads with
 * the result); acting on a card is the client script's (cards.ts).
 */
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { messageOf, type Answer } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page, type Markup } from '../kit/layout.ts';
import { appCommands, commandForms, invocationPanel, readOptions } from './commands.ts';
import { messageList, type MessageItem } from './messages.ts';

type C = Context<ConsoleEnv>;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

interface Circle { id: string; name: string; visibility: string; chat: boolean; isMember: boolean }
interface Conversation { id: string; circleId: string; title: string; status: string | null }

function failed(c: C, assets: Assets, a: Answer, title = 'Not available') {
  return c.html(page(assets, { title, section: 'circles', me: c.get('me'), flash: { tone: 'danger', text: messageOf(a) }, body: html`` }), a.status === 404 ? 404 : 400);
}

async function home(c: C, assets: Assets) {
  const api = c.get('api');
  const circles = await api.get<{ items: Circle[] }>('/circles');
  if (circles.status !== 200) return failed(c, assets, circles);
  const sections = await Promise.all(circles.body.items.map(async (circle) => {
    const convs = await api.get<{ items: Conversation[] }>(`/circles/${circle.id}/conversations`);
    const list = convs.status === 200 ? convs.body.items : [];
    return html`<li class="circle"><h2><a href="/console/circles/${circle.id}">${circle.name}</a> <span class="muted">${circle.visibility}${circle.chat ? ' · chat' : ''}</span></h2>
      ${list.length === 0 ? html`<p class="muted">No conversations.</p>` : html`<ul>${list.map((v) => html`<li><a href="/console/conversations/${v.id}">${v.title}</a>${v.status === null ? '' : html` <span class="badge">${v.status}</span>`}</li>`)}</ul>`}</li>`;
  }));
  return c.html(page(assets, { title: 'Circles', section: 'circles', me: c.get('me'), body: html`<ul class="circles">${sections}</ul>` }));
}

async function circle(c: C, assets: Assets) {
  const api = c.get('api');
  const id = c.req.param('circleId') ?? '';
  const got = await api.get<{ circle: Circle }>(`/circles/${id}`);
  if (got.status !== 200) return failed(c, assets, got);
  const convs = await api.get<{ items: Conversation[] }>(`/circles/${id}/conversations`);
  const chat = got.body.circle.chat ? await api.get<{ items: MessageItem[] }>(`/circles/${id}/messages`) : null;
  const apps = await appCommands(api);
  const body = html`<h2>Conversations</h2><ul>${(convs.body?.items ?? []).map((v) => html`<li><a href="/console/conversations/${v.id}">${v.title}</a></li>`)}</ul>
    ${chat === null ? '' : html`<section aria-labelledby="chat-title"><h2 id="chat-title">Chat</h2>${await messageList(api, [...(chat.body?.items ?? [])].reverse(), apps)}</section>`}`;
  return c.html(page(assets, { title: got.body.circle.name, section: 'circles', me: c.get('me'), body }));
}

async function conversation(c: C, assets: Assets, flash: string | null = null) {
  const api = c.get('api');
  const id = c.req.param('conversationId') ?? '';
  const got = await api.get<{ conversation: Conversation }>(`/conversations/${id}`);
  if (got.status !== 200) return failed(c, assets, got);
  const conv = got.body.conversation;
  const [messages, apps] = await Promise.all([api.get<{ items: MessageItem[] }>(`/conversations/${id}/messages`), appCommands(api)]);
  const back = `/console/conversations/${id}`;
  const body: Markup = html`<p class="muted"><a href="/console/circles/${conv.circleId}">Back to the circle</a>${conv.status === null ? '' : html` · <span class="badge">${conv.status}</span>`}</p>
    ${await invocationPanel(api, c.req.query('invocation'), back)}
    <section aria-labelledby="messages-title"><h2 id="messages-title" class="sr-only">Messages</h2>${await messageList(api, messages.body?.items ?? [], apps)}</section>
    <form method="post" action="${back}/messages" class="stack post-form"><label for="post-text">Write a message</label>
      <textarea id="post-text" name="markdown" rows="3" required></textarea><button type="submit" class="primary">Post</button></form>
    ${await commandForms(api, apps, `${back}/commands`)}`;
  return c.html(page(assets, { title: conv.title, section: 'circles', me: c.get('me'), body, flash: flash === null ? null : { tone: 'danger', text: flash } }), flash === null ? 200 : 422);
}

const field = (fields: Record<string, unknown>, name: string) => (typeof fields[name] === 'string' ? fields[name] as string : '');

export function registerConversationPages(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/', (c) => home(c, assets));
  router.get('/circles/:circleId', (c) => circle(c, assets));
  router.get('/conversations/:conversationId', (c) => conversation(c, assets));

  router.post('/conversations/:conversationId/messages', async (c) => {
    const id = c.req.param('conversationId');
    const fields = await c.req.parseBody();
    const posted = await c.get('api').post(`/conversations/${id}/messages`, { markdown: field(fields, 'markdown') });
    return posted.status === 201 ? c.redirect(`/console/conversations/${id}`, 303) : conversation(c, assets, messageOf(posted));
  });

  router.post('/conversations/:conversationId/commands', async (c) => {
    const api = c.get('api');
    const id = c.req.param('conversationId');
    const fields = await c.req.parseBody();
    const conv = await api.get<{ conversation: Conversation }>(`/conversations/${id}`);
    if (conv.status !== 200) return failed(c, assets, conv);
    const app = (await appCommands(api)).find((a) => a.installId === field(fields, 'installId'));
    const command = app?.commands.find((k) => k.name === field(fields, 'command'));
    if (app === undefined || command === undefined) return conversation(c, assets, 'No such command among the installed apps.');
    const ran = await api.post<{ invocation: { id: string } }>('/commands/run', {
      installId: app.installId, command: command.name, options: readOptions(fields, command.options),
      surface: { kind: 'circle', circleId: conv.body.conversation.circleId, conversationId: id },
    });
    if (ran.status >= 400 || ran.body?.invocation?.id === undefined) return conversation(c, assets, messageOf(ran));
    return c.redirect(`/console/conversations/${id}?invocation=${ran.body.invocation.id}`, 303);
  });

  router.post('/messages/:messageId/actions', async (c) => {
    const api = c.get('api');
    const messageId = c.req.param('messageId');
    const fields = await c.req.parseBody();
    const message = await api.get<{ message: { conversationId: string | null; circleId: string | null } }>(`/messages/${messageId}`);
    if (message.status !== 200) return failed(c, assets, message);
    const ran = await api.post<{ invocation: { id: string } }>('/message-actions/run', { installId: field(fields, 'installId'), actionId: field(fields, 'actionId'), messageId });
    const where = message.body.message.conversationId === null ? `/console/circles/${message.body.message.circleId}` : `/console/conversations/${message.body.message.conversationId}`;
    if (ran.status >= 400) return failed(c, assets, ran, 'The message action failed');
    return c.redirect(`${where}?invocation=${ran.body.invocation.id}`, 303);
  });

  for (const verb of ['share', 'dismiss'] as const) {
    router.post(`/invocations/:invocationId/${verb}`, async (c) => {
      const fields = await c.req.parseBody();
      const back = field(fields, 'back');
      const done = await c.get('api').post(`/invocations/${c.req.param('invocationId')}/${verb}`);
      if (done.status >= 400) return failed(c, assets, done, verb === 'share' ? 'Could not share the answer' : 'Could not dismiss the answer');
      return c.redirect(/^\/console\/conversations\/[A-Za-z0-9_-]+$/.test(back) ? back : '/console', 303);
    });
  }
}

export const isId = (s: string) => ID.test(s);
