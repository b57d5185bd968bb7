/**
 * The admin's Apps page shows how much data each app keeps in the workspace (its storage), in
 * Chromium, with axe finding no violation.
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
beforeAll(async () => {
  if (skip !== null) return;
  w = await startInboxWorld();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await w?.stop();
});

describe.skipIf(skip !== null)('data kept, on the admin\'s Apps page', () => {
  it('shows each app\'s bytes and keys, "none" for an app that keeps nothing', { timeout: 60_000 }, async () => {
    const keeper = await w.installApp([], 'Keeper');
    await w.installApp([], 'Quiet');
    const res = await (await keeper.api()).post('/storage/commit', { mutations: [{ type: 'set', key: 'ab', value: 'xy' }, { type: 'set', key: 'c', value: 1 }] });
    expect(res.status).toBe(200);
    const { context, page } = await signedIn(browser, { url: w.stack.url } as Platform, w.ws.apiKey);
    await page.goto(`${w.stack.url}/console/admin/apps`);
    await expect.poll(() => page.getByRole('row', { name: /Keeper/ }).getByRole('cell').nth(2).textContent()).toBe('8 B · 2 keys');
    expect(await page.getByRole('row', { name: /Quiet/ }).getByRole('cell').nth(2).textContent()).toBe('none');
    expect(await page.getByRole('columnheader', { name: 'Data kept' }).count()).toBe(1);
    await expectAccessible(page);
    await context.close();
  });
});
