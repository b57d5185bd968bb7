/**
 * The playground's "Try" in a real browser against `npm start`: the owner runs a self-hosted app
 * the way `platform dev` does (served on loopback, synced as their development app, deliveries
 * through the relay: test/fixtures/playground/dev-app.ts), pastes a tree into the app's
 * playground, tries it in the welcome conversation, and clicks its button: the app's own handler
 * answers and the live card changes in place (and in the conversation). A tree naming an action
 * the block type lacks is refused with the API's reason.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTree, ui } from '@platform/sdk';
import { browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import { startPlatform, type Platform } from '../helpers/npm-start.ts';
import { startPlaygroundDevApp, type PlaygroundDevApp } from '../fixtures/playground/dev-app.ts';
import { cardByTitle, expectAccessible, signedIn } from './helpers.ts';

const skip = browserSkipReason();
if (skip !== null) console.warn(`console playground browser tests skipped: ${skip}`);

let platform: Platform;
let browser: Browser;
let page: Page;
let devApp: PlaygroundDevApp | undefined;

const TRY = renderTree(ui.block({ summary: 'Try me' }, [ui.header({ title: 'Try me' }), ui.actions([ui.button({ label: 'Bump it', action: 'bump' })])]));

/** Pastes a tree and its table into the playground, picks the welcome conversation and presses Try. */
async function tryInPlayground(tree: unknown, actions: unknown): Promise<void> {
  await page.goto(`${platform.url}/console/apps/${devApp!.appId}/playground`);
  await page.getByLabel('Tree (catalog 1 JSON)').fill(JSON.stringify(tree, null, 2));
  await page.getByLabel('Action table (optional)').fill(JSON.stringify(actions, null, 2));
  expect(await page.getByLabel('Development app and block type').inputValue()).toBe(`${devApp!.installId} ticket`);
  await page.getByLabel('Post it in').selectOption(`conversation:${platform.credentials.conversationId}`);
  await page.getByRole('button', { name: 'Try', exact: true }).click();
}

describe.skipIf(skip !== null)('the playground tries a tree against a development install', () => {
  beforeAll(async () => {
    platform = await startPlatform();
    devApp = await startPlaygroundDevApp({ baseUrl: platform.url, apiKey: platform.credentials.owner.apiKey });
    browser = await launchBrowser();
    ({ page } = await signedIn(browser, platform, platform.credentials.owner.apiKey));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await devApp?.stop();
    await platform?.stop();
  });

  it('posts the pasted tree as a live card; its button is answered by the app\'s handler and the card changes', async () => {
    await tryInPlayground(TRY.tree, TRY.actions);
    const tried = page.locator('.tried');
    await tried.waitFor();
    expect(await tried.getByRole('link', { name: /Welcome to the platform/ }).getAttribute('href')).toBe(`/console/conversations/${platform.credentials.conversationId}`);
    const live = cardByTitle(page, 'Try me').and(tried.locator('[data-card]'));
    expect(await live.locator('.card-app').textContent()).toBe('Ticket desk');
    await expectAccessible(page);

    await live.getByRole('button', { name: 'Bump it' }).click();
    const bumped = tried.locator('[data-card]', { has: page.getByRole('heading', { name: 'Bumped 1 times by Ada Owner' }) });
    await bumped.waitFor();
    expect(await bumped.getByRole('status').textContent()).toBe('Bumped');
    expect(devApp!.actions).toHaveLength(1);
    expect(devApp!.actions[0]).toMatchObject({ data: { block: { type: 'ticket' }, action: { name: 'bump' } }, actor: { memberId: platform.credentials.owner.id } });

    // The block lives in the conversation, where it shows as the app drew it last.
    await page.goto(`${platform.url}/console/conversations/${platform.credentials.conversationId}`);
    await cardByTitle(page, 'Bumped 1 times by Ada Owner').waitFor();
  });

  it('a tree whose action the block type lacks is not tried, and the page says why', async () => {
    const ref = Object.keys(TRY.actions)[0]!;
    await tryInPlayground(TRY.tree, { [ref]: { name: 'explode' } });
    const refused = page.locator('.flash-danger', { hasText: 'Not tried' });
    await refused.waitFor();
    expect(await refused.textContent()).toContain('The block type "ticket" has no action "explode"');
    expect(await page.locator('.tried').count()).toBe(0);
    await expectAccessible(page);
  });
});
