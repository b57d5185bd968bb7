/**
 * What the console's browser suites share: API calls with a member's key (as an author's tooling
 * makes them), the axe check of a page, an app card found by its title, and a browser context
 * signed in with a key through the sign-in form.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations } from '../helpers/browser.ts';
import type { Platform } from '../helpers/npm-start.ts';

/** Calls of the platform's APIs with `apiKey` (default: the owner's); a status of 300 or more fails the test. */
export function apiCalls(p: Platform, apiKey: string = p.credentials.owner.apiKey) {
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${p.url}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    const json = text === '' ? null : JSON.parse(text) as unknown;
    expect(res.status, text).toBeLessThan(300);
    return json;
  };
}

/**
 * How long `expect.poll` waits for something a page does after a click (a delivery to an app and
 * back, a clipboard write, a live line): vitest's default is one second, which a machine at a load
 * average of 8 on 2 cores passes (CI's machine is shared). Polling returns as soon as it holds, so a
 * long limit costs nothing when all is well; it is below the tests' own timeouts, so a change that
 * never comes still fails with the poll's message.
 */
export const EVENTUALLY = { timeout: 15_000, interval: 100 } as const;

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(p: Page): Promise<void> {
  expect(await axeViolations(p)).toEqual([]);
}

/** The app card (or link card) whose block has a heading named `title`. */
export const cardByTitle = (p: Page, title: string) => p.locator('[data-card]', { has: p.getByRole('heading', { name: title }) });

/**
 * A browser context signed in with `apiKey` through the sign-in form. `bypassCSP`: axe-core is
 * injected as an inline script, which the console's policy refuses.
 */
export async function signedIn(browser: Browser, p: Platform, apiKey: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1200, height: 900 } });
  // Below the test timeout, so a missing element fails with playwright's own message.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(`${p.url}/console/sign-in`);
  await page.getByLabel('Your API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
  return { context, page };
}

/**
 * A self-hosted app made by the owner (`owner`: `apiCalls` of their key) from `manifest` (its name,
 * slug and endpoint are the app's), its production manifest set and the version the consent screen
 * offers installed in the workspace.
 */
export async function installedSelfHostedApp(
  owner: ReturnType<typeof apiCalls>,
  manifest: { name: string; slug: string; endpoint: { url: string } } & Record<string, unknown>,
): Promise<{ appId: string; installId: string }> {
  const created = await owner('POST', '/client/v1/apps', { name: manifest.name, slug: manifest.slug, hosting: 'self', endpoint: manifest.endpoint });
  const appId = created.app.id as string;
  await owner('PUT', `/v0/apps/${appId}/manifest`, { target: 'production', manifest });
  const consent = await owner('GET', `/client/v1/apps/${appId}/consent`);
  const installId = (await owner('POST', `/client/v1/apps/${appId}/installs`, { version: consent.consent.version })).install.id as string;
  return { appId, installId };
}
