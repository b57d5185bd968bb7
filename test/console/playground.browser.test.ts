/**
 * The playground's "Try" in a real browser against `npm start`: the owner runs a self-hosted app
 * the way `platform dev` does (served on loopback, synced as their development app, deliveries
 * through the relay: test/fixtures/playground/dev-app.ts). The app's playground, in the app's
 * frame, starts with a sample of the preselected type that can be tried as it stands: its props
 * and state start at the schemas' defaults, and its button is answered by the app. A pasted tree
 * is tried in the welcome conversation and its button clicked: the app's own handler answers and
 * the live card changes in place (and in the conversation). A tree naming an action the block
 * type lacks is refused with the API's reason.
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
  // The app's first type is preselected; these trees are the ticket type's.
  expect(await page.getByLabel('Development app and block type').inputValue()).toBe(`${devApp!.installId} greeting`);
  await page.getByLabel('Development app and block type').selectOption(`${devApp!.installId} ticket`);
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

  it('the app\'s playground, in its frame, starts with a sample that Try posts as it stands; its button is answered by the app', async () => {
    await page.goto(`${platform.url}/console/apps/${devApp!.appId}/playground`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Playground of Ticket desk');
    const tabs = page.getByRole('navigation', { name: 'Pages of Ticket desk' });
    expect(await tabs.locator('[aria-current="page"]').textContent()).toBe('Playground');
    // The sample is the preselected type's: a button for its one action.
    expect(await page.getByLabel('Development app and block type').inputValue()).toBe(`${devApp!.installId} greeting`);
    expect(await page.locator('.playground-out').getByRole('heading', { name: 'Greeting' }).isVisible()).toBe(true);
    expect(Object.values(JSON.parse(await page.getByLabel('Action table (optional)').inputValue()) as object)).toEqual([{ name: 'wave' }]);
    // Props and state as they start: {}; what they leave out comes from the schemas' defaults.
    await page.locator('summary', { hasText: 'Props and state' }).click();
    expect(await page.getByLabel('Props (JSON)').inputValue()).toBe('{}');
    expect(await page.getByLabel('First state (JSON)').inputValue()).toBe('{}');
    await expectAccessible(page);

    await page.getByLabel('Post it in').selectOption(`conversation:${platform.credentials.conversationId}`);
    await page.getByRole('button', { name: 'Try', exact: true }).click();
    const tried = page.locator('.tried');
    await tried.waitFor();
    expect(await tried.locator('.tried-data').textContent()).toBe('Started with props {"name":"world"} and state {"waves":0}.');
    await tried.getByRole('button', { name: 'Wave' }).click();
    // The app's own render draws the new state.
    await tried.getByRole('heading', { name: 'Hello, world!' }).waitFor();
    expect(await tried.locator('[data-card]').textContent()).toContain('1 waves');
    expect(devApp!.actions.at(-1)).toMatchObject({ data: { block: { type: 'greeting', props: { name: 'world' }, state: { waves: 0 } }, action: { name: 'wave' } } });
    await expectAccessible(page);
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
    expect(devApp!.actions.at(-1)).toMatchObject({ data: { block: { type: 'ticket' }, action: { name: 'bump' } }, actor: { memberId: platform.credentials.owner.id } });

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
