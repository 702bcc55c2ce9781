/**
 * Reads that stay fast as the calls grow (issue 39, item 4; bench/scale.bench.ts).
 *
 * A completed call's `result` is the whole analysis (its transcript, evidence, summary…: 10–20 kB
 * of JSON, compressed and stored out of line). The period views read a few small parts of it for
 * every call of their window, and reading any part of `result` fetches and decompresses all of it:
 * at 100,000 calls a window of weeks is thousands of calls, and that alone took the team's views
 * past a second. So `calls` keeps those parts beside it, generated from `result` (always in step,
 * whoever writes it):
 *
 * - `overall_score`: `(result -> 'scorecard' ->> 'overall')::float8`, the expression every view used;
 * - `talk_ratio`: the rep's talk ratio when it is a number (team health's expression);
 * - `digest`: `calls_digest(result)`, the parts the views read, at the same paths as in `result`, so
 *   that `c.digest -> 'objections'` is `c.result -> 'objections'`: `scorecard` (`overall`, and
 *   `dimensions` without their `reason`), `objections` and `next_steps` whole, `summary.needs`
 *   without their quotes, `call_type.type`, `metrics.talk_ratio`, and `transcript` as `[]` when
 *   the result has one (its type is all the views ask of it) or as it is otherwise. Null when
 *   `result` is. What is not in it (the evidence, the qualification, the transcript's words, the
 *   summary's other parts) is read from `result` as before.
 *
 * Market intelligence's `market_intel_call_facts` reads the score from `overall_score` (the same
 * view otherwise). Adding the generated columns rewrites `calls` once (under its lock: about a minute per 100,000
 * calls). Indexes for the reads by status (the outcome backlog: the tenant's completed calls by
 * completion; the recent failures; the calls in flight) and the closer-filtered reads (by the
 * closer's e-mail in any case) follow.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE FUNCTION calls_digest(r jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN r IS NULL THEN NULL ELSE jsonb_build_object(
        'scorecard', jsonb_build_object(
          'overall', r -> 'scorecard' -> 'overall',
          'dimensions', CASE WHEN jsonb_typeof(r -> 'scorecard' -> 'dimensions') = 'array'
                             THEN COALESCE((SELECT jsonb_agg(CASE WHEN jsonb_typeof(d) = 'object' THEN d - 'reason' ELSE d END ORDER BY i)
                                            FROM jsonb_array_elements(r -> 'scorecard' -> 'dimensions') WITH ORDINALITY AS x(d, i)), '[]'::jsonb)
                             ELSE r -> 'scorecard' -> 'dimensions' END),
        'objections', r -> 'objections',
        'next_steps', r -> 'next_steps',
        'summary', jsonb_build_object(
          'needs', CASE WHEN jsonb_typeof(r -> 'summary' -> 'needs') = 'array'
                        THEN COALESCE((SELECT jsonb_agg(CASE WHEN jsonb_typeof(n) = 'object' THEN n - 'quotes' ELSE n END ORDER BY i)
                                       FROM jsonb_array_elements(r -> 'summary' -> 'needs') WITH ORDINALITY AS x(n, i)), '[]'::jsonb)
                        ELSE r -> 'summary' -> 'needs' END),
        'call_type', jsonb_build_object('type', r -> 'call_type' -> 'type'),
        'metrics', jsonb_build_object('talk_ratio', r -> 'metrics' -> 'talk_ratio'),
        'transcript', CASE WHEN jsonb_typeof(r -> 'transcript') = 'array' THEN '[]'::jsonb ELSE r -> 'transcript' END)
      END
    $$`
  yield* sql`
    ALTER TABLE calls
      ADD COLUMN overall_score double precision GENERATED ALWAYS AS ((result -> 'scorecard' ->> 'overall')::float8) STORED,
      ADD COLUMN talk_ratio double precision GENERATED ALWAYS AS (
        CASE WHEN jsonb_typeof(result -> 'metrics' -> 'talk_ratio') = 'number' THEN (result -> 'metrics' ->> 'talk_ratio')::float8 END) STORED,
      ADD COLUMN digest jsonb GENERATED ALWAYS AS (calls_digest(result)) STORED`
  // market intelligence's view of the calls, the same but for the score read from its column
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
           h.marks, h.updated_at AS hygiene_updated_at
    FROM calls c
    JOIN tf ON tf.client_id = c.client_id
    LEFT JOIN outcome_truth o ON o.call_id = c.call_id
    LEFT JOIN call_hygiene h ON h.call_id = c.call_id`
  // a tenant's calls in a status by completion: the outcome backlog (completed, oldest first), the
  // failures of the last days, the calls in flight that hold a credit
  yield* sql`CREATE INDEX calls_client_status_idx ON calls (client_id, status, completed_at, call_id)`
  // a closer's calls (the list's closer filter, the coaching and trends views join closers by e-mail in any case)
  yield* sql`CREATE INDEX calls_client_closer_idx ON calls (client_id, lower(closer_email), created_at DESC, call_id DESC)`
})
