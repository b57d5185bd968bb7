/**
 * Browser tests drive Debian's `chromium` with `playwright-core` (no browser download). Without
 * chromium they skip with a message saying so, except in CI (CI=true), where they fail instead:
 * `.ci/run` installs chromium. `axeViolations(page)` runs axe-core in the page and answers the
 * serious and critical violations.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export function chromiumPath(): string | null {
  const named = process.env.CHROMIUM_PATH;
  if (named !== undefined && existsSync(named)) return named;
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** Why the browser tests cannot run here, or null when they can. Throws in CI: there they must run. */
export function browserSkipReason(): string | null {
  if (chromiumPath() !== null) return null;
  if (process.env.CI === 'true') throw new Error('CI=true but no chromium: .ci/run installs it (apt-get install chromium)');
  return 'chromium is not installed (apt-get install chromium, or set CHROMIUM_PATH): the console browser tests are skipped';
}

export async function launchBrowser(): Promise<Browser> {
  // --no-sandbox: CI and these machines run as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: chromiumPath()!, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Serious and critical accessibility violations of the page as it is now (WCAG 2 A and AA rules). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run((globalThis as any).document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
