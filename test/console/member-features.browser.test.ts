/**
 * The member features of issue 16 clicked in a real browser against `npm start` (the demo
 * workspace with its example app, Deploy desk, owned by Ada): a notification marked read in the
 * inbox, a memory edited then deleted, an app stream revoked then restored, a link card's action
 * answered by the app's own handler (the Tracker fixture served on loopback), and a member who did
 * not write Deploy desk (Max) offered its commands, running one, sharing one private answer and
 * dismissing another; an app installed in the workspace and its author's development install of it
 * offering the same /hello, told apart for the author, the development one hidden from Max. Each
 * test waits for the new state on the page after the click.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import { startPlatform, type Platform } from '../helpers/npm-start.ts';
import { startTrackerServer, type TrackerServer } from '../control-plane/references/tracker.ts';
import { apiCalls, cardByTitle, expectAccessible, signedIn } from './helpers.ts';

const skip = browserSkipReason();
if (skip !== null) console.warn(`console member features browser tests skipped: ${skip}`);

let platform: Platform;
let browser: Browser;
let tracker: TrackerServer | undefined;
/** Ada, the owner, who wrote Deploy desk. */
let owner: { context: BrowserContext; page: Page };
/** Max, a plain member. */
let member: { context: BrowserContext; page: Page };

const conversationUrl = () => `${platform.url}/console/conversations/${platform.credentials.conversationId}`;

/** The Tracker fixture app created, synced and installed by the owner, its deliveries signed with its secret. */
async function installTracker(): Promise<TrackerServer> {
  const served = await startTrackerServer({ now: () => Date.now() });
  const call = apiCalls(platform);
  const created = await call('POST', '/client/v1/apps', { name: 'Tracker', slug: 'tracker', hosting: 'self', endpoint: { url: served.endpoint } });
  served.configure({ signingSecret: created.signingSecret, apiUrl: platform.url });
  await call('PUT', `/v0/apps/${created.app.id}/manifest`, { target: 'production', manifest: served.app.manifest });
  const consent = await call('GET', `/client/v1/apps/${created.app.id}/consent`);
  await call('POST', `/client/v1/apps/${created.app.id}/installs`, { version: consent.consent.version });
  return served;
}

/** Runs a command without options from the conversation page; resolves on the page of its answer. */
async function runCommand(page: Page, name: string): Promise<void> {
  await page.goto(conversationUrl());
  await page.locator('summary', { hasText: `/${name}` }).click();
  await page.locator('details.command[open]').getByRole('button', { name: `Run /${name}` }).click();
  await page.waitForURL(/invocation=/);
}

describe.skipIf(skip !== null)('member features in chromium', () => {
  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    owner = await signedIn(browser, platform, platform.credentials.owner.apiKey);
    member = await signedIn(browser, platform, platform.credentials.member.apiKey);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await tracker?.close();
    await platform?.stop();
  });

  it('the inbox marks a notification read', async () => {
    const { page } = owner;
    await page.goto(`${platform.url}/console/inbox`);
    const note = page.locator('.inbox li', { hasText: 'Deploy checkout v2.4.1 is waiting for your approval' });
    expect(await note.getAttribute('class')).toBe('unread');
    expect(await page.getByText(/^\d+ unread$/).textContent()).toBe('1 unread');
    await note.getByRole('button', { name: /^Mark read/ }).click();
    await page.waitForSelector('.inbox li.read');
    expect(await note.getAttribute('class')).toBe('read');
    expect(await page.getByText(/^\d+ unread$/).textContent()).toBe('0 unread');
    expect(await note.locator('.badge').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Mark/ }).count()).toBe(0);
    await expectAccessible(page);
  });

  it('a memory is edited, then deleted', async () => {
    const { page } = owner;
    await page.goto(`${platform.url}/console/memories`);
    const memory = page.locator('.memory', { hasText: 'Release rule' });
    await memory.locator('summary', { hasText: 'Edit' }).click();
    await memory.getByLabel('Title').fill('Release rule (edited)');
    await memory.getByLabel('Text').fill('Production deploys need two approvals.');
    await memory.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/done=saved/);
    const edited = page.locator('.memory', { hasText: 'Release rule (edited)' });
    expect(await edited.locator('.message-text').textContent()).toBe('Production deploys need two approvals.');
    expect(await page.getByRole('status').textContent()).toBe('Saved.');
    await expectAccessible(page);

    await edited.getByRole('button', { name: /^Delete/ }).click();
    await page.waitForURL(/done=deleted/);
    expect(await page.getByRole('status').textContent()).toBe('Deleted.');
    expect(await page.locator('.memory').count()).toBe(0);
  });

  it('an app stream is revoked, then restored', async () => {
    const { page } = owner;
    await page.goto(`${platform.url}/console/streams`);
    const stream = () => page.locator('.streams li', { hasText: 'Deploy desk' });
    expect(await stream().locator('.badge').textContent()).toBe('active');
    await stream().getByRole('button', { name: /^Revoke/ }).click();
    await page.waitForSelector('.streams .badge-danger');
    expect(await stream().locator('.badge').textContent()).toBe('revoked');
    await expectAccessible(page);
    await stream().getByRole('button', { name: /^Un-revoke/ }).click();
    await page.waitForSelector('.streams li .badge:not(.badge-danger)');
    expect(await stream().locator('.badge').textContent()).toBe('active');
    expect(await stream().getByRole('button', { name: /^Revoke/ }).isVisible()).toBe(true);
  });

  it('a button in a link card\'s block is answered by the app, and the card changes in place', async () => {
    tracker = await installTracker();
    const { page } = owner;
    await page.goto(conversationUrl());
    await page.getByLabel('Write a message').fill('Look at https://tracker.example.com/acme/issues/buttons please');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    const linkCard = page.locator('.reference', { hasText: 'With buttons' });
    await linkCard.waitFor();
    expect(await linkCard.getByRole('heading', { name: 'Issue is Open' }).isVisible()).toBe(true);
    await expectAccessible(page);

    await linkCard.locator('summary', { hasText: 'More' }).click();
    await linkCard.getByRole('button', { name: 'Assign' }).click();
    await page.getByRole('heading', { name: 'Issue is assigned to Ada Owner' }).waitFor();
    expect(await cardByTitle(page, 'Issue is assigned to Ada Owner').getByRole('status').textContent()).toBe('Assigned buttons (me)');
    expect(tracker.clicks.at(-1)).toMatchObject({ data: { action: { name: 'assign', args: { to: 'me' } } }, actor: { memberId: platform.credentials.owner.id } });
    // Stored for every occurrence: still there after a reload.
    await page.reload();
    await page.getByRole('heading', { name: 'Issue is assigned to Ada Owner' }).waitFor();
  });

  it('a member who did not write the app is offered its commands and runs one', async () => {
    const { page } = member;
    await page.goto(conversationUrl());
    expect(await page.locator('.who').textContent()).toContain('Max Member');
    await page.locator('summary', { hasText: '/deploy' }).click();
    const form = page.locator('details.command[open] form');
    await form.getByLabel('service (required)').fill('search');
    await form.getByLabel('env').selectOption('staging');
    await form.getByRole('button', { name: 'Run /deploy' }).click();
    await page.waitForURL(/invocation=/);
    await cardByTitle(page, 'Deploy search v1.0.0').waitFor();
    expect(await cardByTitle(page, 'Deploy search v1.0.0').locator('.pb-facts').textContent()).toContain('staging');
    await expectAccessible(page);
  });

  it('the member shares one private answer with the conversation, posted as the app', async () => {
    const { page } = member;
    await runCommand(page, 'status');
    const answer = page.locator('.invocation');
    expect(await answer.getByRole('heading').textContent()).toBe('/status · only you see this');
    await answer.getByRole('button', { name: 'Share with the conversation' }).click();
    await page.waitForURL((url) => !url.search.includes('invocation='));
    const shared = page.locator('.message', { hasText: 'All systems normal: 3 deploys went out today.' });
    await shared.waitFor();
    expect(await shared.locator('.message-head strong').textContent()).toBe('Deploy desk');
    expect(await shared.locator('.badge').textContent()).toBe('app');
    expect(await page.locator('.invocation').count()).toBe(0);
    // Everyone in the conversation sees it now.
    await owner.page.goto(conversationUrl());
    await owner.page.locator('.message', { hasText: 'All systems normal: 3 deploys went out today.' }).waitFor();
  });

  it('the member dismisses another private answer: it is gone for good', async () => {
    const { page } = member;
    await runCommand(page, 'status');
    const answerUrl = page.url();
    const messages = await page.locator('.message', { hasText: 'All systems normal' }).count();
    await page.locator('.invocation').getByRole('button', { name: 'Dismiss' }).click();
    await page.waitForURL((url) => !url.search.includes('invocation='));
    expect(await page.locator('.invocation').count()).toBe(0);
    // Not posted anywhere, and the answer's own link shows it no more.
    expect(await page.locator('.message', { hasText: 'All systems normal' }).count()).toBe(messages);
    await page.goto(answerUrl);
    await page.locator('section[aria-labelledby="messages-title"]').waitFor();
    expect(await page.locator('.invocation .message-text').count()).toBe(0);
    expect(await page.locator('.invocation').getByRole('button', { name: 'Dismiss' }).count()).toBe(0);
  });

  it('a development install\'s /hello reads apart from the workspace install\'s; a member sees only the workspace\'s', async () => {
    const call = apiCalls(platform);
    const endpoint = { url: 'https://greeter.example.net/platform' };
    const manifest = {
      schemaVersion: 1, name: 'Greeter', slug: 'greeter', hosting: 'self', endpoint, scopes: ['conversations:read'],
      commands: [{ name: 'hello', description: 'Post a greeting', options: [{ name: 'name', type: 'string', description: 'Who to greet', required: true }] }],
      messageActions: [{ id: 'wave', label: 'Wave back' }],
    };
    const created = await call('POST', '/client/v1/apps', { name: 'Greeter', slug: 'greeter', hosting: 'self', endpoint });
    await call('PUT', `/v0/apps/${created.app.id}/manifest`, { target: 'production', manifest });
    const consent = await call('GET', `/client/v1/apps/${created.app.id}/consent`);
    await call('POST', `/client/v1/apps/${created.app.id}/installs`, { version: consent.consent.version });
    // The same app as `platform dev` syncs it: the author's development app, with its dev install.
    await call('PUT', '/v0/apps/dev', { manifest });

    const { page } = owner;
    await page.goto(conversationUrl());
    const hellos = page.locator('details.command summary', { hasText: '/hello' });
    expect(await hellos.count()).toBe(2);
    // The workspace's first, as published; the author's own work in progress after it, marked.
    expect(await hellos.nth(0).textContent()).toBe('/hello Post a greeting · Greeter');
    expect(await hellos.nth(0).locator('.badge').count()).toBe(0);
    expect(await hellos.nth(1).textContent()).toBe('/hello dev Post a greeting · Greeter (development)');
    expect(await hellos.nth(1).locator('.badge-dev').textContent()).toBe('dev');
    await hellos.nth(1).click();
    const devForm = page.locator('details.command[open] form');
    expect(await devForm.getByRole('button').textContent()).toBe('Run /hello (development)');
    // Each form's field is its own: the labels lead to different inputs.
    await devForm.getByLabel('name (required)').fill('Ada');
    await hellos.nth(0).click();
    expect(await page.locator('details.command[open]').nth(0).getByLabel('name (required)').inputValue()).toBe('');
    const actions = page.locator('.message').first().locator('.message-actions');
    await actions.locator('summary').click();
    expect(await actions.getByRole('button', { name: /^Wave back/ }).allTextContents()).toEqual(['Wave back (Greeter)', 'Wave back (Greeter, development) dev']);
    await expectAccessible(page);

    // Max is offered the workspace's only (another member's work in progress is not his to run).
    await member.page.goto(conversationUrl());
    const his = member.page.locator('details.command summary', { hasText: '/hello' });
    expect(await his.count()).toBe(1);
    expect(await his.textContent()).toBe('/hello Post a greeting · Greeter');
    await expectAccessible(member.page);
  });
});
