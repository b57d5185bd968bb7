import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { README_PATH, currentConfigSection, renderConfigSection } from '../../scripts/readme-config.ts';

describe('README', () => {
  it('lists every configuration variable exactly as the code defines it', () => {
    const section = currentConfigSection(readFileSync(README_PATH, 'utf8'));
    // Regenerate with: node --conditions=source scripts/readme-config.ts --write
    expect(section).toBe(renderConfigSection());
  });
});

describe('the documents of a clone', () => {
  // A clone has no ../shared/ (or /work/shared/): the design notes live beside this repository only.
  const ROOT = join(import.meta.dirname, '../..');
  const files = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

  it.each(files)('%s points at nothing outside the repository', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text.match(/(\.\.\/shared\/|\/work\/shared\/)\S*/g) ?? []).toEqual([]);
  });
});
