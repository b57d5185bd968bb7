/**
 * Storage in the console, in Chromium with axe finding no violation: the admin's Apps page shows how
 * much data each app keeps in the workspace; the author's Storage page lists an install's keys,
 * values and sizes, filters by prefix and deletes.
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

describe.skipIf(skip !== null)('storage in the console', () => {
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

  it('the author browses an install\'s keys, values and sizes, and deletes one', { timeout: 60_000 }, async () => {
    const app = await w.installApp([], 'Browsed');
    await (await app.api()).post('/storage/commit', { mutations: [{ type: 'set', key: 'notes/a', value: { n: 1 } }, { type: 'set', key: 'notes/b', value: 'two' }, { type: 'set', key: 'other', value: true }] });
    const { context, page } = await signedIn(browser, { url: w.stack.url } as Platform, w.ws.apiKey);
    await page.goto(`${w.stack.url}/console/apps/${app.appId}/storage?install=workspace`);
    const row = (key: string) => page.locator(`tr[data-storage-key="${key}"]`);
    expect(await row('notes/a').getByRole('cell').first().textContent()).toBe('{"n":1}');
    expect(await row('notes/a').getByRole('cell').nth(1).textContent()).toBe('14 B');
    await expectAccessible(page);
    await page.getByLabel('Keys starting with').fill('notes/');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('tr[data-storage-key]').count()).toBe(2);
    await row('notes/b').getByRole('link', { name: /Delete/ }).or(row('notes/b').getByRole('button', { name: /Delete/ })).first().click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(/done=deleted/);
    expect(await page.locator('tr[data-storage-key="notes/b"]').count()).toBe(0);
    expect((await (await app.api()).post('/storage/get', { keys: ['notes/b'] })).body.entries[0].value).toBeNull();
    await expectAccessible(page);
    await context.close();
  });
});
