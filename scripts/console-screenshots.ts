// Screenshots of each console page family, for docs/console/ (linked from the README):
//   node --no-node-snapshot --conditions=source scripts/console-screenshots.ts
// Starts `npm start` on free ports with a fresh data directory (test/helpers/npm-start.ts), opens
// the printed sign-in link in Debian's chromium, acts a little so the cards show their states
// (a field error, an approval, a vote, a private answer, a validator's message in the playground,
// the playground's sample tried against a development app run the way `platform dev` runs one) and the example app's
// settings pages have something to show (a second version to diff, variables, a domain, a rotated
// signing secret), and writes one PNG per page.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { startPlaygroundDevApp } from '../test/fixtures/playground/dev-app.ts';
import { launchBrowser, chromiumPath } from '../test/helpers/browser.ts';
import { startPlatform } from '../test/helpers/npm-start.ts';

const OUT = fileURLToPath(new URL('../docs/console/', import.meta.url));

if (chromiumPath() === null) {
  console.error('chromium is not installed (apt-get install chromium, or set CHROMIUM_PATH)');
  process.exit(1);
}
await mkdir(OUT, { recursive: true });
const platform = await startPlatform();

/** The owner's call of the platform's API, as an author's tooling makes it. */
async function owner(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${platform.url}${path}`, { method, headers: { authorization: `Bearer ${platform.credentials.owner.apiKey}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/** The example app's page, its versions and a diff (a preview widening its access), variables, a domain, a rotated secret. */
async function appSettings(page: Page, appId: string, shot: (name: string) => Promise<unknown>): Promise<void> {
  const { manifest } = await owner('GET', `/v0/apps/${appId}/manifest`);
  const widened = { ...manifest, description: 'Deploy approvals, lunch polls and release notes', scopes: [...manifest.scopes, 'decisions:read'], events: [...manifest.events, 'decision.published'] };
  const live = (await owner('GET', `/v0/apps/${appId}/versions`)).items.find((v: { live: boolean }) => v.live).version as number;
  const preview = (await owner('PUT', `/v0/apps/${appId}/manifest`, { target: 'preview', manifest: widened })).version as number;
  await owner('PUT', `/v0/apps/${appId}/env/production/DEPLOY_API_TOKEN`, { value: 'not-shown', secret: true });
  await owner('PUT', `/v0/apps/${appId}/env/production/REGION`, { value: 'eu-west-1', secret: false });
  await owner('POST', `/client/v1/apps/${appId}/domains`, { domain: 'deploy-desk.example.com' });
  for (const [name, path] of [['app', ''], ['app-versions', '/versions'], ['app-version-diff', `/versions/compare?from=${live}&to=${preview}`], ['app-domains', '/domains']] as const) {
    await page.goto(`${platform.url}/console/apps/${appId}${path}`);
    await shot(name);
  }
  await page.goto(`${platform.url}/console/apps/${appId}/env`);
  await page.getByLabel('Key').fill('2FA-KEY');
  await page.getByRole('button', { name: 'Save variable' }).click();
  await page.locator('#env-key-error').waitFor();
  await shot('app-env');
  await page.goto(`${platform.url}/console/apps/${appId}/credentials`);
  await page.getByRole('button', { name: 'Rotate signing secret' }).click();
  await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate' }).click();
  await page.locator('#new-secret').waitFor();
  await shot('app-credentials');
}
const browser = await launchBrowser();
// The owner's development app, so the playground offers "Try".
const devApp = await startPlaygroundDevApp({ baseUrl: platform.url, apiKey: platform.credentials.owner.apiKey });
try {
  const anonymous = await (await browser.newContext({ viewport: { width: 1100, height: 700 } })).newPage();
  await anonymous.goto(`${platform.url}/console/sign-in`);
  await anonymous.screenshot({ path: `${OUT}sign-in.png` });

  const page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
  const shot = (name: string) => page.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
  await page.goto(platform.consoleLink);
  await page.waitForURL(/\/console\/conversations\//);
  const conversation = page.url();
  await shot('conversation');

  const deploy = page.locator('[data-card]', { has: page.getByRole('heading', { name: 'Deploy checkout v2.4.1' }) });
  await deploy.getByLabel('Reason to reject').fill('no');
  await deploy.getByRole('button', { name: 'Reject' }).click();
  await deploy.locator('.pb-field-error').waitFor();
  await deploy.screenshot({ path: `${OUT}card-field-error.png` });
  await deploy.getByRole('button', { name: 'Approve' }).click();
  await page.locator('.pb-status', { hasText: 'Approved' }).waitFor();
  await page.getByLabel('Pizza').check();
  await page.locator('.pb-tally', { hasText: '1 vote' }).waitFor();
  await page.locator('summary', { hasText: '/status' }).click();
  await page.locator('details.command[open]').getByRole('button', { name: 'Run /status' }).click();
  await page.waitForURL(/invocation=/);
  await shot('conversation-after-actions');

  await page.goto(conversation);
  await page.locator('summary', { hasText: '/deploy' }).click();
  await page.locator('details.command[open]').scrollIntoViewIfNeeded();
  await page.locator('.commands').screenshot({ path: `${OUT}command.png` });

  const appId = /\/console\/apps\/(app_[a-z0-9]+)\/deliveries/.exec(await (await page.request.get(`${platform.url}/console/apps`)).text())?.[1] ?? '';
  for (const [name, path] of [
    ['circles', '/console'], ['inbox', '/console/inbox'], ['memories', '/console/memories'], ['search', '/console/search'], ['streams', '/console/streams'],
    ['deliveries', `/console/apps/${appId}/deliveries`], ['admin-apps', '/console/admin/apps'], ['consent', `/console/admin/apps/${appId}/install`],
    ['logs', `/console/apps/${appId}/logs`], ['operator', '/console/operator'],
  ] as const) {
    await page.goto(`${platform.url}${path}`);
    await shot(name);
  }
  await appSettings(page, appId, shot);

  // With a development app, the playground starts with a sample of its first block type.
  await page.goto(`${platform.url}/console/playground`);
  const tree = page.getByLabel('Tree (catalog 1 JSON)');
  await tree.fill((await tree.inputValue()).replace('"label": "Wave"', '"label": "   "'));
  await page.getByRole('button', { name: 'Check and draw' }).click();
  await page.locator('.pb-problem').waitFor();
  await shot('playground');

  // The app's playground: its sample tried as it stands (props and state from the schemas' defaults), its button clicked.
  await page.goto(`${platform.url}/console/apps/${devApp.appId}/playground`);
  await page.getByLabel('Post it in').selectOption(`conversation:${platform.credentials.conversationId}`);
  await page.getByRole('button', { name: 'Try', exact: true }).click();
  await page.locator('.tried').getByRole('button', { name: 'Wave' }).click();
  await page.locator('.tried').getByRole('heading', { name: 'Hello, world!' }).waitFor();
  await shot('playground-try');
  console.log(`screenshots written to ${OUT}`);
} finally {
  await browser.close();
  await devApp.stop();
  await platform.stop();
}
