/**
 * @module console/kit/layout
 * The page frame: a skip link, the navigation of the page families, who is signed in, the page's
 * heading and main region. Server-rendered with `hono/html` (every interpolation escaped); the
 * block renderer's output, already escaped, is passed in with `raw`.
 */
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Assets } from './assets.ts';

export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface Me {
  member: { id: string; name: string; role: string };
  workspace: { id: string; name: string };
}

export interface PageInput {
  title: string;
  /** Which navigation entry is current. */
  section: 'circles' | 'inbox' | 'memories' | 'search' | 'streams' | 'apps' | 'author' | 'operator' | 'none';
  me: Me | null;
  body: Markup;
  /** Shown above the content: the outcome of the last form post. */
  flash?: { tone: 'success' | 'danger' | 'info'; text: string } | null;
}

const NAV: Array<[PageInput['section'], string, string]> = [
  ['circles', '/console', 'Circles'],
  ['inbox', '/console/inbox', 'Inbox'],
  ['memories', '/console/memories', 'Memories'],
  ['search', '/console/search', 'Search'],
  ['streams', '/console/streams', 'App streams'],
  ['author', '/console/apps', 'My apps'],
  ['apps', '/console/admin/apps', 'Apps'],
  ['operator', '/console/operator', 'Operator'],
];

/** Entries only owners and admins can use (the API refuses the others anyway). */
const ADMIN_ONLY = new Set<PageInput['section']>(['operator']);

function nav(current: PageInput['section'], role: string): Markup {
  const admin = role === 'owner' || role === 'admin';
  return html`<nav aria-label="Console"><ul class="nav">${NAV.filter(([key]) => admin || !ADMIN_ONLY.has(key)).map(([key, href, label]) =>
    html`<li><a href="${href}"${raw(key === current ? ' aria-current="page"' : '')}>${label}</a></li>`)}</ul></nav>`;
}

/** A whole page. */
export function page(assets: Assets, p: PageInput): Markup {
  const who = p.me === null ? '' : html`<div class="who"><span>${p.me.member.name} · ${p.me.workspace.name}</span>
    <form method="post" action="/console/sign-out"><button type="submit" class="link-button">Sign out</button></form></div>`;
  const flash = p.flash == null ? '' : html`<p class="flash flash-${p.flash.tone}" role="${p.flash.tone === 'danger' ? 'alert' : 'status'}">${p.flash.text}</p>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>${p.title} · Platform console</title><link rel="stylesheet" href="${assets.css}"></head>
<body><a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/console">Platform</a>${p.me === null ? '' : nav(p.section, p.me.member.role)}${who}</header>
<main id="main" tabindex="-1"><h1>${p.title}</h1>${flash}${p.body}</main>
${assets.js === null ? '' : html`<script src="${assets.js}" defer></script>`}
</body></html>`;
}
