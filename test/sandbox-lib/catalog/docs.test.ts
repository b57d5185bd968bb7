/**
 * docs/catalog.md covers every component of the registry: a heading naming its node type, and
 * every one of its attributes mentioned in that section. Adding a component or an attribute without
 * documenting it fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ICONS, RESERVED_ICONS, ui, validateTree } from '../../../sandbox-lib/src/catalog/index.ts';
import { REGISTRY } from '../../../sandbox-lib/src/catalog/spec/registry.ts';

const doc = readFileSync(new URL('../../../docs/catalog.md', import.meta.url), 'utf8');
const sections = doc.split(/^(?=#{2,3} )/m);

describe('docs/catalog.md', () => {
  it.each([...REGISTRY.keys()])('documents %s and each of its attributes', (type) => {
    const section = sections.find((s) => s.startsWith('### ') && s.split('\n')[0]!.includes(`\`${type}\``));
    expect(section, `no "###" heading names \`${type}\``).toBeDefined();
    const missing = Object.keys(REGISTRY.get(type)!.attrs).filter((attr) => !section!.includes(`\`${attr}\``));
    expect(missing).toEqual([]);
  });

  it('lists every icon and every reserved icon', () => {
    expect([...ICONS, ...RESERVED_ICONS].filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });

  it('its example document is valid with its example table', () => {
    const [tree, table] = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));
    expect(validateTree(tree, { a0: table.a0 })).toEqual({ valid: true });
  });

  it('its builder examples run and build the component they document', () => {
    // The "**Example:**" bullets, with their continuation lines.
    const lines = doc.split('\n');
    const examples = lines.flatMap((line, i) => {
      if (!line.includes('**Example:**')) return [];
      const rest = lines.slice(i + 1);
      const more = rest.slice(0, rest.findIndex((l) => !l.startsWith('  `')));
      return [line, ...more];
    });
    const snippets = examples.flatMap((line) => [...line.matchAll(/`(ui\.[a-zA-Z]+\([^`]*\))`/g)].map((m) => m[1]!));
    expect(snippets.length).toBeGreaterThan(35);
    for (const snippet of snippets) {
      const draft = new Function('ui', `return ${snippet}`)(ui) as { type?: string };
      expect({ snippet, type: typeof draft.type }).toEqual({ snippet, type: 'string' });
    }
  });
});
