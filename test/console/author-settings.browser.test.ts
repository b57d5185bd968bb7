/**
 * An app's settings pages in a real browser against `npm start` (its DNS aimed at a DNS server of
 * the test's own, so verifying a domain is a real TXT lookup): from My apps to the app's page and
 * each of its pages; the Versions page diffing two versions (a widened scope) and rolling back; the
 * Environment page setting a secret that is never drawn, deleting it, and answering an invalid key
 * beside its field; the Domains page with a pending domain's TXT record, a failed and a passed
 * verification; the Credentials page rotating the signing secret and showing the new one once.
 * Another member gets the API's refusal. Each page is checked by axe-core.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.ts';
import { startPlatform, type Platform } from '../helpers/npm-start.ts';
import { apiCalls, expectAccessible, EVENTUALLY, signedIn } from './helpers.ts';

const skip = browserSkipReason();
if (skip !== null) console.warn(`console app settings browser tests skipped: ${skip}`);

let platform: Platform;
let dns: DnsServer;
let browser: Browser;
let page: Page;
let appId: string;

const endpoint = { url: 'https://polls.example.net/platform' };
const v1 = { schemaVersion: 1, name: 'Settings polls', slug: 'settings-polls', hosting: 'self', endpoint, scopes: ['conversations:read'], events: ['post.created'] };
const v2 = { ...v1, description: 'Polls with decisions', scopes: ['conversations:read', 'decisions:read'], events: ['post.created', 'decision.published'] };

/** The platform's APIs with the owner's key (set once the platform runs). */
let owner: ReturnType<typeof apiCalls>;

/** The page's HTML as the server sent it and as the browser holds it now. */
const everything = async () => `${await page.content()}${await (await page.request.get(page.url())).text()}`;

describe.skipIf(skip !== null)('an app\'s settings pages in chromium', () => {
  beforeAll(async () => {
    dns = await startDnsServer();
    platform = await startPlatform({ env: { DNS_SERVERS: dns.address } });
    owner = apiCalls(platform);
    const created = await owner('POST', '/client/v1/apps', { name: 'Settings polls', slug: 'settings-polls', hosting: 'self', endpoint });
    appId = created.app.id as string;
    await owner('PUT', `/v0/apps/${appId}/manifest`, { target: 'production', manifest: v1 });
    await owner('PUT', `/v0/apps/${appId}/manifest`, { target: 'production', manifest: v2 });
    browser = await launchBrowser();
    // bypassCSP: axe-core is injected as an inline script, which the console's policy refuses.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1200, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await page.goto(platform.consoleLink);
    await page.waitForURL(/\/console\/conversations\//);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await dns?.close();
  });

  it('my apps leads to the app\'s page, whose navigation reaches each of its pages', async () => {
    await page.goto(`${platform.url}/console/apps`);
    await page.getByRole('link', { name: 'Settings polls', exact: true }).click();
    await page.waitForURL(new RegExp(`/console/apps/${appId}$`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Settings polls');
    expect(await page.locator('.facts').textContent()).toContain('v2, since');
    const nav = page.getByRole('navigation', { name: 'Pages of Settings polls' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Overview', 'Versions', 'Environment', 'Storage', 'Domains', 'Credentials', 'Deliveries', 'Schedules and queues', 'Errors', 'Rollout', 'Playground']);
    expect(await nav.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    await expectAccessible(page);
  });

  it('the Versions page lists both versions and diffs them: the widened scope and event, the changed description', { timeout: 60_000 }, async () => {
    await page.getByRole('navigation', { name: 'Pages of Settings polls' }).getByRole('link', { name: 'Versions' }).click();
    await page.waitForURL(/\/versions$/);
    const rows = page.locator('tbody tr');
    expect(await rows.locator('th').allTextContents()).toEqual(['v2', 'v1']);
    expect(await rows.nth(0).textContent()).toContain('live');
    expect(await rows.nth(0).textContent()).toContain('scope: decisions:read');
    await expectAccessible(page);

    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('1');
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe('2');
    await page.getByRole('button', { name: 'Compare manifests' }).click();
    await page.waitForURL(/\/versions\/compare\?from=1&to=2$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Settings polls: v1 → v2');
    const widened = page.locator('h2', { hasText: 'What v2 adds in access over v1' }).locator('xpath=following-sibling::ul[1]');
    expect(await widened.locator('li').allTextContents()).toEqual([expect.stringContaining('scope: decisions:read'), expect.stringContaining('event: decision.published')]);
    const scopes = page.getByRole('region', { name: 'Scopes' });
    expect(await scopes.locator('.diff-added').textContent()).toMatch(/Added:\s+decisions:read/);
    expect(await scopes.locator('li').count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Events' }).locator('.diff-added').textContent()).toContain('decision.published');
    expect(await page.getByRole('region', { name: 'Description' }).locator('.diff-added').textContent()).toContain('Polls with decisions');
    expect(await page.getByText('3 added, 0 removed, 0 changed.').count()).toBe(1);
    await expectAccessible(page);

    // The other way round, the same scope is removed and nothing is added in access.
    await page.getByLabel('From', { exact: true }).selectOption('2');
    await page.getByLabel('To', { exact: true }).selectOption('1');
    await page.getByRole('button', { name: 'Compare manifests' }).click();
    await page.waitForURL(/from=2&to=1$/);
    expect(await page.getByRole('region', { name: 'Scopes' }).locator('.diff-removed').textContent()).toContain('decisions:read');
    expect(await page.getByText('Nothing: installs would move to it without asking an admin.').count()).toBe(1);

    // A version the app does not have: the API's tagged refusal, on the page.
    const missing = await page.goto(`${platform.url}/console/apps/${appId}/versions/compare?from=1&to=9`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator('#compare-error').textContent()).toMatch(/The app has no version 9\s+PlatformApiNotFoundError/);
  });

  it('rolls production back to an earlier version after a confirm', async () => {
    await page.goto(`${platform.url}/console/apps/${appId}/versions`);
    await page.getByRole('button', { name: 'Roll back to version 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serve version 1 again?' });
    await dialog.waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Roll back to v1' }).click();
    await page.waitForURL(/done=rolled-back/);
    expect(await page.getByRole('status').textContent()).toBe('Version 3 is live: it serves version 1 again.');
    const newest = page.locator('tbody tr').first();
    expect(await newest.locator('th').textContent()).toBe('v3');
    expect(await newest.textContent()).toContain('rollback of v1');
    expect((await owner('GET', `/v0/apps/${appId}/versions?limit=1`)).items[0]).toMatchObject({ version: 3, rollbackOf: 1, live: true });
  });

  it('the Environment page sets a secret that is never drawn, shows a plain value, and deletes after a confirm', async () => {
    await page.goto(`${platform.url}/console/apps/${appId}`);
    await page.getByRole('navigation', { name: 'Pages of Settings polls' }).getByRole('link', { name: 'Environment' }).click();
    await page.waitForURL(/\/env$/);
    await page.getByLabel('Key').fill('API_TOKEN');
    await page.getByLabel('Value').fill('sup3r-s3cret-value');
    expect(await page.getByRole('checkbox', { name: /Secret/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save variable' }).click();
    await page.waitForURL(/done=saved/);
    const secret = page.locator('tr[data-env-key="API_TOKEN"]');
    expect(await secret.locator('td').first().textContent()).toMatch(/••••••••\s+secret/);
    expect(await everything()).not.toContain('sup3r-s3cret-value');

    await page.getByLabel('Key').fill('REGION');
    await page.getByLabel('Value').fill('eu-west');
    await page.getByRole('checkbox', { name: /Secret/ }).uncheck();
    await page.getByRole('button', { name: 'Save variable' }).click();
    // The URL says done=saved already (the first save): wait for the page the second save draws.
    await page.locator('tr[data-env-key="REGION"]').waitFor();
    await page.waitForURL(/done=saved/);
    expect(await page.locator('tr[data-env-key="REGION"] td').first().textContent()).toBe('eu-west');
    await expectAccessible(page);

    await secret.getByRole('button', { name: 'Delete API_TOKEN' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete API_TOKEN from production?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/done=deleted/);
    expect(await page.locator('tr[data-env-key="API_TOKEN"]').count()).toBe(0);
    expect((await owner('GET', `/v0/apps/${appId}/env/production`)).items.map((v: { key: string }) => v.key)).toEqual(['REGION']);

    // Preview is a separate environment.
    await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Preview' }).click();
    await page.waitForURL(/target=preview/);
    expect(await page.getByText('No variables in preview yet.').count()).toBe(1);
  });

  it('an invalid key comes back beside its field with the API\'s tagged message, keeping the key but not the value', async () => {
    await page.goto(`${platform.url}/console/apps/${appId}/env`);
    await page.getByLabel('Key').fill('1-bad key');
    await page.getByLabel('Value').fill('never-echoed');
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Save variable' }).click()]);
    expect(answer.status()).toBe(400);
    // The answer has arrived, but the page it draws may not be the one in the window yet: wait for it.
    await page.locator('input[aria-invalid="true"]').waitFor();
    const key = page.getByLabel('Key');
    expect(await key.getAttribute('aria-invalid')).toBe('true');
    const error = page.locator(`#${await key.getAttribute('aria-describedby')}`);
    expect(await error.textContent()).toMatch(/Environment variable keys are a letter or _.*PlatformApiInvalidRequestError/s);
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await key.inputValue()).toBe('1-bad key');
    expect(await page.getByLabel('Value').inputValue()).toBe('');
    expect(await page.content()).not.toContain('never-echoed');
    await expectAccessible(page);
  });

  it('the Domains page shows a new domain pending with the TXT record to create, says why verifying fails, and verifies once it is published', { timeout: 60_000 }, async () => {
    await page.goto(`${platform.url}/console/apps/${appId}/domains`);
    await page.getByRole('textbox', { name: 'Domain' }).fill('polls.example.net');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.waitForURL(/done=added/);
    const row = page.locator('tr[data-domain="polls.example.net"]');
    expect(await row.textContent()).toContain('pending verification');
    expect(await row.locator('.record dd').nth(1).textContent()).toContain('_platform-verify.polls.example.net');
    const value = (await row.locator('.record-value').textContent())!;
    expect(value).toMatch(/^platform-verify=[\w-]{20,}$/);
    await expectAccessible(page);

    await row.getByRole('button', { name: 'Verify polls.example.net' }).click();
    const failed = page.locator('tr[data-domain="polls.example.net"] .field-error');
    await failed.waitFor();
    expect(await failed.textContent()).toMatch(/No TXT record at _platform-verify\.polls\.example\.net yet\s+PlatformApiConflictError/);
    expect(dns.asked).toContain('_platform-verify.polls.example.net');

    dns.setTxt('_platform-verify.polls.example.net', [value]);
    await page.locator('tr[data-domain="polls.example.net"]').getByRole('button', { name: 'Verify polls.example.net' }).click();
    await page.waitForURL(/done=verified/);
    expect(await page.locator('tr[data-domain="polls.example.net"]').textContent()).toContain('verified');
    await expectAccessible(page);

    // A name that is not a host comes back beside the field.
    await page.getByRole('textbox', { name: 'Domain' }).fill('not a domain');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.locator('#domain-error').waitFor();
    expect(await page.locator('#domain-error').textContent()).toContain('Not a host name');
    expect(await page.getByRole('textbox', { name: 'Domain' }).inputValue()).toBe('not a domain');

    await page.locator('tr[data-domain="polls.example.net"]').getByRole('button', { name: 'Remove polls.example.net' }).click();
    await page.getByRole('dialog', { name: 'Remove polls.example.net?' }).getByRole('button', { name: 'Remove' }).click();
    await page.waitForURL(/done=removed/);
    expect(await page.locator('tr[data-domain="polls.example.net"]').count()).toBe(0);
  });

  it('the Credentials page hints at the signing secret, and rotating shows the new one once with the grace period', { timeout: 60_000 }, async () => {
    const before = await owner('GET', `/client/v1/apps/${appId}/credentials`);
    await page.goto(`${platform.url}/console/apps/${appId}/credentials`);
    expect(await page.locator('#signing-hint').textContent()).toBe(`whsec_…${before.signingSecret.slice(-4)}`);
    expect(await everything()).not.toContain(before.signingSecret);
    expect(await page.locator('.facts').textContent()).toContain(before.clientId);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    const shown = page.locator('#new-secret');
    await shown.waitFor();
    const after = await owner('GET', `/client/v1/apps/${appId}/credentials`);
    expect(after.signingSecret).not.toBe(before.signingSecret);
    expect(await shown.textContent()).toBe(after.signingSecret);
    expect(await page.getByRole('region', { name: 'Your new signing secret' }).textContent()).toMatch(/Until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, deliveries carry a second signature/);
    await page.getByRole('button', { name: 'Copy the new signing secret' }).click();
    await expect.poll(() => page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), EVENTUALLY).toBe(after.signingSecret);
    await expectAccessible(page);

    // Once: the page read again shows hints only, the previous secret with its expiry.
    await page.goto(`${platform.url}/console/apps/${appId}/credentials`);
    const text = await everything();
    expect(text).not.toContain(after.signingSecret);
    expect(text).not.toContain(before.signingSecret);
    expect(await page.locator('#signing-hint').textContent()).toBe(`whsec_…${after.signingSecret.slice(-4)}`);
    expect(await page.locator('.facts').textContent()).toContain(`whsec_…${before.signingSecret.slice(-4)}, still signing until ${after.previousSigningSecret.expiresAt.slice(0, 19).replace('T', ' ')} UTC`);

    // Without the script the confirm is a page of its own: the dialog comes drawn open.
    await page.goto(`${platform.url}/console/apps/${appId}/credentials?confirm=rotate-client`);
    expect(await page.locator('dialog#rotate-client').getAttribute('open')).toBe('');
  });

  it('another member gets the API\'s refusal on the app\'s pages', async () => {
    // Signed in through the form, waiting until the page has left the sign-in page: a wait for any
    // /console URL passed at once (the sign-in page is one) and raced the form's own navigation.
    const { context: other, page: max } = await signedIn(browser, platform, platform.credentials.member.apiKey);
    for (const path of ['', '/versions', '/env', '/domains', '/credentials']) {
      const res = await max.goto(`${platform.url}/console/apps/${appId}${path}`);
      expect(res?.status(), path).toBe(404);
      expect(await max.locator('.flash-danger').textContent()).toBeTruthy();
    }
    const before = await owner('GET', `/client/v1/apps/${appId}/credentials`);
    const post = await max.request.post(`${platform.url}/console/apps/${appId}/credentials/rotate-signing`, { headers: { origin: platform.url } });
    expect(post.status()).toBe(404);
    expect((await owner('GET', `/client/v1/apps/${appId}/credentials`)).signingSecret).toBe(before.signingSecret);
    await expectAccessible(max);
    await other.close();
  });
});
