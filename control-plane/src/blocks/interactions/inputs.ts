/**
 * @module blocks/interactions/inputs
 * Viewer inputs: the choice inputs a block type declares in its manifest (`inputs`). The service
 * keeps each member's pick and counts them (`tallies`: every input, every declared value, zero
 * included), delivered with every action of the block. A member sees the tallies, their own pick
 * and, for inputs that are not `anonymous`, who picked what (at most `VOTERS_SHOWN` per value).
 * An anonymous input never tells who chose: no names in any view, and the change of an anonymous
 * input reaches the app without an `actor`.
 *
 * The counts (tallies, and the member's own picks) come with the block's row when the member's
 * side reads it (`InputCounts`, blocks/records/store.ts); who picked what is read only when some
 * named input has picks. Without counts at hand one query reads everything a click needs (the
 * tallies it delivers and the view it answers).
 */
import type { InputDefinition } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import type { InputCounts } from '../records/store.ts';

export type Tallies = Record<string, Record<string, number>>;

export const VOTERS_SHOWN = 50;
/** Names are shown for a bounded number of the latest picks: a poll of thousands lists the latest. */
const VOTERS_SCANNED = 2_000;

export interface InputView {
  values: string[];
  multiple: boolean;
  anonymous: boolean;
  /** The viewer's own pick. */
  mine: string[];
  tallies: Record<string, number>;
  /** Who picked each value (non-anonymous inputs only), most recent first. */
  voters?: Record<string, Array<{ memberId: string; name: string }>>;
}

export interface InputsSnapshot {
  tallies: Tallies;
  /** What the member the snapshot was read for sees of each input. */
  views: Record<string, InputView>;
}

type Inputs = Readonly<Record<string, InputDefinition>>;

/** Counts read with a block's row: `[name, value, picks]` of every picked value, `[name, value]` of the member's own. */

interface Row {
  k: 't' | 'm' | 'v';
  name: string;
  value: string;
  member_id: string | null;
  member_name: string | null;
  n: number;
}

const VOTERS = `select 'v' as k, p.name, v.value, p.member_id, p.member_name, 0 as n
  from (select i.name, i.value, i.member_id, m.name as member_name, i.updated_at from block_inputs i join members m on m.id = i.member_id
         where i.block_id = $1 and i.name = any($2::text[]) order by i.updated_at desc, i.member_id limit $3) p
  cross join lateral jsonb_array_elements_text(p.value) as v(value)
  order by p.updated_at desc, p.member_id`;

/**
 * Tallies of every declared input (values no longer declared are not counted), and the member's
 * view of each. `counted`: the counts read with the block's row, when no pick changed since.
 * @example
 * const { tallies, views } = await readInputs(db, block.id, type.definition.inputs, actor.memberId);
 */
export async function readInputs(db: Db, blockId: string, inputs: Inputs, memberId: string, counted?: InputCounts): Promise<InputsSnapshot> {
  const names = Object.keys(inputs);
  const tallies: Tallies = {};
  const views: Record<string, InputView> = {};
  for (const name of names) {
    const input = inputs[name]!;
    tallies[name] = Object.fromEntries(input.values.map((v) => [v, 0]));
    views[name] = {
      values: [...input.values], multiple: input.multiple === true, anonymous: input.anonymous === true, mine: [], tallies: tallies[name],
      ...(input.anonymous === true ? {} : { voters: Object.fromEntries(input.values.map((v) => [v, []])) }),
    };
  }
  if (names.length === 0) return { tallies, views };
  const named = names.filter((n) => inputs[n]!.anonymous !== true);
  let rows: Row[];
  if (counted === undefined) {
    rows = (await db.query<Row>(
      `select 't' as k, i.name, v.value, null as member_id, null as member_name, count(*)::int as n
         from block_inputs i cross join lateral jsonb_array_elements_text(i.value) as v(value) where i.block_id = $1 group by i.name, v.value
       union all
       select 'm', i.name, v.value, null, null, 0
         from block_inputs i cross join lateral jsonb_array_elements_text(i.value) as v(value) where i.block_id = $1 and i.member_id = $2
       union all
       (select 'v', p.name, v.value, p.member_id, p.member_name, 0
          from (select i.name, i.value, i.member_id, m.name as member_name, i.updated_at from block_inputs i join members m on m.id = i.member_id
                 where i.block_id = $1 and i.name = any($3::text[]) order by i.updated_at desc, i.member_id limit $4) p
          cross join lateral jsonb_array_elements_text(p.value) as v(value)
         order by p.updated_at desc, p.member_id)`,
      [blockId, memberId, named, VOTERS_SCANNED])).rows;
  } else {
    rows = [
      ...counted.tallies.map(([name, value, n]): Row => ({ k: 't', name, value, member_id: null, member_name: null, n })),
      ...counted.mine.map(([name, value]): Row => ({ k: 'm', name, value, member_id: null, member_name: null, n: 0 })),
    ];
    // Names are read only for named inputs someone picked (a declared value of).
    const picked = named.filter((n) => counted.tallies.some(([name, value, count]) => name === n && count > 0 && inputs[n]!.values.includes(value)));
    if (picked.length > 0) rows.push(...(await db.query<Row>(VOTERS, [blockId, picked, VOTERS_SCANNED])).rows);
  }
  for (const r of rows) {
    const view = views[r.name];
    if (view === undefined || !view.values.includes(r.value)) continue;
    if (r.k === 't') view.tallies[r.value] = r.n;
    else if (r.k === 'm') view.mine.push(r.value);
    else {
      const list = view.voters?.[r.value];
      if (list !== undefined && list.length < VOTERS_SHOWN) list.push({ memberId: r.member_id!, name: r.member_name! });
    }
  }
  return { tallies, views };
}

/** Stores a member's pick (an empty list clears it). */
export async function setPick(db: Db, blockId: string, name: string, memberId: string, values: readonly string[], at: Date): Promise<void> {
  if (values.length === 0) {
    await db.query('delete from block_inputs where block_id = $1 and name = $2 and member_id = $3', [blockId, name, memberId]);
    return;
  }
  await db.query(
    `insert into block_inputs (block_id, name, member_id, value, updated_at) values ($1, $2, $3, $4::jsonb, $5)
     on conflict (block_id, name, member_id) do update set value = excluded.value, updated_at = excluded.updated_at`,
    [blockId, name, memberId, JSON.stringify(values), at]);
}
