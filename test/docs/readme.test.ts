import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README_PATH, currentConfigSection, renderConfigSection } from '../../scripts/readme-config.ts';

describe('README', () => {
  it('lists every configuration variable exactly as the code defines it', () => {
    const section = currentConfigSection(readFileSync(README_PATH, 'utf8'));
    // Regenerate with: node --conditions=source scripts/readme-config.ts --write
    expect(section).toBe(renderConfigSection());
  });
});
