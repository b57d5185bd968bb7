/**
 * `ui.*` and `renderTree`: references in document order, one per distinct action, a table to
 * match; every catalog component has a builder; every builder export documents an example.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../../../sandbox-lib/src/catalog/spec/registry.ts';
import { kitchenSink, sink } from './fixtures.ts';
import { expectValid, renderTree, ui, validateTree } from './helpers.ts';

function typesOf(node: unknown, into = new Set<string>()): Set<string> {
  if (node && typeof node === 'object') {
    const { type, content } = node as { type?: string; content?: unknown[] };
    if (type) into.add(type);
    for (const child of content ?? []) typesOf(child, into);
  }
  return into;
}

describe('renderTree', () => {
  it('assigns a0, a1, … in document order and builds the table', () => {
    const { tree, actions } = renderTree(ui.block({ summary: 'S' }, [
      ui.choiceGroup({ name: 'c', label: 'C', onChange: 'vote', choices: [{ value: 'a', label: 'A' }] }),
      ui.actions([ui.button({ label: 'Approve', action: 'approve', args: { id: 7 } }), ui.button({ label: 'Reject', action: ui.action('reject') })]),
    ]));
    expect(actions).toEqual({ a0: { name: 'vote' }, a1: { name: 'approve', args: { id: 7 } }, a2: { name: 'reject' } });
    expect(tree.content?.[0]).toMatchObject({ attrs: { onChange: { ref: 'a0' } } });
    expect(tree.content?.[1]).toMatchObject({ content: [{ attrs: { action: { ref: 'a1' } } }, { attrs: { action: { ref: 'a2' } } }] });
    expectValid(validateTree(tree, actions));
  });

  it('gives the same action with the same args one reference, and different args their own', () => {
    const { actions, tree } = renderTree(ui.block({ summary: 'S' }, [
      ui.row([ui.text('x'), ui.button({ label: 'One', action: 'go', args: { n: 1 } }), ui.button({ label: 'Two', action: 'go', args: { n: 2 } })]),
      ui.actions([ui.button({ label: 'Again', action: 'go', args: { n: 1 } })]),
    ]));
    expect(actions).toEqual({ a0: { name: 'go', args: { n: 1 } }, a1: { name: 'go', args: { n: 2 } } });
    expect(tree.content?.[1]).toMatchObject({ content: [{ attrs: { label: 'Again', action: { ref: 'a0' } } }] });
  });

  it('writes plain JSON: no undefined members, no action calls left', () => {
    const { tree } = sink();
    expect(JSON.parse(JSON.stringify(tree))).toEqual(tree);
    expect(JSON.stringify(tree)).not.toContain('undefined');
  });

  it('leaves drafts untouched, so one draft renders the same twice', () => {
    const draft = kitchenSink();
    expect(renderTree(draft)).toEqual(renderTree(draft));
  });
});

describe('coverage', () => {
  it('the kitchen sink uses every component of the registry, and is valid', () => {
    const { tree, actions } = sink();
    expect([...typesOf(tree)].filter((t) => t !== 'text').sort()).toEqual([...REGISTRY.keys()].sort());
    expectValid(validateTree(tree, actions));
  });

  it('every builder of `ui` and renderTree carry JSDoc with an example', () => {
    const dir = fileURLToPath(new URL('../../../sandbox-lib/src/catalog/builders/', import.meta.url));
    const sources = readdirSync(dir).map((file) => readFileSync(dir + file, 'utf8'));
    for (const name of [...Object.keys(ui), 'renderTree']) {
      const source = sources.find((s) => new RegExp(`^export (?:function|const) ${name}\\b`, 'm').test(s));
      const at = source?.search(new RegExp(`^export (?:function|const) ${name}\\b`, 'm')) ?? -1;
      // The JSDoc block right above the declaration, with nothing but whitespace in between.
      const doc = source ? source.slice(source.lastIndexOf('/**', at), at) : '';
      const adjacent = doc.slice(doc.indexOf('*/') + 2).trim() === '';
      expect({ name, documented: adjacent && doc.includes('@example') }).toEqual({ name, documented: true });
    }
  });
});
