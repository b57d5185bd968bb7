/**
 * The console in a real browser against the real stack: `npm start` as a fresh clone runs it
 * (embedded database, one runtime node, the demo workspace with its example app installed from
 * its bundle), driven by Debian's chromium through playwright-core. One test per page family and
 * flow the issue names (the printed link signing in, a card's button changing the card, a form's
 * field error, a poll's tallies, a confirm, running commands, a private answer, the inbox,
 * memories, search and app streams; an author's apps, the Deliveries page with a redelivery, the
 * playground; an admin's install through the consent screen, a reconsent, suspend and resume),
 * each page checked by axe-core for serious and critical violations.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import { startPlatform, type Platform } from '../helpers/npm-start.ts';
import { apiCalls, cardByTitle, expectAccessible, signedIn, EVENTUALLY } from './helpers.ts';

const skip = browserSkipReason();
if (skip !== null) console.warn(`console browser tests skipped: ${skip}`);

let platform: Platform;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const card = (title: string) => cardByTitle(page, title);

/** A self-hosted app subscribed to posts and replies whose endpoint cannot be reached, installed; then a message. */
async function failingSelfHostedApp(p: Platform): Promise<string> {
  const call = apiCalls(p);
  const endpoint = { url: 'https://sink.example.net/platform' };
  const created = await call('POST', '/client/v1/apps', { name: 'Webhook sink', slug: 'webhook-sink', hosting: 'self', endpoint });
  const manifest = { schemaVersion: 1, name: 'Webhook sink', slug: 'webhook-sink', hosting: 'self', endpoint, scopes: ['conversations:read'], events: ['post.created', 'reply.created'] };
  await call('PUT', `/v0/apps/${created.app.id}/manifest`, { target: 'production', manifest });
  const consent = await call('GET', `/client/v1/apps/${created.app.id}/consent`);
  await call('POST', `/client/v1/apps/${created.app.id}/installs`, { version: consent.consent.version });
  await call('POST', `/client/v1/conversations/${p.credentials.conversationId}/messages`, { markdown: 'Shipping the sink test.' });
  return created.app.id as string;
}

describe.skipIf(skip !== null)('the console in chromium', () => {
  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    // bypassCSP: axe-core is injected as an inline script, which the console's policy refuses.
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    // Below the test timeout, so a missing element fails with playwright's own message.
    context.setDefaultTimeout(10_000);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('the URL npm start prints opens, signed in as the owner, on the welcome conversation with the example app\'s card', async () => {
    expect(platform.consoleLink).toMatch(/^http:\/\/localhost:\d+\/console\/sign-in#key=platkey_/);
    await page.goto(platform.consoleLink);
    await page.waitForURL(/\/console\/conversations\/cnv_/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), EVENTUALLY).toBe('Welcome to the platform');
    expect(await page.locator('.who').textContent()).toContain('Ada Owner');
    expect(await card('Deploy checkout v2.4.1').getByRole('button', { name: 'Approve' }).isVisible()).toBe(true);
    expect(await card('Deploy checkout v2.4.1').locator('.card-app').textContent()).toBe('Deploy desk');
    // The key left the address bar; the session is a cookie no script can read and no other site sends.
    expect(page.url()).not.toContain('platkey_');
    const [session] = (await context.cookies()).filter((c) => c.name === 'platform_console');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    await expectAccessible(page);
  });

  it('the printed link signs in once: opened again, it says so and how to sign in now', async () => {
    const other = await browser.newContext({ bypassCSP: true });
    const second = await other.newPage();
    const answered = second.waitForResponse((res) => res.url().endsWith('/console/sign-in') && res.request().method() === 'POST');
    await second.goto(platform.consoleLink);
    expect((await answered).status()).toBe(401);
    await second.waitForSelector('.flash-danger');
    const credentials = /written to +(\S+credentials\.json)/.exec(platform.output())?.[1];
    expect(credentials).toBeDefined();
    expect(await second.locator('.flash-danger').textContent()).toBe(
      `This sign-in link was used already (each link signs in once) or is no longer valid. Sign in with your API key below (npm start wrote the owner's to ${credentials}), or restart npm start for a new link.`);
    // Still the sign-in form, with the key gone from the address bar, and no session.
    expect(second.url()).not.toContain('platkey_');
    expect(await second.getByLabel('Your API key').isVisible()).toBe(true);
    expect((await other.cookies()).filter((c) => c.name === 'platform_console')).toEqual([]);
    await expectAccessible(second);
    await other.close();
  });

  it('a form in a card answers a field error beside the field and keeps what was typed', async () => {
    const deploy = card('Deploy checkout v2.4.1');
    await deploy.getByLabel('Reason to reject').fill('no');
    await deploy.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => deploy.locator('.pb-field-error').textContent(), EVENTUALLY).toBe('Say why in at least 5 characters');
    const field = deploy.getByLabel('Reason to reject');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.inputValue()).toBe('no');
    // The suites are typed without the DOM library: the page's globals are reached through globalThis.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe(await field.getAttribute('id'));
    expect(await field.getAttribute('aria-describedby')).toBe(await deploy.locator('.pb-field-error').getAttribute('id'));
    await expectAccessible(page);
  });

  it('clicking a button in a card changes the card in place, and the change is kept', async () => {
    const deploy = card('Deploy checkout v2.4.1');
    await deploy.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => deploy.locator('.pb-status').textContent(), EVENTUALLY).toBe('Approved');
    expect(await deploy.locator('.pb-facts').textContent()).toContain('Approved byAda Owner');
    expect(await deploy.getByRole('status').textContent()).toBe('Approved');
    expect(await deploy.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await page.reload();
    await expect.poll(() => card('Deploy checkout v2.4.1').locator('.pb-status').textContent(), EVENTUALLY).toBe('Approved');
  });

  it('a pick in a shared poll shows everyone\'s tallies', async () => {
    const poll = card('Where do we eat on Friday?');
    await poll.getByLabel('Pizza').check();
    await expect.poll(() => card('Where do we eat on Friday?').locator('.pb-choice', { hasText: 'Pizza' }).locator('.pb-tally').textContent(), EVENTUALLY).toBe('1 vote');
    expect(await card('Where do we eat on Friday?').getByLabel('Pizza').isChecked()).toBe(true);
    expect(await card('Where do we eat on Friday?').locator('.pb-choice', { hasText: 'Sushi' }).locator('.pb-tally').textContent()).toBe('0 votes');
  });

  it('running a command with option pickers posts its card; a destructive button asks to confirm first', async () => {
    await page.locator('summary', { hasText: '/deploy' }).click();
    const form = page.locator('details.command[open] form');
    await form.getByLabel('service (required)').fill('billing');
    await form.getByLabel('env').selectOption('staging');
    await form.getByLabel('reviewer').selectOption({ label: 'Max Member' });
    await form.getByRole('button', { name: 'Run /deploy' }).click();
    await page.waitForURL(/invocation=/);
    const billing = card('Deploy billing v1.0.0');
    expect(await billing.locator('.pb-facts').textContent()).toContain('staging');

    await billing.getByRole('button', { name: 'Cancel deploy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this deploy?' });
    expect(await dialog.isVisible()).toBe(true);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => card('Deploy billing v1.0.0').locator('.pb-status').textContent(), EVENTUALLY).toBe('Cancelled');
  });

  it('a command answering privately shows the answer to whoever ran it only', async () => {
    await page.locator('summary', { hasText: '/status' }).click();
    await page.locator('details.command[open]').getByRole('button', { name: 'Run /status' }).click();
    await page.waitForURL(/invocation=/);
    const answer = page.locator('.invocation');
    expect(await answer.getByRole('heading').textContent()).toBe('/status · only you see this');
    expect(await answer.locator('.message-text').textContent()).toBe('All systems normal: 3 deploys went out today.');
    expect(await answer.getByRole('button', { name: 'Share with the conversation' }).isVisible()).toBe(true);
    expect(await answer.getByRole('button', { name: 'Dismiss' }).isVisible()).toBe(true);

    // Another member does not see it.
    const { context: other, page: max } = await signedIn(browser, platform, platform.credentials.member.apiKey);
    await max.goto(page.url());
    expect(await max.locator('.invocation').count()).toBe(0);
    await other.close();
  });

  it('a message action runs on a message and answers privately', async () => {
    const message = page.locator('.message', { hasText: 'Apps will show up here once they are installed.' });
    await message.locator('summary', { hasText: 'Message actions' }).click();
    await message.getByRole('button', { name: /Remind me/ }).click();
    await page.waitForURL(/invocation=/);
    expect(await page.locator('.invocation .message-text').textContent()).toBe('I will remind you about: Apps will show up here once they are installed.');
  });

  it('circles list the conversations', async () => {
    await page.getByRole('link', { name: 'Circles' }).click();
    await page.waitForURL(/\/console$/);
    expect(await page.getByRole('link', { name: 'Welcome to the platform' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Circles' }).getAttribute('aria-current')).toBe('page');
    await expectAccessible(page);
  });

  it('the inbox shows what apps sent', async () => {
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.waitForURL(/\/console\/inbox$/);
    expect(await page.locator('.inbox').textContent()).toContain('Deploy checkout v2.4.1 is waiting for your approval');
    await expectAccessible(page);
  });

  it('memories list what apps saved, with edit and delete', async () => {
    await page.getByRole('link', { name: 'Memories' }).click();
    await page.waitForURL(/\/console\/memories/);
    const memory = page.locator('.memory', { hasText: 'Release rule' });
    expect(await memory.textContent()).toContain('Production deploys need one approval from the owning team.');
    expect(await memory.getByRole('button', { name: /Delete/ }).isVisible()).toBe(true);
    await expectAccessible(page);
  });

  it('search finds nothing before apps add objects, and says so', async () => {
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('Search for').fill('deploy');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=deploy/);
    expect(await page.locator('main').textContent()).toContain('No matches.');
    await expectAccessible(page);
  });

  it('app streams can be revoked', async () => {
    await page.getByRole('link', { name: 'App streams' }).click();
    await page.waitForURL(/\/console\/streams$/);
    // A stream is named after its app.
    const stream = page.locator('.streams li', { hasText: 'Deploy desk' });
    expect(await stream.locator('.badge').textContent()).toBe('active');
    await expectAccessible(page);
    await stream.getByRole('button', { name: /^Revoke/ }).click();
    await page.waitForURL(/\/console\/streams$/);
    expect(await page.locator('.streams li', { hasText: 'Deploy desk' }).locator('.badge').textContent()).toBe('revoked');
  });

  it('my apps lists the apps the member owns', async () => {
    await page.getByRole('link', { name: 'My apps' }).click();
    await page.waitForURL(/\/console\/apps$/);
    const row = page.locator('tr', { hasText: 'Deploy desk' });
    expect(await row.textContent()).toContain('hosted');
    await expectAccessible(page);
  });

  it('the Deliveries page filters by status and type, shows each attempt, and redelivers a failed delivery', async () => {
    const appId = await failingSelfHostedApp(platform);
    // A later message of a conversation is a reply to its first post: its reply.created delivery
    // fails (the endpoint cannot be reached) and waits for a retry.
    await page.goto(`${platform.url}/console/apps/${appId}/deliveries?outcome=pending&type=reply.created`);
    await expect.poll(async () => {
      await page.reload();
      return page.locator('tbody tr').count();
    }, { timeout: 25_000, interval: 500 }).toBeGreaterThan(0);
    expect(await page.getByLabel('Status').inputValue()).toBe('pending');
    expect(await page.getByLabel('Type').inputValue()).toBe('reply.created');
    // In the app's frame: its name, and its pages with this one marked.
    const frame = async (title: string) => {
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
      const tabs = page.getByRole('navigation', { name: 'Pages of Webhook sink' });
      expect(await tabs.getByRole('link').allTextContents()).toEqual(['Overview', 'Versions', 'Environment', 'Storage', 'Domains', 'Credentials', 'Deliveries', 'Schedules and queues', 'Errors', 'Rollout', 'Playground']);
      expect(await tabs.locator('[aria-current="page"]').textContent()).toBe('Deliveries');
    };
    await frame('Deliveries of Webhook sink');
    await expectAccessible(page);
    await page.locator('tbody tr').first().getByRole('link', { name: 'reply.created' }).click();
    await page.waitForURL(/\/deliveries\/[A-Za-z0-9_]+$/);
    const detail = page.url();
    // The first attempt ends within the outbound deadline.
    await expect.poll(async () => {
      await page.goto(detail);
      return page.locator('tbody tr').count();
    }, { timeout: 25_000, interval: 500 }).toBe(1);
    expect(await page.locator('pre.payload').textContent()).toContain(platform.credentials.conversationId);
    await frame('reply.created delivery to Webhook sink');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page.waitForURL(/done=redelivered/);
    expect(await page.getByRole('status').textContent()).toBe('Sent again: it is due now, with a fresh retry schedule.');
    await expect.poll(async () => {
      await page.goto(detail);
      return page.locator('tbody tr').count();
    }, { timeout: 25_000, interval: 500 }).toBe(2);
  }, 90_000);

  it('the playground draws a tree beside its JSON and pins the validator\'s message to the node at fault', async () => {
    await page.goto(`${platform.url}/console/playground`);
    expect(await page.getByRole('status').textContent()).toBe('Valid: apps can send this tree.');
    expect(await page.locator('.playground-out').getByRole('heading', { name: 'Deploy #42' }).isVisible()).toBe(true);
    await expectAccessible(page);
    const tree = page.getByLabel('Tree (catalog 1 JSON)');
    await tree.fill((await tree.inputValue()).replace('"label": "Approve"', '"label": "   "'));
    await page.getByRole('button', { name: 'Check and draw' }).click();
    await page.waitForSelector('.pb-problem');
    const pinned = page.locator('.pb-problem-at');
    expect(await pinned.locator('.pb-problem').textContent()).toBe(await page.locator('.flash-danger p').first().textContent());
    expect(await pinned.locator('button').count()).toBe(1);
    expect(await page.locator('.flash-danger code').textContent()).toContain('content › 4 › content › 0');
    await expectAccessible(page);
  });

  it('admins install an app through its consent screen, approve a version that widens access, suspend and resume it', async () => {
    const owner = apiCalls(platform);
    const endpoint = { url: 'https://inspector.example.net/platform' };
    const created = await owner('POST', '/client/v1/apps', { name: 'Inspector', slug: 'inspector', hosting: 'self', endpoint });
    const manifest = { schemaVersion: 1, name: 'Inspector', slug: 'inspector', hosting: 'self', endpoint, scopes: ['conversations:read'], events: ['post.created'] };
    await owner('PUT', `/v0/apps/${created.app.id}/manifest`, { target: 'production', manifest });

    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await page.waitForURL(/\/console\/admin\/apps$/);
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Install Inspector' }).click();
    await page.waitForURL(/\/install$/);
    expect(await page.locator('.scopes').textContent()).toContain('conversations:read');
    expect(await page.locator('main').textContent()).toContain('post.created');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Install Inspector' }).click();
    await page.waitForURL(/\/console\/admin\/apps$/);
    const row = () => page.locator('tr', { hasText: 'Inspector' });
    expect(await row().locator('.badge').textContent()).toBe('active');

    // Version 2 hears of decisions too: it waits for an admin, who sees what it adds.
    await owner('PUT', `/v0/apps/${created.app.id}/manifest`, { target: 'production', manifest: { ...manifest, scopes: ['conversations:read', 'decisions:read'], events: ['post.created', 'decision.published'] } });
    await page.reload();
    await row().getByRole('link', { name: /Review version 2/ }).click();
    await page.waitForURL(/\/review$/);
    expect(await page.getByRole('heading', { name: 'What this version adds' }).isVisible()).toBe(true);
    expect(await page.locator('.invocation').textContent()).toContain('decision');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Approve version 2' }).click();
    await page.waitForURL(/\/console\/admin\/apps$/);
    expect(await row().textContent()).toContain('version 2');

    await row().getByRole('button', { name: 'Suspend Inspector' }).click();
    await page.waitForURL(/\/console\/admin\/apps$/);
    expect(await row().locator('.badge').textContent()).toBe('suspended');
    await row().getByRole('button', { name: 'Resume Inspector' }).click();
    await page.waitForURL(/\/console\/admin\/apps$/);
    expect(await row().locator('.badge').textContent()).toBe('active');
  });

  it('an unknown console page is a 404 page in the console\'s frame with a link back, signed in or not', async () => {
    const other = await browser.newContext({ bypassCSP: true });
    const anonymous = await other.newPage();
    const out = await anonymous.goto(`${platform.url}/console/nowhere/at-all`);
    expect(out?.status()).toBe(404);
    expect(await anonymous.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    expect(await anonymous.getByRole('navigation', { name: 'Console' }).count()).toBe(0);
    await expectAccessible(anonymous);
    await anonymous.getByRole('link', { name: 'Sign in' }).click();
    await anonymous.waitForURL(/\/console\/sign-in$/);
    await other.close();

    const res = await page.goto(`${platform.url}/console/apps/app_nope/nowhere`);
    expect(res?.status()).toBe(404);
    expect(await page.locator('main code').textContent()).toBe('/console/apps/app_nope/nowhere');
    expect(await page.getByRole('navigation', { name: 'Console' }).isVisible()).toBe(true);
    expect(await page.locator('.who').textContent()).toContain('Ada Owner');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to your circles' }).click();
    await page.waitForURL(/\/console$/);
    // The APIs' own unknown paths stay JSON.
    const api = await page.request.get(`${platform.url}/client/v1/nowhere`);
    expect(api.status()).toBe(404);
    expect(((await api.json()) as { _tag: string })._tag).toBe('PlatformApiNotFoundError');
  });

  it('signing out revokes the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    await page.goto(`${platform.url}/console/inbox`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
  });
});
