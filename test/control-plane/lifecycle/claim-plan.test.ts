/**
 * The claims of the delivery and schedule loops read due rows in index order and stop at their
 * limit, whatever the statistics say (decisions/lifecycle.md, "Claims read due rows in index
 * order"): a bitmap scan of every due row plus a sort made each claim cost the whole backlog.
 * Checked on the plans Postgres chooses, inside the transaction the claims run in.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, type Db } from '@platform/control-plane';
import { CLAIM_SQL, preferOrderedScan } from '../../../control-plane/src/deliveries/outbox/store.ts';
import { claimDueSchedules } from '../../../control-plane/src/deliveries/schedules/store.ts';
import { describeWithService, freshPgSchema, postgresState } from '../../helpers/services.ts';

/** The plan's text (EXPLAIN, nothing executed) of `sql` with `params`, after `prepare` in the same transaction. */
async function plan(db: Db, sql: string, params: unknown[], prepare: (tx: Db) => Promise<void>): Promise<string> {
  return db.transaction(async (tx) => {
    await prepare(tx);
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

describeWithService('claims on real Postgres', await postgresState(), (url) => {
  let pg: Awaited<ReturnType<typeof freshPgSchema>>;
  beforeAll(async () => {
    pg = await freshPgSchema(url);
    await migrate(pg.db);
  });
  afterAll(async () => pg.drop());

  it('take due deliveries through the partial due index in order, with no sort and no bitmap scan, when statistics predate a backlog', async () => {
    // The bench's situation: statistics taken while nearly every delivery was delivered, then a
    // backlog of due ones. Rows only (no installs behind them): replica mode skips the foreign keys.
    const now = Date.now();
    const rows = (count: number, status: string, from: number) => pg.db.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `insert into deliveries (id, app_id, install_id, class, type, event_id, status, next_attempt_at, created_at)
         select 'dlv_' || g, 'app', 'ins', 'lifecycle', 'queue.message', 'evt_' || g, $2, case when $2 = 'pending' then $3::timestamptz - (g || ' ms')::interval end, $3
           from generate_series($4::int, $4::int + $1::int - 1) g`,
        [count, status, new Date(now), from]);
    });
    await rows(5_000, 'delivered', 0);
    await rows(20, 'pending', 5_000);
    await pg.db.query('analyze deliveries');
    await rows(20_000, 'pending', 10_000);
    const params = [new Date(now), 200, 'lease', new Date(now)];
    // Left to itself the planner may or may not read every due row and sort them, depending on
    // statistics a test cannot pin down (the bench met it at 23,000 pending); with the preference,
    // the plan is the ordered scan whatever they say.
    const text = await plan(pg.db, CLAIM_SQL, params, preferOrderedScan);
    expect(text).toMatch(/Index Scan using deliveries_due_idx on deliveries/);
    expect(text).not.toMatch(/Sort|Bitmap/);
  });

  it('take due schedule rows through their due index in order (claimDueSchedules sets the same preference)', async () => {
    let seen = '';
    await pg.db.transaction(async (tx) => {
      await claimDueSchedules(tx, { now: new Date(), limit: 1 });
      const { rows } = await tx.query<{ setting: string }>(`select current_setting('enable_bitmapscan') as setting`);
      seen = rows[0]!.setting;
      const explained = await tx.query<{ 'QUERY PLAN': string }>(
        `explain select install_id from install_schedules s where s.next_due_at <= $1 order by s.next_due_at limit $2 for update of s skip locked`, [new Date(), 2000]);
      seen += '\n' + explained.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(seen).toMatch(/^off\n/);
    expect(seen).toMatch(/Index Scan using install_schedules_due_idx/);
    expect(seen).not.toMatch(/Sort|Bitmap/);
  });
});
