/**
 * @module console/pages/usage
 * Usage over time in the console: the section the app overview and the operator page show (a
 * window and the charts of console/kit/usage-charts.ts), and the admin's usage page of one app
 * (`/console/admin/apps/{appId}/usage`: the workspace's installs of it, whoever wrote it), from the
 * usage API (`GET /v0/apps/{app_id}/usage`, `GET /client/v1/apps/{appId}/usage`,
 * `GET /client/v1/operator/usage`) with `last=` the window asked for.
 */
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { messageOf, type Answer } from '../kit/api.ts';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import { page, type Markup } from '../kit/layout.ts';
import { usageCharts, windowNav, windowOf, type UsagePoint, type UsageWindowName } from '../kit/usage-charts.ts';

type C = Context<ConsoleEnv>;

export interface UsageAnswer {
  step: string;
  points: UsagePoint[];
}

/** The window the page asks for, and the API's path with it. */
export const usageWindowOf = (c: C): UsageWindowName => windowOf(c.req.query('window'));

/**
 * A "Usage" section: the window links (each `href(window)`) and the charts, or why they cannot be
 * shown. `got` is the usage API's answer for `window`.
 */
export function usageSection(got: Answer<UsageAnswer>, window: UsageWindowName, href: (w: UsageWindowName) => string, scope = 'usage'): Markup {
  return html`<section aria-labelledby="${scope}-heading"><h2 id="${scope}-heading">Usage</h2>${windowNav(window, href)}
    ${got.status === 200 ? usageCharts(got.body.points, got.body.step, scope) : html`<p class="flash flash-danger">${messageOf(got)}</p>`}</section>`;
}

export function registerUsagePages(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/admin/apps/:appId/usage', async (c) => {
    const appId = c.req.param('appId');
    const window = usageWindowOf(c);
    const api = c.get('api');
    const [got, apps] = await Promise.all([
      api.get<UsageAnswer>(`/apps/${encodeURIComponent(appId)}/usage?last=${window}`),
      api.get<{ items: Array<{ id: string; name: string }> }>('/apps'),
    ]);
    const name = apps.body?.items?.find((a) => a.id === appId)?.name ?? appId;
    const body = html`<p><a href="/console/admin/apps">Back to the apps</a></p><p class="muted">What this workspace's installs of the app used.</p>
      ${usageSection(got, window, (w) => `/console/admin/apps/${encodeURIComponent(appId)}/usage?window=${w}`)}`;
    const status = got.status === 200 ? 200 : got.status === 403 ? 403 : got.status === 404 ? 404 : 422;
    return c.html(page(assets, { title: `Usage of ${name}`, section: 'apps', me: c.get('me'), body }), status);
  });
}
