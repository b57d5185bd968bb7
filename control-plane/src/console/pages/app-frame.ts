/**
 * @module console/pages/app-frame
 * What every page of one app shares: the app read from the client API (`GET /apps/{appId}`, which
 * answers only apps the member manages), the navigation between the app's pages, and the page
 * around them. A refusal of the API (another member's app, no such app) is the page's answer.
 */
import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { messageOf, type Answer } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page, type Markup } from '../kit/layout.ts';

export type C = Context<ConsoleEnv>;

/** An app as `GET /client/v1/apps/{appId}` answers it (the fields the pages show). */
export interface AuthorApp {
  id: string; slug: string; name: string; hosting: 'self' | 'platform'; development: boolean; private: boolean;
  endpoint: { url: string } | null; clientId: string; createdAt: string;
}

export type AppPageKey = 'overview' | 'versions' | 'env' | 'storage' | 'domains' | 'credentials' | 'deliveries' | 'initiative' | 'logs' | 'errors' | 'drains' | 'rollout' | 'playground';

const PAGES: Array<[AppPageKey, string, string]> = [
  ['overview', '', 'Overview'],
  ['versions', '/versions', 'Versions'],
  ['env', '/env', 'Environment'],
  ['storage', '/storage', 'Storage'],
  ['domains', '/domains', 'Domains'],
  ['credentials', '/credentials', 'Credentials'],
  ['deliveries', '/deliveries', 'Deliveries'],
  ['initiative', '/schedules', 'Schedules and queues'],
  ['logs', '/logs', 'Logs'],
  ['errors', '/errors', 'Errors'],
  ['drains', '/log-drains', 'Log drains'],
  ['rollout', '/rollout', 'Rollout'],
  ['playground', '/playground', 'Playground'],
];

export const appPath = (appId: string, rest = ''): string => `/console/apps/${encodeURIComponent(appId)}${rest}`;

/** The app's pages; Logs and Log drains only for hosted apps (self-hosted apps log on their own servers). */
export function appNav(app: AuthorApp, current: AppPageKey): Markup {
  const shown = PAGES.filter(([key]) => (key !== 'logs' && key !== 'drains') || app.hosting === 'platform');
  return html`<nav aria-label="Pages of ${app.name}"><ul class="subnav">${shown.map(([key, rest, label]) =>
    html`<li><a href="${appPath(app.id, rest)}"${raw(key === current ? ' aria-current="page"' : '')}>${label}</a></li>`)}</ul></nav>`;
}

export async function loadApp(c: C): Promise<Answer<{ app: AuthorApp }>> {
  return c.get('api').get<{ app: AuthorApp }>(`/apps/${encodeURIComponent(c.req.param('appId') ?? '')}`);
}

export interface AppPageInput {
  title: string;
  current: AppPageKey;
  body: Markup;
  flash?: { tone: 'success' | 'danger' | 'info'; text: string } | null;
  status?: ContentfulStatusCode;
}

/** One page of the app: its navigation above the body. */
export function appPage(c: C, assets: Assets, app: AuthorApp, p: AppPageInput) {
  const body = html`${appNav(app, p.current)}${p.body}`;
  return c.html(page(assets, { title: p.title, section: 'author', me: c.get('me'), body, flash: p.flash ?? null }), p.status ?? 200);
}

/** The API would not show the app: its refusal, as the page. */
export function appRefused(c: C, assets: Assets, got: Answer, title: string) {
  return c.html(page(assets, { title, section: 'author', me: c.get('me'), body: html`<p><a href="/console/apps">Your apps</a></p>`, flash: { tone: 'danger', text: messageOf(got) } }), statusOf(got));
}

/** The status a page answers for a refused call: the API's own (a 4xx stays a 4xx), else 502. */
export const statusOf = (a: Answer): ContentfulStatusCode => (a.status >= 400 && a.status < 600 ? a.status as ContentfulStatusCode : 502);
