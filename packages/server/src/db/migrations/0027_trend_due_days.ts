/**
 * The trends at scale, continued (issue 39, item 4; views/TrendsQueries.ts, docs/trends.md).
 *
 * - `calls.trend_due_days`: the day each due of `calls.trend_dues` (0025: the dues of the
 *   analysis's dated steps, in order) names, read by chrono from the call's meeting
 *   (`occurred_at`), null where chrono reads none (lib/DueDates.ts `trendDueDays`); null when the
 *   call has no dated step. The trends tell kept from slipped in SQL from these days; read-time
 *   chrono took most of a year's trends (tens of thousands of dues). A generated column cannot run
 *   chrono: the days are written where the analysis is stored (calls/CallsRepo.ts `complete`), and
 *   here for the calls analysed before (in batches, ~10 s per 100,000 calls). A call whose dues
 *   have no days stored (`trend_dues` but no `trend_due_days`: a result written another way) is
 *   read as before, its dues resolved by the service (`calls_trend_due_days_missing_idx` finds
 *   them; empty normally).
 * - `calls_trends_idx` again, now with `trend_due_days` in place of `trend_dues` (read only for the
 *   calls without days, from the heap) and with what `calls_completed_window_idx` (0026) held
 *   beside the same key and predicate (`talk_ratio`, `external_call_id`, `created_at`): one index
 *   where there were two over the same calls (the coaching dashboard and team health read it as
 *   they read the other); `calls_completed_window_idx` is dropped.
 * - `calls_deal_completed_idx` (0025) is dropped: the trends find each call's next call of its
 *   deal in one pass over the window's calls (a window function), no longer call by call, and a
 *   deal's calls are otherwise read from `calls_deal_cover_idx` (0026) or `calls_deal_idx` (0022).
 *
 * Setting the days updates most completed calls once: autovacuum sets their pages all-visible
 * again (index-only scans), or `VACUUM ANALYZE calls` right after.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { trendDueDays } from "../../lib/DueDates.js"

const BATCH = 2000

/**
 * Stores the days of the calls whose dues have none stored (all of them, here), in batches by id;
 * the tests run it on calls they wrote without them (test/Trends.test.ts).
 */
export const storeMissingDueDays = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  let after = ""
  for (;;) {
    const rows = yield* sql<{ call_id: string; occurred_at: Date | string; trend_dues: Array<string> }>`
      SELECT call_id, occurred_at, trend_dues FROM calls
      WHERE trend_dues IS NOT NULL AND trend_due_days IS NULL AND call_id > ${after} ORDER BY call_id LIMIT ${BATCH}`
    if (rows.length === 0) return
    after = rows.at(-1)!.call_id
    const days = rows.map((r) => ({ call_id: r.call_id, days: trendDueDays(r.trend_dues, new Date(r.occurred_at).toISOString()) }))
    yield* sql`
      UPDATE calls c SET trend_due_days = ARRAY(SELECT e.d::date FROM jsonb_array_elements_text(v.days) WITH ORDINALITY AS e(d, i) ORDER BY e.i)
      FROM jsonb_to_recordset(${JSON.stringify(days)}::jsonb) AS v(call_id text, days jsonb)
      WHERE c.call_id = v.call_id AND jsonb_typeof(v.days) = 'array'`
  }
})

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX IF EXISTS calls_trends_idx`
  yield* sql`DROP INDEX IF EXISTS calls_completed_window_idx`
  yield* sql`DROP INDEX IF EXISTS calls_deal_completed_idx`
  yield* sql`ALTER TABLE calls ADD COLUMN trend_due_days date[]`
  yield* storeMissingDueDays
  yield* sql`
    CREATE INDEX calls_trends_idx ON calls (client_id, occurred_at)
      INCLUDE (call_id, closer_email, deal_id, overall_score, talk_ratio, external_call_id, created_at, trend_facts, trend_due_days)
      WHERE status = 'completed'`
  yield* sql`
    CREATE INDEX calls_trend_due_days_missing_idx ON calls (client_id, occurred_at)
      WHERE status = 'completed' AND trend_dues IS NOT NULL AND trend_due_days IS NULL`
  yield* sql`ANALYZE calls`
})
