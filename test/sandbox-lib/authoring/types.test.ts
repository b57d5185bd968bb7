/**
 * Type-level tests of the authoring API, checked by `npm run typecheck` (tsc): `expectTypeOf`
 * asserts a type, and each `@ts-expect-error` line must be an error, or tsc reports the directive
 * unused. At run time these only define pieces. Inline action `args` and `input` are typed from
 * their own schemas; `ctx.actor` and `ctx.block` list their fields only.
 */
import * as z from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineAction, defineBlock, ui, type BlockAsDelivered, type HandlerContext } from '@platform/sdk';

const props = z.object({ question: z.string() });
const state = z.object({ votes: z.int() });

describe('inline block actions', () => {
  it('type args and input from their own schemas, props and state from the block', () => {
    const block = defineBlock({
      type: 'poll', title: 'Poll', props, state,
      actions: {
        vote: {
          args: z.object({ choice: z.enum(['yes', 'no']) }),
          handler: ({ args, props: p, state: s }) => {
            expectTypeOf(args).toEqualTypeOf<{ choice: 'yes' | 'no' }>();
            expectTypeOf(p).toEqualTypeOf<{ question: string }>();
            expectTypeOf(s).toEqualTypeOf<{ votes: number }>();
            // @ts-expect-error not a field of the args schema
            void args.nope;
            return { state: { votes: s.votes + 1 } };
          },
          search: ({ args }) => {
            expectTypeOf(args.choice).toEqualTypeOf<'yes' | 'no'>();
            return [];
          },
        },
        comment: {
          input: z.object({ text: z.string().max(200) }),
          handler: ({ input, args }) => {
            expectTypeOf(input).toEqualTypeOf<{ text: string } | undefined>();
            expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
          },
        },
        both: {
          args: z.object({ n: z.int() }),
          input: z.object({ note: z.string().optional() }),
          handler: ({ args, input }) => {
            expectTypeOf(args.n).toEqualTypeOf<number>();
            expectTypeOf(input).toEqualTypeOf<{ note?: string | undefined } | undefined>();
          },
        },
        jsonSchema: {
          args: { type: 'object', properties: { id: { type: 'string' } } },
          handler: ({ args }) => {
            expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
          },
        },
        plain: {
          handler: ({ args }) => {
            expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
          },
        },
        apart: defineAction<{ question: string }, { votes: number }>({ handler: ({ state: s }) => ({ state: { votes: s.votes } }) }),
        wrongState: {
          // @ts-expect-error the block's state has no `count`
          handler: () => ({ state: { count: 1 } }),
        },
      },
      render: ({ props: p }) => ui.block({ summary: p.question }, []),
    });
    expect(block.manifest.actions.map((action) => action.name)).toEqual(['vote', 'comment', 'both', 'jsonSchema', 'plain', 'apart', 'wrongState']);
  });
});

describe('the handler context', () => {
  it('types ctx.actor with its fields only (the member is memberId, not id)', () => {
    type Actor = NonNullable<HandlerContext['actor']>;
    expectTypeOf<Actor>().toEqualTypeOf<{ memberId: string; name: string }>();
    expectTypeOf<HandlerContext['actor']>().toEqualTypeOf<Actor | undefined>();
    const read = (ctx: HandlerContext) => {
      // @ts-expect-error the field is memberId
      void ctx.actor?.id;
      return ctx.actor?.memberId;
    };
    expectTypeOf(read).returns.toEqualTypeOf<string | undefined>();
  });

  it('types ctx.block with its fields only', () => {
    defineBlock({
      type: 'note', title: 'Note', props, state,
      render: ({ block }) => {
        expectTypeOf(block.revision).toEqualTypeOf<number>();
        expectTypeOf<keyof typeof block>().toEqualTypeOf<'id' | 'type' | 'props' | 'state' | 'revision' | 'version'>();
        expectTypeOf(block.props).toEqualTypeOf<BlockAsDelivered['props']>();
        // @ts-expect-error not a field of a delivered block
        void block.revison;
        return ui.block({ summary: block.id }, []);
      },
    });
  });
});
