/**
 * Reads at 100,000 calls, continued (issue 39, item 4; bench/scale.bench.ts): market intelligence's
 * trends, the coaching dashboard (and team health, which shows it), the daily brief.
 *
 * - `market_intel_call_facts` gains two columns at its end, `occurred_at` and `trend_facts` (the
 *   view of 0024 otherwise unchanged): the per-segment trends (marketIntel/SegmentTrendsQueries.ts)
 *   file calls by when they took place and count their objections by kind from `trend_facts`
 *   (0025). With the window on the view's own column, the bounds reach the calls' scan inside the
 *   view (an index-only scan of `calls_trends_idx`), where a join to `calls` on `call_id` made the
 *   view label every call of every tenant first.
 * - `calls_dims_unassessed(digest)`: whether a call's scorecard holds a dimension with a numeric
 *   score whose `assessed` is anything but true or absent (never, from the engine: a dimension not
 *   assessed has no score). The coaching dashboard sums the dimensions from `trend_facts` (read
 *   from `calls_trends_idx`, no digest decompressed); `trend_facts` counts every numeric score, the
 *   dashboard only assessed ones, so the dashboard reads those calls (found by the partial index
 *   `calls_dims_unassessed_idx`, empty unless such a result was stored) from their digest as
 *   before. The function errs on the side of reading the digest: any `assessed` that is not JSON
 *   true or null counts (a string "true" too), and the dashboard applies its own rule to them.
 * - `calls_transcript_fact_stx`: statistics of `trend_facts[24]` (a transcript), which the daily
 *   brief's open deals filter on; without them the planner guesses 0.5 % of the calls, and probes
 *   the outcome of thousands of calls one by one.
 *
 * PostgreSQL and embedded PGlite alike. Building the index reads every completed call's digest
 * once (seconds per 100,000 calls); nothing is rewritten. `ANALYZE calls` fills the statistics.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE OR REPLACE VIEW market_intel_call_facts AS
    WITH tf AS MATERIALIZED (SELECT * FROM market_intel_tenant_facts)
    SELECT c.call_id, c.client_id, tf.tenant_test, c.created_at, c.completed_at, c.status, c.closer_email,
           CASE WHEN c.status = 'completed' THEN c.overall_score END AS score,
           COALESCE(mi_label(h.marks ->> 'industry'), tf.industry, 'unknown') AS industry,
           COALESCE(mi_label(h.marks ->> 'icp_label'), mi_label(o.icp_label),
                    CASE WHEN cardinality(tf.icp_labels) = 1 THEN tf.icp_labels[1] END, 'unassigned') AS icp,
           COALESCE(mi_label(h.marks ->> 'lead_source'), mi_label(o.lead_source),
                    CASE WHEN cardinality(tf.lead_labels) = 1 THEN tf.lead_labels[1] END, 'unknown') AS lead_source,
           o.outcome, COALESCE(o.is_test_data, false) AS test_outcome, o.deal_value,
           CASE WHEN o.call_id IS NOT NULL THEN COALESCE(o.currency, tf.profile_currency, 'USD') END AS currency,
           o.closed_at, COALESCE(h.excluded, false) AS excluded,
           -- what the data-hygiene view checks
           tf.company_name, tf.profile_industry, tf.signup_industry, tf.icp_labels, tf.lead_labels, tf.profile_currency,
           o.currency AS outcome_currency, mi_label(o.icp_label) AS claimed_icp, mi_label(o.lead_source) AS claimed_lead_source,
           h.marks, h.updated_at AS hygiene_updated_at,
           -- what the per-segment trends read
           c.occurred_at, c.trend_facts
    FROM calls c
    JOIN tf ON tf.client_id = c.client_id
    LEFT JOIN outcome_truth o ON o.call_id = c.call_id
    LEFT JOIN call_hygiene h ON h.call_id = c.call_id`
  yield* sql`
    CREATE FUNCTION calls_dims_unassessed(d jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN jsonb_typeof(d -> 'scorecard' -> 'dimensions') = 'array'
                  THEN EXISTS (SELECT 1 FROM jsonb_array_elements(d -> 'scorecard' -> 'dimensions') e
                               WHERE jsonb_typeof(e -> 'score') = 'number' AND e -> 'assessed' IS NOT NULL
                                 AND e -> 'assessed' <> 'true'::jsonb AND e -> 'assessed' <> 'null'::jsonb)
                  ELSE false END
    $$`
  yield* sql`
    CREATE INDEX calls_dims_unassessed_idx ON calls (client_id, occurred_at)
      WHERE status = 'completed' AND calls_dims_unassessed(digest)`
  yield* sql`CREATE STATISTICS calls_transcript_fact_stx ON ((trend_facts[24])) FROM calls`
  yield* sql`ANALYZE calls`
})
