/**
 * Usage charts in the console, in Chromium with axe finding no violation: the author's app overview,
 * the operator page and the admin's usage page of an app draw each figure as an SVG chart named by
 * its total, with a table of its buckets beside it, over the window chosen (1 h, 24 h, 7 d, 90 d).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import type { Platform } from '../helpers/npm-start.ts';
import { startInboxWorld, type InboxWorld } from '../control-plane/notifications/setup.ts';
import { expectAccessible, signedIn } from './helpers.ts';

const skip = browserSkipReason();
let w: InboxWorld;
let browser: Browser;
let appId: string;
beforeAll(async () => {
  if (skip !== null) return;
  w = await startInboxWorld();
  browser = await launchBrowser();
  const app = await w.installApp([], 'Metered');
  appId = app.appId;
  const api = await app.api();
  for (let i = 0; i < 3; i++) expect((await api.post('/storage/commit', { mutations: [{ type: 'set', key: `k${i}`, value: i }] })).status).toBe(200);
  for (let i = 0; i < 2; i++) expect((await api.post('/storage/get', { keys: ['k0'] })).status).toBe(200);
  await w.stack.controlPlane.apps.usageRecorder.flush();
  await w.stack.controlPlane.apps.usageLoop.tick();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await w?.stop();
});

describe.skipIf(skip !== null)('usage charts in the console', () => {
  it('draws the app\'s usage on its overview, with a table for each chart, in each window', { timeout: 60_000 }, async () => {
    const { context, page } = await signedIn(browser, { url: w.stack.url } as Platform, w.ws.apiKey);
    await page.goto(`${w.stack.url}/console/apps/${appId}?window=1h`);
    const chart = page.locator('figure[data-chart="storage-ops"]');
    expect(await chart.getByRole('img').getAttribute('aria-label')).toBe('Storage operations: total 5, peak 5 in one bucket');
    expect(await chart.locator('rect.usage-bar').count()).toBe(1);
    await chart.getByText('Storage operations as a table').click();
    expect(await chart.getByRole('row').nth(1).getByRole('cell').nth(1).textContent()).toBe('5');
    expect(await page.getByRole('link', { name: '1 hour' }).getAttribute('aria-current')).toBe('true');
    await expectAccessible(page);
    await page.getByRole('link', { name: '90 days' }).click();
    await page.waitForURL(/window=90d/);
    expect(await page.locator('figure[data-chart="storage-ops"]').getByRole('img').getAttribute('aria-label')).toBe('Storage operations: total 5, peak 5 in one bucket');
    expect(await page.getByText('Per hour, times in UTC.').count()).toBe(1);
    await expectAccessible(page);
    await context.close();
  });

  it('shows the operator every app summed, and an admin the workspace\'s installs of one app', { timeout: 60_000 }, async () => {
    const { context, page } = await signedIn(browser, { url: w.stack.url } as Platform, w.ws.apiKey);
    await page.goto(`${w.stack.url}/console/operator?window=24h`);
    expect(await page.locator('figure[data-chart="storage-ops"]').getByRole('img').getAttribute('aria-label')).toBe('Storage operations: total 5, peak 5 in one bucket');
    await expectAccessible(page);
    await page.goto(`${w.stack.url}/console/admin/apps`);
    await page.getByRole('link', { name: 'Usage of Metered' }).click();
    await page.waitForURL(/\/usage$/);
    const kept = page.locator('figure[data-chart="storage"]');
    expect(await kept.getByRole('img').getAttribute('aria-label')).toMatch(/^Storage kept: latest \d+(\.\d)? (B|KB), peak/);
    await expectAccessible(page);
    await context.close();
  });
});
