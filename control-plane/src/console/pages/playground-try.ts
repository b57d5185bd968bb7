/**
 * @module console/pages/playground-try
 * "Try it" in the playground: the author picks one of their development installs with one of its
 * block types (`GET /client/v1/apps`, `GET /client/v1/installs`, each app's latest preview manifest
 * through `GET /v0/apps/{id}/manifest`) and a conversation or chat of a circle they belong to;
 * the tree, its action table, props and state go to
 * `POST /client/v1/installs/{installId}/playground-blocks`, and the block answered is drawn as a
 * live card: its buttons go through the console's card routes to the app's own handler (the dev
 * install's deliveries pass through `platform dev`'s relay).
 */
import { html, raw } from 'hono/html';
import { messageOf, type Api } from '../kit/api.ts';
import { cardHtml, type BlockView } from '../kit/cards.ts';
import type { Markup, Me } from '../kit/layout.ts';

export interface TryInput {
  /** `{installId} {blockType}` */
  block: string;
  /** `conversation:{id}` or `circle:{id}` (its chat) */
  place: string;
  props: string;
  state: string;
}

export interface DevBlock {
  installId: string; appId: string; appName: string; type: string; title: string;
  /** The type's actions as its manifest declares them, for the sample tree (playground-sample.ts). */
  actions: Array<{ name: string; destructive: boolean }>;
}

interface ManifestBlock { type: string; title: string; actions?: Array<{ name: string; hints?: { destructive?: boolean } }> }
export interface Place { value: string; label: string; href: string }

export interface TryChoices { blocks: DevBlock[]; places: Place[] }

/** The member's own active dev installs, one entry per block type of the version each runs. */
async function devBlocks(api: Api, me: Me): Promise<DevBlock[]> {
  const [apps, installs] = await Promise.all([
    api.get<{ items: Array<{ id: string; name: string; ownerMemberId: string; development: boolean }> }>('/apps'),
    api.get<{ items: Array<{ id: string; appId: string; kind: string; status: string }> }>('/installs'),
  ]);
  const mine = new Map((apps.body?.items ?? []).filter((a) => a.development && a.ownerMemberId === me.member.id).map((a) => [a.id, a]));
  const dev = (installs.body?.items ?? []).filter((i) => i.kind === 'dev' && i.status === 'active' && mine.has(i.appId));
  const perInstall = await Promise.all(dev.map(async (i) => {
    const got = await api.v0.get<{ manifest: { blocks?: ManifestBlock[] } }>(`/apps/${encodeURIComponent(i.appId)}/manifest?target=preview`);
    const app = mine.get(i.appId)!;
    return (got.status === 200 ? got.body.manifest.blocks ?? [] : []).map((b) => ({
      installId: i.id, appId: app.id, appName: app.name, type: b.type, title: b.title,
      actions: (b.actions ?? []).map((a) => ({ name: a.name, destructive: a.hints?.destructive === true })),
    }));
  }));
  return perInstall.flat();
}

/** Conversations and chats of the circles the member belongs to (a dev install reaches no other). */
async function places(api: Api): Promise<Place[]> {
  const circles = await api.get<{ items: Array<{ id: string; name: string; chat: boolean; isMember: boolean }> }>('/circles');
  const joined = (circles.body?.items ?? []).filter((c) => c.isMember);
  const perCircle = await Promise.all(joined.map(async (circle) => {
    const convs = await api.get<{ items: Array<{ id: string; title: string }> }>(`/circles/${encodeURIComponent(circle.id)}/conversations`);
    const chat = circle.chat ? [{ value: `circle:${circle.id}`, label: `${circle.name} › chat`, href: `/console/circles/${circle.id}` }] : [];
    return [...(convs.body?.items ?? []).map((v) => ({ value: `conversation:${v.id}`, label: `${circle.name} › ${v.title}`, href: `/console/conversations/${v.id}` })), ...chat];
  }));
  return perCircle.flat();
}

export async function tryChoices(api: Api, me: Me): Promise<TryChoices> {
  const [blocks, where] = await Promise.all([devBlocks(api, me), places(api)]);
  return { blocks, places: where };
}

const option = (value: string, label: string, selected: boolean) => html`<option value="${value}"${raw(selected ? ' selected' : '')}>${label}</option>`;

/** The block type "Try" preselects: `appId`'s first, else the first of any dev install; none without one. */
export function preferredBlock(choices: TryChoices, appId: string | undefined): DevBlock | undefined {
  return choices.blocks.find((b) => b.appId === appId) ?? choices.blocks[0];
}

/** The "Try it" fields of the playground form, or how to get a dev install; `appId` preselects that app's first block type. */
export function tryFields(choices: TryChoices, input: TryInput, action: string, appId: string | undefined): Markup {
  const preferred = preferredBlock(choices, appId);
  if (preferred === undefined) {
    return html`<p class="muted">To try this tree's buttons against your app, run <code>platform dev</code>: it creates your development install, and its block types show here.</p>`;
  }
  const chosenValue = input.block !== '' ? input.block : `${preferred.installId} ${preferred.type}`;
  return html`<fieldset class="stack try"><legend>Try it against your development install</legend>
    <p class="muted">Posts the tree as a block where you choose; its buttons run your app's handler (through <code>platform dev</code>).</p>
    <label for="try-block">Development app and block type</label><select id="try-block" name="block">${choices.blocks.map((b) =>
      option(`${b.installId} ${b.type}`, `${b.appName} · ${b.title} (${b.type})`, `${b.installId} ${b.type}` === chosenValue))}</select>
    <label for="try-place">Post it in</label>${choices.places.length === 0 ? html`<p id="try-place" class="muted">Join a circle first: your development install reaches only circles you belong to.</p>`
      : html`<select id="try-place" name="place">${choices.places.map((p) => option(p.value, p.label, p.value === input.place))}</select>`}
    <details><summary>Props and state</summary><div class="stack">
      <p class="muted" id="try-defaults">A property you leave out starts at its schema's default, as a new block's does.</p>
      <label for="try-props">Props (JSON)</label><textarea id="try-props" name="props" rows="3" spellcheck="false" class="code" aria-describedby="try-defaults">${input.props}</textarea>
      <label for="try-state">First state (JSON)</label><textarea id="try-state" name="state" rows="3" spellcheck="false" class="code" aria-describedby="try-defaults">${input.state}</textarea></div></details>
    <button type="submit" formaction="${action}/try">Try</button></fieldset>`;
}

const parseObject = (text: string, what: string): Record<string, unknown> => {
  const value = JSON.parse(text.trim() === '' ? '{}' : text) as unknown;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
};

/** The first few problems of a refused try, as the API located them. */
function refusal(body: { message?: string; issues?: Array<{ path: Array<string | number>; message: string }> } | null, fallback: string): Markup {
  const issues = (body?.issues ?? []).slice(0, 5);
  return html`<div class="flash flash-danger" role="alert"><p>Not tried: ${body?.message ?? fallback}</p>${issues.length < 2 ? ''
    : html`<ul>${issues.map((i) => html`<li><code>${i.path.join(' › ') || '(root)'}</code>: ${i.message}</li>`)}</ul>`}</div>`;
}

/** Posts the tree as a block of the chosen dev install; answers the live card, or why it was refused. */
export async function tryTree(api: Api, choices: TryChoices, input: TryInput & { tree: unknown; actions: unknown }): Promise<{ ok: boolean; markup: Markup }> {
  const refused = (body: Parameters<typeof refusal>[0], fallback: string) => ({ ok: false, markup: refusal(body, fallback) });
  const [installId = '', type = ''] = input.block.split(' ');
  const place = choices.places.find((p) => p.value === input.place);
  if (!choices.blocks.some((b) => b.installId === installId && b.type === type) || place === undefined) {
    return refused(null, 'pick one of your development installs and a place you can post in.');
  }
  let props: Record<string, unknown>;
  let state: Record<string, unknown>;
  try {
    props = parseObject(input.props, 'Props');
    state = parseObject(input.state, 'The first state');
  } catch (err) {
    return refused({ message: (err as Error).message }, '');
  }
  const [kind, id] = place.value.split(':') as [string, string];
  const target = kind === 'conversation' ? { conversationId: id } : { circleId: id };
  const got = await api.post(`/installs/${encodeURIComponent(installId)}/playground-blocks`, {
    type, tree: input.tree, actions: input.actions ?? {}, props, state, target,
  });
  if (got.status !== 201) return refused(got.body, messageOf(got));
  const tried = got.body as { block: BlockView; props: unknown; state: unknown };
  return { ok: true, markup: html`<section aria-labelledby="tried" class="tried"><h2 id="tried">Live card</h2>
    <p class="muted">Posted in <a href="${place.href}">${place.label}</a>. Its buttons run your app's handler.</p>${raw(cardHtml(tried.block))}
    <p class="muted tried-data">Started with props <code>${JSON.stringify(tried.props)}</code> and state <code>${JSON.stringify(tried.state)}</code>.</p></section>` };
}
