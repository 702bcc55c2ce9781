/**
 * Market intelligence's data-hygiene totals from the stored aggregates (issue 39;
 * marketIntel/MarketIntelQueries.ts `hygieneTotals`). At 200 tenants and 100,000 calls, 8 weeks
 * computed from the calls took ~71 ms of one statement a read (the ~14,200 completed calls of the
 * window through `market_intel_call_facts`, every tenant's, each call's twelve flags evaluated),
 * for counts that only change when a call, its outcome, its marks or a profile does.
 *
 * - `market_intel_hygiene_cells`: the hygiene counts per period type and period and tenant (the
 *   completed calls of tenants that are not test tenants, as the view checks them): the calls
 *   checked, those with an issue, marked, excluded, and the calls with each flag (one column per
 *   flag, in the order of `HYGIENE_FLAGS`). Per tenant, so that a window's distinct tenants add up
 *   from any set of them. Written by the rebuild with the other stored aggregates
 *   (`market_intel_cells`, `market_intel_trend_cells`), for the same periods, in the same
 *   transaction: one build, one snapshot, one freshness for the three. The cells are the computed
 *   grain stored, from the same SQL text (`hygieneGrain` over `hygieneCalls`): the flags are
 *   defined once. The list of calls with an issue (the newest 100) stays computed.
 * - Every input of the counts marks its periods stale. Already logged (0011, 0034): a call's
 *   status, result (of which `overall_score`, generated (0024), is made: the score flag), upload
 *   time and tenant; its outcome and its hygiene marks (any column); the profiles, a tenant's test
 *   flag or signup industry (every period). Not yet: `calls.closer_email`, which the closer flag
 *   reads; the calls' trigger is made again with it (the function of 0034 unchanged: a call's
 *   periods by both of its instants). A tenant's name is only in the list, which is computed.
 *
 * Measured on the bench's database (bench/scale.bench.ts, 100,000 calls, 200 tenants, 8 weeks, two
 * runs alternated): the totals' statement from the cells (1,600 rows) ~4 ms; the read's p50
 * 67/63 → 57/56 ms, p95 78/76 → 72/70 ms (the list's statement, ~52 ms, now sets it), PostgreSQL's
 * CPU a read 98/93 → 48/46 ms, the same answer byte for byte; the rebuild of the four period types
 * ~3.2 → ~3.8 s.
 *
 * PostgreSQL and embedded PGlite alike. Nothing is built here: the next rebuild stores the cells
 * (until then the data-hygiene totals are computed, as before).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The flags, in the order of `HYGIENE_FLAGS` (marketIntel/MarketIntelQueries.ts) as of this migration. */
const FLAGS = [
  "industry_missing",
  "industry_contradictory",
  "icp_missing",
  "icp_contradictory",
  "lead_source_missing",
  "lead_source_contradictory",
  "deal_value_missing",
  "currency_contradictory",
  "outcome_closed_before_call",
  "outcome_open_with_close_date",
  "score_missing",
  "closer_missing"
]

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE market_intel_hygiene_cells (
      period_type  text NOT NULL CHECK (period_type IN ('day', 'week', 'month', 'quarter')),
      period_start date NOT NULL,
      client_id    text NOT NULL,
      checked      integer NOT NULL,
      with_issue   integer NOT NULL,
      marked       integer NOT NULL,
      excluded     integer NOT NULL,
      ${sql.literal(FLAGS.map((f) => `${f} integer NOT NULL`).join(",\n      "))}
    )`
  yield* sql`CREATE INDEX market_intel_hygiene_cells_period_idx ON market_intel_hygiene_cells (period_type, period_start)`

  // a call: as 0034 made it, and on a change of its closer's e-mail too
  yield* sql`DROP TRIGGER calls_market_intel ON calls`
  yield* sql`
    CREATE TRIGGER calls_market_intel AFTER INSERT OR DELETE OR UPDATE OF status, result, created_at, client_id, meeting_at, closer_email ON calls
    FOR EACH ROW EXECUTE FUNCTION market_intel_call_changed()`
})
