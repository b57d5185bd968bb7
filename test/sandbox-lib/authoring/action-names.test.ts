/**
 * Type-level tests of action names, checked by `npm run typecheck` (tsc): inside a block's
 * `render` and in the trees its inline actions answer, every builder that takes an action
 * (`ui.button`, `ui.submit`, `ui.menuItem`, `ui.action`, a field's `onChange`, a select's
 * `search`, a table row's menu) takes only the block's action names; each `@ts-expect-error`
 * line must be an error there, or tsc reports the directive unused. Trees built apart (no
 * block around them) take any name. At run time the trees are rendered and the service's
 * own check of names (its action table) is what stops a wrong one in a built bundle.
 */
import * as z from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineAction, defineBlock, renderTree, ui, type Draft } from '@platform/sdk';

const props = z.object({ title: z.string().default('Ticket') });
const state = z.object({ bumps: z.int().min(0).default(0) });

// Built apart: no block's names reach these builders, so any name is accepted.
const apartRow = ui.actions([ui.button({ label: 'Anything', action: 'not-an-action-of-any-block' })]);
const apartCall = ui.action('free-name', { id: 1 });

describe('action names inside a block', () => {
  it('render takes the block\'s names in every builder that takes an action, and no other', () => {
    const ticket = defineBlock({
      type: 'ticket', title: 'Ticket', props, state,
      actions: {
        bump: { handler: ({ state: s }) => ({ state: { bumps: s.bumps + 1 } }) },
        close: { destructive: true, handler: () => ({}) },
        assign: { search: () => [] },
      },
      render: ({ props: p, state: s }) => ui.block({ summary: `${p.title}: ${s.bumps}` }, [
        ui.header({ title: p.title }),
        ui.form([ui.textInput({ name: 'note', label: 'Note' }), ui.submit({ label: 'Save', action: 'bump' })]),
        ui.choiceGroup({ name: 'pick', label: 'Pick', onChange: 'bump', choices: [{ value: 'a', label: 'A' }] }),
        ui.select({ name: 'owner', label: 'Owner', search: 'assign', onChange: ui.action('bump', { by: 1 }) }),
        ui.table({ columns: [{ label: 'Task' }], rows: [{ cells: ['Review'], menu: [{ label: 'Close', action: 'close' }] }] }),
        ui.section({ title: 'More' }, [ui.row([ui.text('Row'), ui.button({ label: 'Bump', action: 'bump' })])]),
        // A row built apart fits too: its names are its own business.
        apartRow,
        ui.actions([
          ui.button({ label: 'Bump', action: 'bump' }),
          ui.button({ label: 'Close', action: 'close', intent: 'destructive', confirm: { title: 'Close it?' } }),
          ui.button({ label: 'Free', action: apartCall }),
          // @ts-expect-error not an action of the block
          ui.button({ label: 'Typo', action: 'bmup' }),
          // @ts-expect-error not an action of the block
          ui.button({ label: 'Typo', action: ui.action('bmup') }),
          ui.menu({ label: 'More' }, [
            ui.menuItem({ label: 'Close', action: 'close' }),
            // @ts-expect-error not an action of the block
            ui.menuItem({ label: 'Typo', action: 'clsoe' }),
          ]),
        ]),
        // @ts-expect-error not an action of the block
        ui.form([ui.submit({ label: 'Typo', action: 'sav' })]),
        // @ts-expect-error not an action of the block
        ui.toggle({ name: 'on', label: 'On', onChange: 'flip' }),
        // @ts-expect-error not an action of the block
        ui.select({ name: 'who', label: 'Who', search: 'find' }),
        // @ts-expect-error not an action of the block
        ui.table({ columns: [{ label: 'Task' }], rows: [{ cells: ['Review'], menu: [{ label: 'Reopen', action: 'reopen' }] }] }),
        ui.actions(['one', 'two'].map((label) =>
          // @ts-expect-error not an action of the block (a mapped list gets the names too)
          ui.button({ label, action: 'mapped' }))),
      ]),
    });
    expect(ticket.manifest.actions.map((a) => a.name)).toEqual(['bump', 'close', 'assign']);
  });

  it('an async render, returning from a block body, and a conditional tree are checked the same way', () => {
    defineBlock({
      type: 'async', title: 'Async', props, state,
      actions: { bump: { handler: () => ({}) } },
      render: async ({ state: s }) => {
        if (s.bumps > 9) return renderTree(ui.block({ summary: 'Done' }, []));
        return s.bumps > 0
          ? ui.block({ summary: 'Some' }, [ui.actions([ui.button({ label: 'Bump', action: 'bump' })])])
          // @ts-expect-error not an action of the block
          : ui.block({ summary: 'None' }, [ui.actions([ui.button({ label: 'Bump', action: 'bunp' })])]);
      },
    });
  });

  it('the trees an inline action answers take the block\'s names', () => {
    defineBlock({
      type: 'answers', title: 'Answers', props, state,
      actions: {
        bump: { handler: ({ state: s }) => ({ state: s, tree: ui.block({ summary: 'Bumped' }, [ui.actions([ui.button({ label: 'Again', action: 'bump' })])]) }) },
        undo: {
          handler: (_ctx) => ({
            // @ts-expect-error not an action of the block
            tree: ui.block({ summary: 'Undone' }, [ui.actions([ui.button({ label: 'Redo', action: 'redo' })])]),
          }),
        },
      },
      render: (_ctx) => ui.block({ summary: 'Answers' }, [ui.actions([ui.button({ label: 'Undo', action: 'undo' })])]),
    });
  });

  it('not checked, as decided: a render or handler without parameters, and a block without actions', () => {
    // TypeScript types a function without parameters before it knows the block's names (it is
    // not context-sensitive), so its builders take any name; `(_ctx) =>` is checked.
    defineBlock({
      type: 'static', title: 'Static', props, state,
      actions: { bump: { handler: () => ({ tree: ui.block({ summary: 'Bumped' }, [ui.actions([ui.button({ label: 'Unchecked', action: 'unchecked' })])]) }) } },
      render: () => ui.block({ summary: 'Static' }, [ui.actions([ui.button({ label: 'Unchecked', action: 'unchecked' })])]),
    });
    defineBlock({
      type: 'still', title: 'Still', props, state,
      render: ({ state: s }) => ui.block({ summary: `Still ${s.bumps}` }, [ui.actions([ui.button({ label: 'Unchecked', action: 'unchecked' })])]),
    });
  });
});

describe('trees built apart', () => {
  it('take any name, and render to the same tree as before', () => {
    const draft = ui.block({ summary: 'Apart' }, [ui.actions([ui.button({ label: 'Go', action: 'any-name' }), ui.menu({ label: 'More' }, [ui.menuItem({ label: 'X', action: 'x' })])])]);
    expectTypeOf(draft).toEqualTypeOf<Draft>();
    expectTypeOf(ui.action('free')).toEqualTypeOf<ReturnType<typeof ui.action>>();
    const { tree, actions } = renderTree(draft);
    expect(Object.values(actions)).toEqual([{ name: 'any-name' }, { name: 'x' }]);
    expect(JSON.stringify(tree)).not.toContain('any-name');
  });

  it('a defineAction apart answers trees of any names (it knows no block)', () => {
    const apart = defineAction<{ title: string }, { bumps: number }>({
      handler: () => ({ tree: ui.block({ summary: 'Apart' }, [ui.actions([ui.button({ label: 'Elsewhere', action: 'elsewhere' })])]) }),
    });
    const block = defineBlock({ type: 'holder', title: 'Holder', props, state, actions: { apart }, render: (_ctx) => ui.block({ summary: 'Holder' }, [ui.actions([ui.button({ label: 'Apart', action: 'apart' })])]) });
    expect(block.manifest.actions.map((a) => a.name)).toEqual(['apart']);
  });
});
