/**
 * The competitors' mentions by tracker, narrow (issue 39; bench/scale.bench.ts). The trends
 * (views/TrendsQueries.ts `mentionGroups`) and market intelligence's trends
 * (marketIntel/SegmentTrendsQueries.ts) count the mentions of the Competitors tracker per call and
 * term: they read the tracker's mentions' call, tenant and term. Without this index both read every
 * mention of every tracker from the heap, with its quote (82,000 rows at 100,000 calls, hashed whole
 * for each read); with it they read the Competitors tracker's entries from the index alone. Measured
 * on 100,000 calls in one tenant: market intelligence's trends statement 80 → 56 ms, the tenant's
 * six weeks of mentions 50 → 44 ms.
 *
 * PostgreSQL and embedded PGlite alike; `ANALYZE` fills the statistics the plans need.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX tracker_mentions_terms_idx ON tracker_mentions (tracker_id, call_id) INCLUDE (client_id, term)`
  yield* sql`ANALYZE tracker_mentions`
})
