/**
 * The Logs and operator pages in a real browser against `npm start` (one runtime node shipping its
 * lines to the control plane): a hosted app built with the SDK as `platform deploy` builds it
 * (minified, its source map beside it) and uploaded with its map through the tooling endpoint, a
 * route that logs and throws, and the line and its error appearing on the open page without a
 * reload, collapsed, every frame naming the app's file, line and function once opened; a request stopped at its CPU budget twice gives a line whose CPU profile
 * downloads through the console. The operator page shows the app's figures from the processes'
 * metrics, moving after hosted requests, to the owner and to no plain member. Each page is
 * checked by axe-core.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle } from '../../cli/src/bundle.ts';
import { uploadBody } from '../../cli/src/upload-body.ts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import { startPlatform, type Platform } from '../helpers/npm-start.ts';
import { EVENTUALLY, signedIn } from './helpers.ts';

const skip = browserSkipReason();
if (skip !== null) console.warn(`console author and operator browser tests skipped: ${skip}`);

let platform: Platform;
let browser: Browser;
let page: Page;
let appId: string;

async function owner(method: string, path: string, init: { json?: unknown; upload?: { bytes: Uint8Array; contentType: string } } = {}): Promise<any> {
  const headers: Record<string, string> = { authorization: `Bearer ${platform.credentials.owner.apiKey}` };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (init.upload !== undefined) headers['content-type'] = init.upload.contentType;
  const sent = init.json !== undefined ? JSON.stringify(init.json) : init.upload?.bytes;
  const res = await fetch(`${platform.url}${path}`, { method, headers, ...(sent === undefined ? {} : { body: sent as RequestInit['body'] }) });
  const body = await res.json() as unknown;
  expect(res.status, JSON.stringify(body)).toBeLessThan(300);
  return body;
}

/**
 * The app of the logs end-to-end test (`/boom` throws from a named function at line 7 of
 * logs-app.ts, `/spin` runs past its CPU budget), built and uploaded with its map as `platform deploy` does.
 */
async function deployLogsApp(): Promise<string> {
  const created = await owner('POST', '/client/v1/apps', { json: { name: 'Logs end to end', slug: 'e2e-logs', hosting: 'platform' } });
  const out = await mkdtemp(join(tmpdir(), 'console-logs-'));
  try {
    const bundle = await buildBundle({ entry: 'logs-app.ts', cwd: fileURLToPath(new URL('../fixtures/e2e/', import.meta.url)), outfile: join(out, 'bundle.js') });
    await owner('POST', `/v0/apps/${created.app.id}/versions?target=production`, { upload: uploadBody(bundle.code, bundle.sourceMap) });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
  return created.app.id as string;
}

const route = (path: string) => fetch(`${platform.runtimeUrl}/apps/e2e-logs${path}`);

describe.skipIf(skip !== null)('the Logs and operator pages in chromium', () => {
  beforeAll(async () => {
    platform = await startPlatform();
    appId = await deployLogsApp();
    browser = await launchBrowser();
    const context = await browser.newContext({ bypassCSP: true, acceptDownloads: true, viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    context.setDefaultTimeout(15_000);
    await page.goto(platform.consoleLink);
    await page.waitForURL(/\/console\/conversations\//);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('my apps links a hosted app\'s logs; a route that logs and throws shows its line and stack live, without a reload', { timeout: 60_000 }, async () => {
    await page.goto(`${platform.url}/console/apps`);
    await page.getByRole('link', { name: 'Logs of Logs end to end' }).click();
    await page.waitForURL(new RegExp(`/console/apps/${appId}/logs$`));
    // In the app's frame: its name, and its pages with Logs marked.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Logs of Logs end to end');
    const tabs = page.getByRole('navigation', { name: 'Pages of Logs end to end' });
    expect(await tabs.locator('[aria-current="page"]').textContent()).toBe('Logs');
    expect(await tabs.getByRole('link', { name: 'Deliveries' }).getAttribute('href')).toBe(`/console/apps/${appId}/deliveries`);
    await expect.poll(() => page.locator('#log-follow').textContent(), EVENTUALLY).toBe('Following: new lines appear at the top.');
    await page.evaluate(() => { (globalThis as any).document.body.dataset.loadedOnce = 'yes'; });

    expect((await route('/boom')).status).toBe(500);
    const thrown = page.locator('.log-line', { hasText: 'the boom route failed on purpose' });
    await thrown.waitFor();
    expect(await thrown.locator('.badge-danger').textContent()).toBe('error · error');
    // The request as it came in, and the error beside it: collapsed, then every frame, the app's own file first.
    expect(await thrown.locator('.log-message').textContent()).toBe('Request failed: GET /apps/e2e-logs/boom');
    const error = thrown.locator('details.log-error');
    expect(await error.getAttribute('open')).toBeNull();
    expect(await error.locator('summary').textContent()).toMatch(/^Error: the boom route failed on purpose · \d+ frames$/);
    expect(await error.locator('.log-frames li').first().isVisible()).toBe(false);
    await error.locator('summary').click();
    const frames = error.locator('.log-frames li');
    expect(await frames.first().locator('code').textContent()).toMatch(/^at explodeForTheLogs \(logs-app\.ts:7:\d+\)$/);
    expect(await frames.first().textContent()).toMatch(/bundle app:\/\/\/bundle\.js:\d+:\d+/);
    const count = Number(/(\d+) frames/.exec((await error.locator('summary').textContent())!)![1]);
    expect(await frames.count()).toBe(count);
    expect(await frames.last().isVisible()).toBe(true);
    await page.locator('.log-line', { hasText: 'GET /apps/e2e-logs/boom → 500' }).waitFor();
    // The same document: the lines came over the stream, not by reloading.
    expect(await page.evaluate(() => (globalThis as any).document.body.dataset.loadedOnce)).toBe('yes');
    expect(await axeViolations(page)).toEqual([]);

    // Reloaded, the stored lines are drawn by the server the same way; the status filter keeps them.
    await page.goto(`${platform.url}/console/apps/${appId}/logs?status=error`);
    const stored = page.locator('.log-line', { hasText: 'the boom route failed on purpose' }).locator('details.log-error');
    await stored.locator('summary').click();
    expect(await stored.locator('.log-frames li code').first().textContent()).toMatch(/^at explodeForTheLogs \(logs-app\.ts:7:\d+\)$/);
    expect(await page.locator('.log-status-ok').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a request stopped at its CPU budget after another was has its CPU profile downloaded through the console', { timeout: 60_000 }, async () => {
    expect((await route('/spin')).status).toBe(503);
    expect((await route('/spin')).status).toBe(503);
    await page.goto(`${platform.url}/console/apps/${appId}/logs?status=error`);
    const link = page.getByRole('link', { name: /^CPU profile/ }).first();
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${appId}-\\d+\\.cpuprofile$`));
    const profile = JSON.parse(await readFile((await download.path())!, 'utf8')) as { samples: number[] };
    expect(profile.samples.length).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the Errors page groups the thrown route and the CPU stops, with where in logs-app.ts; a group\'s page lists its examples with their frames (issue 25 item 3)', { timeout: 60_000 }, async () => {
    await page.goto(`${platform.url}/console/apps/${appId}/logs`);
    await page.getByRole('navigation', { name: 'Pages of Logs end to end' }).getByRole('link', { name: 'Errors' }).click();
    await page.waitForURL(new RegExp(`/console/apps/${appId}/errors$`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Errors of Logs end to end');
    const thrown = page.locator('tr', { hasText: 'the boom route failed on purpose' });
    await thrown.waitFor();
    expect(await thrown.locator('code').textContent()).toBe('at explodeForTheLogs (logs-app.ts:7)');
    expect(await page.locator('tr', { hasText: 'PlatformRuntimeCpuLimitError' }).count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.selectOption('#e-level', 'limit');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/level=limit/);
    expect(await page.locator('tbody tr', { hasText: 'the boom route failed on purpose' }).count()).toBe(0);

    await page.goto(`${platform.url}/console/apps/${appId}/errors`);
    await page.getByRole('link', { name: /the boom route failed on purpose/ }).click();
    await page.waitForURL(new RegExp(`/console/apps/${appId}/errors/[0-9a-f]{32}$`));
    const first = page.locator('ol.examples > li').first();
    expect(await first.locator('.log-frames li code').first().textContent()).toMatch(/^at explodeForTheLogs \(logs-app\.ts:7:\d+\)$/);
    expect(await first.getByRole('link', { name: /^line \d+$/ }).getAttribute('href')).toMatch(new RegExp(`/console/apps/${appId}/logs\\?version=\\d+&status=error`));
    expect(await axeViolations(page)).toEqual([]);

    const missing = await page.goto(`${platform.url}/console/apps/${appId}/errors/${'0'.repeat(32)}`);
    expect(missing?.status()).toBe(404);
    expect(await page.getByRole('alert').textContent()).toContain('No such error group');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the Logs page of an app the member cannot manage is the API\'s refusal, as the app\'s other pages are', async () => {
    const res = await page.goto(`${platform.url}/console/apps/app_nope/logs`);
    expect(res?.status()).toBe(404);
    expect(await page.locator('.flash-danger').textContent()).toMatch(/^No such app/);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the stream and profile routes pass the API\'s refusal on for an app the member cannot manage', async () => {
    for (const path of ['logs/stream', 'logs/1/profile']) {
      const res = await page.request.get(`${platform.url}/console/apps/app_nope/${path}`);
      expect(res.status()).toBe(404);
      expect(((await res.json()) as { _tag: string })._tag).toBe('PlatformAppNotFoundError');
    }
  });

  it('the operator page shows each app\'s figures, which move after hosted requests', { timeout: 60_000 }, async () => {
    await page.goto(`${platform.url}/console`);
    await page.getByRole('link', { name: 'Operator' }).click();
    await page.waitForURL(/\/console\/operator$/);
    const row = page.locator('tr[data-app="e2e-logs"]');
    const errors = async () => Number(await row.locator('.count-danger', { hasText: 'error' }).locator('strong').textContent());
    const before = await errors();
    expect(before).toBeGreaterThanOrEqual(1);
    expect(await row.locator('td').nth(0).textContent()).toMatch(/ms$/);
    expect(await page.locator('tr[data-app="deploy-desk"]').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    expect((await route('/boom')).status).toBe(500);
    await page.reload();
    expect(await errors()).toBe(before + 1);
  });

  it('a plain member has no operator entry, and the page refuses them', async () => {
    // Signed in through the form, waiting until the page has left the sign-in page: a wait for any
    // /console URL passed at once (the sign-in page is one) and raced the form's own navigation.
    const { context: other, page: max } = await signedIn(browser, platform, platform.credentials.member.apiKey);
    expect(await max.getByRole('link', { name: 'Operator' }).count()).toBe(0);
    const res = await max.goto(`${platform.url}/console/operator`);
    expect(res?.status()).toBe(403);
    expect(await max.locator('.flash-danger').textContent()).toContain('Only workspace owners and admins');
    expect(await axeViolations(max)).toEqual([]);
    await other.close();
  });
});
