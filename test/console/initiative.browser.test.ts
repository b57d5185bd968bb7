/**
 * The Schedules and queues page of an app in a real browser against `npm start`: a self-hosted app
 * with a schedule and a queue, installed in the workspace; its schedule is listed with its next
 * firing, its queue with the message waiting (delayed a day), through the tooling endpoints the
 * page reads. The page is reached from the app's navigation and checked by axe-core. Another
 * member gets the API's refusal.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import { startPlatform, type Platform } from '../helpers/npm-start.ts';
import { apiCalls, expectAccessible, installedSelfHostedApp, signedIn } from './helpers.ts';

const skip = browserSkipReason();
if (skip !== null) console.warn(`console schedules and queues browser tests skipped: ${skip}`);

let platform: Platform;
let browser: Browser;
let page: Page;
let appId: string;
let installId: string;

const endpoint = { url: 'https://clock.example.net/platform' };
const manifest = {
  schemaVersion: 1, name: 'Clock', slug: 'console-clock', hosting: 'self', endpoint, scopes: [], events: [],
  schedules: [{ name: 'standup', cron: '0 9 * * MON-FRI', timeZone: 'Europe/Berlin' }], queue: { maxAttempts: 3 },
};

describe.skipIf(skip !== null)('the Schedules and queues page in chromium', () => {
  beforeAll(async () => {
    platform = await startPlatform();
    const owner = apiCalls(platform);
    ({ appId, installId } = await installedSelfHostedApp(owner, manifest));
    // The schedule loop reads the install's schedules within its poll interval (1 s).
    for (let i = 0; i < 100; i++) {
      if ((await owner('GET', `/v0/apps/${appId}/schedules`)).items.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await owner('POST', `/v0/apps/${appId}/queue/messages`, { installId, messages: [{ body: { remind: 'tomorrow' }, delaySeconds: 86_400 }] });
    browser = await launchBrowser();
    page = (await signedIn(browser, platform, platform.credentials.owner.apiKey)).page;
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('lists the schedule with its next firing and the queue with its waiting message, accessibly', async () => {
    await page.goto(`${platform.url}/console/apps/${appId}`);
    await page.getByRole('link', { name: 'Schedules and queues' }).click();
    await page.waitForURL(/\/schedules$/);
    const schedules = page.getByRole('table', { name: 'Schedules' });
    const row = schedules.getByRole('row', { name: /standup/ });
    await expect(row.textContent()).resolves.toContain('0 9 * * MON-FRI Europe/Berlin');
    await expect(row.textContent()).resolves.toContain(installId);
    await expect(row.textContent()).resolves.toContain('none yet');
    expect(await row.locator('time').count()).toBe(1);
    const queues = page.getByRole('table', { name: 'Queues' });
    const cells = await queues.getByRole('row', { name: new RegExp(installId) }).getByRole('cell').allTextContents();
    expect(cells).toEqual(['1', expect.stringMatching(/^\d+ s$/), '0']);
    expect(await page.locator('nav a[aria-current="page"]').allTextContents()).toContain('Schedules and queues');
    await expectAccessible(page);
  });

  it('answers another member with the API\'s refusal', async () => {
    const other = await signedIn(browser, platform, platform.credentials.member.apiKey);
    const res = await other.page.goto(`${platform.url}/console/apps/${appId}/schedules`);
    expect(res?.status()).toBe(404);
    await expectAccessible(other.page);
    await other.context.close();
  });
});
