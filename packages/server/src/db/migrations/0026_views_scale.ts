/**
 * The team's views at scale (issue 39: every interactive read within 100 ms at 100,000 calls in one
 * tenant; bench/scale.bench.ts). Indexes only: each lets a view read its window of calls from the
 * index alone (an index-only scan: no heap, no analysis), where it read thousands of rows of `calls`
 * (1–2 kB each, and the `digest` of migration 0024 stored out of line).
 *
 * - `calls_open_window_idx`: deal intelligence's window (workspace/BriefsRepo.ts `openDeals`, and
 *   the daily brief's open deals, ValueQueries.ts): a tenant's completed calls with a transcript by
 *   meeting, with their deal and closer. "With a transcript" is `jsonb_typeof(digest -> 'transcript')
 *   = 'array'`: the index's predicate, so that the window does not decompress every call's digest to
 *   ask it. `calls_transcript_stx` tells the planner how many calls have one (without it, it guesses
 *   0.5 % and joins the window's outcomes call by call).
 * - `calls_deal_cover_idx`: a deal's calls with their tenant, status and closer (whether one of the
 *   deal's calls the viewer sees has a decided outcome; the deal's timeline).
 * - `calls_completed_window_idx`: the coaching dashboard and team health (views/CoachingQueries.ts,
 *   views/TeamHealthQueries.ts): a tenant's completed calls by meeting, with the closer, the overall
 *   score, the talk ratio (0024's generated columns) and what a call worth reviewing shows.
 * - `calls_client_completed_idx` and `calls_client_status_created_idx`: market intelligence's
 *   renewal-expansion radar (marketIntel/MarketIntelQueries.ts): a tenant's calls completed in the
 *   last 90 days (any status), and its completed calls made in each of the last 6 months.
 *
 * PostgreSQL and embedded PGlite alike. Building them reads `calls` once (the transcript index
 * reads each call's digest: seconds per 100,000 calls); `ANALYZE calls` fills the statistics.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE INDEX calls_open_window_idx ON calls (client_id, occurred_at DESC) INCLUDE (call_id, deal_id, closer_email)
      WHERE status = 'completed' AND jsonb_typeof(digest -> 'transcript') = 'array'`
  yield* sql`CREATE STATISTICS calls_transcript_stx ON (jsonb_typeof(digest -> 'transcript')) FROM calls`
  yield* sql`
    CREATE INDEX calls_deal_cover_idx ON calls (deal_id) INCLUDE (client_id, status, closer_email, call_id)
      WHERE deal_id IS NOT NULL`
  yield* sql`
    CREATE INDEX calls_completed_window_idx ON calls (client_id, occurred_at)
      INCLUDE (closer_email, overall_score, talk_ratio, call_id, external_call_id, created_at) WHERE status = 'completed'`
  yield* sql`
    CREATE INDEX calls_client_completed_idx ON calls (client_id, completed_at) INCLUDE (status, duration_s, overall_score, call_id)
      WHERE completed_at IS NOT NULL`
  yield* sql`CREATE INDEX calls_client_status_created_idx ON calls (client_id, status, created_at)`
  yield* sql`ANALYZE calls`
})
