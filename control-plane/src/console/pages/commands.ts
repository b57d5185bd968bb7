/**
 * @module console/pages/commands
 * Slash commands and message actions the member can run (`GET /client/v1/commands`: the installed
 * apps' and the member's own development apps', from the version each install runs), and the form
 * that runs one with its option pickers: members and circles from the client API, choices from the
 * listing, app objects typed. A run answers an invocation; its private answer (with share and
 * dismiss) shows above the messages until it is dismissed.
 */
import { html, raw } from 'hono/html';
import type { Api } from '../kit/api.ts';
import { loadCard } from '../kit/cards.ts';
import type { Markup } from '../kit/layout.ts';
import { docText } from './text.ts';

export interface CommandOption {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'choice' | 'member' | 'circle' | 'appObject';
  description: string;
  required: boolean;
  choices: Array<{ value: string; label: string }> | null;
}

export interface AppCommands {
  installId: string;
  /** `dev`: the member's own development install (only its developer is offered it). */
  installKind: 'workspace' | 'dev';
  appId: string;
  name: string;
  commands: Array<{ name: string; description: string; options: CommandOption[] }>;
  messageActions: Array<{ id: string; label: string }>;
}

/**
 * What the member can run, per install (nothing when the listing fails: the page still shows the
 * rest); the workspace's install of an app before the member's development install of it.
 */
export async function appCommands(api: Api): Promise<AppCommands[]> {
  const got = await api.get<{ items: AppCommands[] }>('/commands');
  const items = got.status === 200 ? got.body.items : [];
  return [...items].sort((a, b) => Number(a.installKind === 'dev') - Number(b.installKind === 'dev'));
}

/**
 * The install's name as the console shows it: a development install (its developer's own work in
 * progress, the same name as the published app's) says so, so two `/hello`s read apart.
 */
export const installLabel = (a: Pick<AppCommands, 'name' | 'installKind'>): string => (a.installKind === 'dev' ? `${a.name} (development)` : a.name);

/** The badge beside a development install's command or action. */
export const devBadge = (a: Pick<AppCommands, 'installKind'>): Markup | '' => (a.installKind === 'dev' ? html` <span class="badge badge-dev">dev</span>` : '');

interface Pickers {
  members: Array<{ id: string; name: string }>;
  circles: Array<{ id: string; name: string }>;
}

function optionField(installId: string, cmd: string, o: CommandOption, pick: Pickers): Markup {
  // Per install: a dev install's /hello and the workspace's have the same options on one page.
  const id = `opt-${installId}-${cmd}-${o.name}`;
  const label = html`<label for="${id}">${o.name}${o.required ? ' (required)' : ''}</label>`;
  const help = html`<span class="muted">${o.description}</span>`;
  const select = (items: Array<{ value: string; label: string }>) =>
    html`<select id="${id}" name="opt.${o.name}"${raw(o.required ? ' required' : '')}><option value="">—</option>${items.map((i) => html`<option value="${i.value}">${i.label}</option>`)}</select>`;
  switch (o.type) {
    case 'choice': return html`<div class="field">${label}${select(o.choices ?? [])}${help}</div>`;
    case 'member': return html`<div class="field">${label}${select(pick.members.map((m) => ({ value: m.id, label: m.name })))}${help}</div>`;
    case 'circle': return html`<div class="field">${label}${select(pick.circles.map((c) => ({ value: c.id, label: c.name })))}${help}</div>`;
    case 'boolean': return html`<div class="field"><input type="checkbox" id="${id}" name="opt.${o.name}" value="true"> ${label}${help}</div>`;
    default: return html`<div class="field">${label}<input id="${id}" name="opt.${o.name}" type="${o.type === 'string' || o.type === 'appObject' ? 'text' : 'number'}"${raw(o.required ? ' required' : '')}>${help}</div>`;
  }
}

/** One form per command (a disclosure each, so the page stays short). */
export async function commandForms(api: Api, apps: AppCommands[], action: string): Promise<Markup | ''> {
  const all = apps.flatMap((a) => a.commands.map((c) => ({ ...c, installId: a.installId, appName: installLabel(a), badge: devBadge(a), dev: a.installKind === 'dev' })));
  if (all.length === 0) return '';
  const [members, circles] = await Promise.all([api.get('/members'), api.get('/circles')]);
  const pick: Pickers = { members: members.body?.items ?? [], circles: circles.body?.items ?? [] };
  return html`<section aria-labelledby="commands-title" class="commands"><h2 id="commands-title">Commands</h2>${all.map((c) => html`
    <details class="command"><summary>/${c.name}${c.badge} <span class="muted">${c.description} · ${c.appName}</span></summary>
    <form method="post" action="${action}" class="stack"><input type="hidden" name="installId" value="${c.installId}"><input type="hidden" name="command" value="${c.name}">
    ${c.options.map((o) => optionField(c.installId, c.name, o, pick))}<button type="submit" class="primary">Run /${c.name}${c.dev ? ' (development)' : ''}</button></form></details>`)}</section>`;
}

/** The options of a submitted command form, typed as the manifest says. */
export function readOptions(fields: Record<string, unknown>, options: CommandOption[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const o of options) {
    const raw = fields[`opt.${o.name}`];
    if (typeof raw !== 'string' || raw === '') continue;
    if (o.type === 'integer' || o.type === 'number') out[o.name] = Number(raw);
    else if (o.type === 'boolean') out[o.name] = raw === 'true';
    else if (o.type === 'member') out[o.name] = { kind: 'member', memberId: raw };
    else if (o.type === 'circle') out[o.name] = { kind: 'circle', circleId: raw };
    else if (o.type === 'appObject') out[o.name] = { kind: 'appObject', id: raw, title: raw };
    else out[o.name] = raw;
  }
  return out;
}

interface Invocation {
  id: string;
  name: string;
  kind: string;
  status: string;
  visibility: string | null;
  answer: { content?: unknown; block?: unknown } | null;
  blockId: string | null;
  notice: { tone: string; text: string } | null;
  error: { message: string } | null;
  dismissedAt: string | null;
}

/** The answer of a run, for the member who ran it: private content, its card, notice or failure, with share and dismiss. */
export async function invocationPanel(api: Api, invocationId: string | undefined, back: string): Promise<Markup | ''> {
  if (invocationId === undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(invocationId)) return '';
  const got = await api.get<{ invocation: Invocation }>(`/invocations/${invocationId}`);
  if (got.status !== 200) return '';
  const inv = got.body.invocation;
  // Dismissed is gone for good: the run's link shows nothing any more.
  if (inv.dismissedAt !== null) return '';
  // A public answer's card is in the conversation already; a private one's shows only here.
  const card = inv.blockId === null || inv.visibility !== 'private' ? '' : raw(await loadCard(api, inv.blockId));
  const text = inv.answer?.content === undefined ? '' : html`<p class="message-text">${docText(inv.answer.content)}</p>`;
  const status = inv.status === 'pending' ? html`<p role="status" data-poll-reload="true">The app is still working on it…</p>` : '';
  const notice = inv.notice === null ? '' : html`<p class="flash flash-info" role="status">${inv.notice.text}</p>`;
  const error = inv.error === null ? '' : html`<p class="flash flash-danger" role="alert">${inv.error.message}</p>`;
  // Only a live private answer can be shared or dismissed (past its 24 hours `answer` is null).
  const privateControls = inv.visibility === 'private' && inv.status === 'answered' && inv.answer !== null ? html`<div class="row">
    <form method="post" action="/console/invocations/${inv.id}/share"><input type="hidden" name="back" value="${back}"><button type="submit">Share with the conversation</button></form>
    <form method="post" action="/console/invocations/${inv.id}/dismiss"><input type="hidden" name="back" value="${back}"><button type="submit">Dismiss</button></form></div>` : '';
  return html`<section class="invocation" aria-labelledby="inv-title"><h2 id="inv-title">${inv.kind === 'command' ? `/${inv.name}` : inv.name}${inv.visibility === 'private' ? ' · only you see this' : ''}</h2>
    ${status}${notice}${error}${text}${card}${privateControls}</section>`;
}
