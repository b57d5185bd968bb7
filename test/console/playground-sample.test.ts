/**
 * The playground's first tree for a block type (console/pages/playground-sample.ts): valid for the
 * catalog with its own action table, a button per action (five, then a "More" menu of up to
 * twelve), destructive ones behind a confirm, and every name one of the type's, so "Try" takes it
 * as it stands.
 */
import { describe, expect, it } from 'vitest';
import { validateTree } from '@platform/sdk';
import { sampleFor, TOUR } from '../../control-plane/src/console/pages/playground-sample.ts';

const type = (names: string[], destructive: string[] = []) => ({
  type: 'ticket', title: 'Ticket', actions: names.map((name) => ({ name, destructive: destructive.includes(name) })),
});

describe('the playground sample of a block type', () => {
  it('has a button per action, labelled from its name, and is valid with its table', () => {
    const { tree, actions } = sampleFor(type(['bump', 'field-errors', 'close'], ['close']));
    expect(validateTree(tree, actions)).toEqual({ valid: true });
    expect(Object.values(actions).map((a) => a.name)).toEqual(['bump', 'field-errors', 'close']);
    const json = JSON.stringify(tree);
    for (const label of ['"Bump"', '"Field errors"', '"Close"']) expect(json).toContain(label);
    expect(json).toContain('"intent":"destructive"');
    expect(json).toContain('"title":"Close?"');
  });

  it('puts actions past five in a menu, up to twelve, and stays valid', () => {
    const names = Array.from({ length: 20 }, (_, i) => `action-${i}`);
    const { tree, actions } = sampleFor(type(names, ['action-7']));
    expect(validateTree(tree, actions)).toEqual({ valid: true });
    expect(Object.values(actions).map((a) => a.name)).toEqual(names.slice(0, 17));
    expect(JSON.stringify(tree)).toContain('"type":"uiMenu"');
  });

  it('a type without actions gets a copy button (a block has one actions bar); a long name is cut to the label limit', () => {
    const none = sampleFor(type([]));
    expect(validateTree(none.tree, none.actions)).toEqual({ valid: true });
    expect(none.actions).toEqual({});
    const long = sampleFor(type(['x'.repeat(64)]));
    expect(validateTree(long.tree, long.actions)).toEqual({ valid: true });
  });

  it('the tour shown without a development install is valid too', () => {
    expect(validateTree(TOUR.tree, TOUR.actions)).toEqual({ valid: true });
  });
});
