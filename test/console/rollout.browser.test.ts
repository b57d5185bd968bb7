/**
 * The Rollout page of an app in a real browser against `npm start`: before any rollout it says how
 * to start one; a production version rolled out to 50 % (the workspace's one install moves) shows
 * the share, the installs by version and both sides' figures; the page advances it and aborts it
 * behind a confirm (the install back on version 1), each state checked by axe-core.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import { startPlatform, type Platform } from '../helpers/npm-start.ts';
import { apiCalls, expectAccessible, installedSelfHostedApp, signedIn } from './helpers.ts';

const skip = browserSkipReason();
if (skip !== null) console.warn(`console rollout browser tests skipped: ${skip}`);

let platform: Platform;
let browser: Browser;
let page: Page;
let appId: string;
let installId: string;
let owner: ReturnType<typeof apiCalls>;

const endpoint = { url: 'https://notes.example.net/platform' };
const manifest = (name: string) => ({ schemaVersion: 1, name, slug: 'console-notes', hosting: 'self', endpoint, scopes: [], events: [] });

describe.skipIf(skip !== null)('the Rollout page in chromium', () => {
  beforeAll(async () => {
    platform = await startPlatform();
    owner = apiCalls(platform);
    ({ appId, installId } = await installedSelfHostedApp(owner, manifest('Notes')));
    browser = await launchBrowser();
    page = (await signedIn(browser, platform, platform.credentials.owner.apiKey)).page;
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('says how to start a rollout before there is one', async () => {
    await page.goto(`${platform.url}/console/apps/${appId}`);
    await page.getByRole('link', { name: 'Rollout' }).click();
    await page.waitForURL(/\/rollout$/);
    await expect(page.locator('main').textContent()).resolves.toContain('npx platform deploy --production --rollout 10');
    expect(await page.locator('nav a[aria-current="page"]').allTextContents()).toContain('Rollout');
    await expectAccessible(page);
  });

  it('shows a running rollout with the installs by version and both sides, accessibly', async () => {
    const version = await owner('PUT', `/v0/apps/${appId}/manifest?rollout=50`, { target: 'production', manifest: manifest('Notes two') });
    expect(version.version).toBe(2);
    await page.goto(`${platform.url}/console/apps/${appId}/rollout`);
    await expect(page.locator('.flash').textContent()).resolves.toContain('Version 2 is rolling out to 50 % of the installs.');
    const byVersion = page.getByRole('table', { name: 'Installs by version' });
    expect(await byVersion.getByRole('row').allTextContents()).toEqual(['VersionInstalls', 'v21']);
    const sides = page.getByRole('table', { name: 'Requests and deliveries since it started' });
    expect(await sides.getByRole('row', { name: /New/ }).getByRole('cell').allTextContents()).toEqual(['0', '0', '—']);
    await expect(page.locator('main').textContent()).resolves.toContain('The platform judges once the new version has 20 outcomes.');
    await expectAccessible(page);
  });

  it('advances it, then aborts it behind a confirm: the install runs version 1 again', async () => {
    await page.getByLabel('Share (%)').fill('100');
    await page.getByRole('button', { name: 'Advance' }).click();
    await page.waitForURL(/\/rollout$/);
    await expect(page.locator('main').textContent()).resolves.toContain('Version 2 is rolling out to 100 % of the installs.');
    await page.getByRole('button', { name: 'Abort' }).click();
    const dialog = page.getByRole('dialog', { name: 'Abort the rollout of version 2?' });
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Abort the rollout' }).click();
    await page.waitForURL(/\/rollout$/);
    await expect(page.locator('main').textContent()).resolves.toContain('The rollout of version 2 was aborted by the author: Aborted by the author');
    expect(await page.getByRole('button', { name: 'Advance' }).count()).toBe(0);
    expect((await owner('GET', `/client/v1/installs/${installId}`)).install.version).toBe(1);
    await expectAccessible(page);
  });
});
