/**
 * The Log drains page of a hosted app in a real browser against `npm start`, with a loopback
 * receiver as the drain: adding one shows its signing secret once (and never again), a test batch
 * arrives verified by that secret, a URL drains may not have is answered beside its field, rotating
 * shows the new secret, removing asks first. Each state is checked by axe-core.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '@platform/sdk';
import { browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import { startPlatform, type Platform } from '../helpers/npm-start.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { apiCalls, expectAccessible, signedIn } from './helpers.ts';

const skip = browserSkipReason();
if (skip !== null) console.warn(`console log drains browser tests skipped: ${skip}`);

let platform: Platform;
let browser: Browser;
let page: Page;
let receiver: Receiver;
let appId: string;
let secret: string;

describe.skipIf(skip !== null)('the Log drains page in chromium', () => {
  beforeAll(async () => {
    platform = await startPlatform();
    receiver = await startReceiver({ path: '/drain' });
    const owner = apiCalls(platform);
    appId = (await owner('POST', '/client/v1/apps', { name: 'Drained notes', slug: 'drained-notes', hosting: 'platform' })).app.id as string;
    browser = await launchBrowser();
    page = (await signedIn(browser, platform, platform.credentials.owner.apiKey)).page;
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await platform?.stop();
  });

  it('says what a drain is before there is one, from the app\'s navigation', async () => {
    await page.goto(`${platform.url}/console/apps/${appId}`);
    await page.getByRole('link', { name: 'Log drains' }).click();
    await page.waitForURL(/\/log-drains$/);
    await expect(page.locator('main').textContent()).resolves.toContain('No log drains yet.');
    await expectAccessible(page);
  });

  it('answers a private address beside the field', async () => {
    await page.getByLabel('Endpoint URL (https://)').fill('https://10.0.0.8/in');
    await page.getByRole('button', { name: 'Add drain' }).click();
    await expect(page.locator('#drain-url-error').textContent()).resolves.toContain('is private');
    expect(await page.getByLabel('Endpoint URL (https://)').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
  });

  it('adds a drain and shows its secret once; a test batch arrives signed with it', async () => {
    await page.getByLabel('Endpoint URL (https://)').fill(receiver.url);
    await page.getByRole('button', { name: 'Add drain' }).click();
    secret = (await page.locator('#new-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    expect(await page.getByRole('table', { name: 'Log drains' }).textContent()).toContain('nothing delivered yet');
    await expectAccessible(page);

    await page.getByRole('button', { name: `Send a test batch to ${receiver.url}` }).click();
    await expect(page.locator('.flash').textContent()).resolves.toMatch(/Test batch delivered \(HTTP 204, \d+ ms\)/);
    const batch = receiver.requests.at(-1)!;
    expect(batch.envelope).toMatchObject({ type: 'app.logs', appId, test: true });
    expect(await verifyDelivery({ headers: batch.headers as Record<string, string>, body: batch.body, secret })).toMatchObject({ ok: true });
    expect(await page.content()).not.toContain(secret);
    await expectAccessible(page);
  });

  it('rotates the secret behind a confirm and removes the drain behind another', async () => {
    await page.getByRole('button', { name: `Rotate secret ${receiver.url}` }).click();
    await page.getByRole('dialog', { name: `Rotate the signing secret of ${receiver.url}?` }).getByRole('button', { name: 'Rotate' }).click();
    const fresh = (await page.locator('#new-secret').textContent())!;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    await expect(page.locator('main').textContent()).resolves.toContain('batches carry a second signature made with the previous secret');
    await expectAccessible(page);

    await page.goto(`${platform.url}/console/apps/${appId}/log-drains`);
    await page.getByRole('button', { name: `Remove ${receiver.url}` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove the drain to ${receiver.url}?` });
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page.waitForURL(/done=removed/);
    await expect(page.locator('main').textContent()).resolves.toContain('No log drains yet.');
  });
});
