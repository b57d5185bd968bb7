/**
 * Copied images and app icons in the console, in chromium with the console's CSP in force (no
 * bypass: images may come only from our origin). A card's image and avatars are drawn from
 * `/assets/{id}` (the service's copies), never from the app's image server; an icon the CLI
 * uploaded beside an app (`platform deploy` finds `icon.png`) shows beside the app's name.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../fixtures/assets/images.ts';
import { browserSkipReason, launchBrowser } from '../helpers/browser.ts';
import { runCli, tempProject, type TempProject } from '../cli/helpers.ts';
import { startAssetsWorld, type AssetsWorld } from '../control-plane/assets/setup.ts';

const skip = browserSkipReason();
if (skip !== null) console.warn(skip);

let w: AssetsWorld;
let browser: Browser;
let project: TempProject;
beforeAll(async () => {
  if (skip !== null) return;
  w = await startAssetsWorld();
  browser = await launchBrowser();
  project = await tempProject('self-hosted');
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await w?.stop();
  await project?.remove();
});

async function signedIn(apiKey: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(`${w.stack.url}/console/sign-in`);
  await page.getByLabel('Your API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
  return page;
}

/** Each image's source and whether the browser drew it (decoded with a size). */
type Img = { src: string; complete: boolean; naturalWidth: number };
const drawn = (page: Page, selector: string) => page.locator(selector).evaluateAll((imgs) =>
  (imgs as unknown as Img[]).map((img) => ({ src: img.src, loaded: img.complete && img.naturalWidth > 0 })));
/** Resolves once every image `selector` finds has finished loading (or failed). */
const settled = (page: Page, selector: string) =>
  page.waitForFunction(`[...document.querySelectorAll(${JSON.stringify(selector)})].every((i) => i.complete)`);

describe.skipIf(skip !== null)('copied images in the console', () => {
  it('a card draws its image and avatars from our /assets/{id}, and loads nothing from the app\'s image server', async () => {
    const src = w.images.put('/card.png', { bytes: png(40, 30) });
    const avatar = w.images.put('/face.png', { bytes: png(8, 8, { rgba: [250, 0, 0, 255] }) });
    const res = await w.insert({ title: 'Screenshots', images: [{ src, alt: 'The new screen' }], avatars: [avatar] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const hitsBefore = w.images.hits('/card.png') + w.images.hits('/face.png');

    const page = await signedIn(w.ws.apiKey);
    const outside: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith(w.stack.url)) outside.push(r.url()); });
    await page.goto(`${w.stack.url}/console/conversations/${w.conversationId}`);
    const card = page.locator('[data-card]', { has: page.getByRole('heading', { name: 'Screenshots' }) });
    await card.getByRole('img', { name: 'The new screen' }).waitFor();
    await settled(page, '[data-card] img');
    const images = await drawn(page, '[data-card] img.pb-image, [data-card] img.pb-avatar');
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.src).toMatch(new RegExp(`^${w.stack.url}/assets/ast_[a-z2-7]{52}$`));
      expect(image.loaded).toBe(true);
    }
    expect(outside).toEqual([]);
    // The member's browser never reached the app's server: its only requests were the copies.
    expect(w.images.hits('/card.png') + w.images.hits('/face.png')).toBe(hitsBefore);
    await page.context().close();
  });

  it('an icon the CLI uploaded beside the app shows beside its name (My apps, and the admin\'s Apps)', { timeout: 60_000 }, async () => {
    await writeFile(join(project.dir, 'icon.png'), png(64, 64, { rgba: [20, 160, 90, 255] }));
    const run = await runCli(['deploy', '--create', '--production'], { cwd: project.dir, env: { PLATFORM_URL: w.stack.url, PLATFORM_API_KEY: w.ws.apiKey } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/Uploaded the icon .*icon\.png \(ast_[a-z2-7]{52}\)/);
    const apps = (await w.ws.client.get('/apps')).body.items as Array<{ slug: string; icon: string | null }>;
    const notes = apps.find((a) => a.slug === 'notes-self')!;
    expect(notes.icon).toMatch(/^ast_[a-z2-7]{52}$/);

    const page = await signedIn(w.ws.apiKey);
    for (const path of ['/console/apps', '/console/admin/apps']) {
      await page.goto(`${w.stack.url}${path}`);
      const row = page.getByRole('row', { name: /Notes/ });
      await row.locator('img.app-icon').waitFor();
      await settled(page, 'img.app-icon');
      const [icon] = await drawn(page, 'tr:has-text("Notes") img.app-icon');
      expect(icon).toEqual({ src: `${w.stack.url}/assets/${notes.icon}`, loaded: true });
    }
    await page.context().close();
  });
});
