// The README's app is real: the fixture equals the README's `// app.ts` block (imports aside),
// its manifest validates, and its button increments the counter through a signed delivery.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_KEYS, validateManifest } from '@platform/sdk';
import app from '../../fixtures/apps/readme-counter.ts';
import { COUNTER, envelope, SECRET, signedRequest } from './helpers.ts';

const code = (text: string) => text.split('\n').filter((line) => !line.startsWith('import ') && !line.startsWith('//')).join('\n').trim();

describe('the README app', () => {
  it('is the fixture', () => {
    const readme = readFileSync(new URL('../../../sandbox-lib/README.md', import.meta.url), 'utf8');
    const block = /```ts\n\/\/ app\.ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const fixture = readFileSync(new URL('../../fixtures/apps/readme-counter.ts', import.meta.url), 'utf8');
    expect(code(block)).not.toBe('');
    expect(code(fixture)).toBe(code(block));
  });

  it('computes a valid manifest with its command', () => {
    expect(validateManifest(app.manifest).valid).toBe(true);
    expect(app.manifest.commands?.[0]?.name).toBe('count');
    expect(app.manifest.scopes).toEqual([]);
  });

  it('increments on a click', async () => {
    const body = envelope('block.action', { block: { ...COUNTER, state: { count: 41 } }, action: { name: 'increment', args: {} }, tallies: {}, invocationId: 'inv_1', interactionToken: 'platint_1' });
    const response = await app.fetch(await signedRequest(body, { timestamp: Math.floor(Date.now() / 1000) }), { [ENV_KEYS.signingSecret]: SECRET });
    expect(response.status).toBe(200);
    const result = await response.json() as { state: unknown; tree: { attrs: { summary: string } } };
    expect([result.state, result.tree.attrs.summary]).toEqual([{ count: 42 }, 'Clicks: 42']);
  });
});

