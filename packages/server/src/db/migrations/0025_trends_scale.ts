/**
 * The trends at scale (issue 39; views/Trends.ts, docs/trends.md).
 *
 * The trends count, per period and closer, parts of every completed call's analysis: objections by
 * kind, pains, next steps said and dated, the scorecard's dimensions. Read from `digest` (0024) they
 * cost a decompression and a walk through the JSON per call, and a scan of the whole `calls` heap
 * (1.5 kB a row with the digest inline): at 100,000 calls a year's trends read 160 MB. So `calls`
 * keeps those numbers beside the result, generated from it (in step whoever writes it):
 *
 * - `trend_facts`: `calls_trend_facts(result)`, a float8 array: [1] objections, [2..7] objections of
 *   kind price, budget, timing, authority, need, competitor, [8] the summary's needs of kind `pain`,
 *   [9] next steps, [10] next steps with a due (a string with a non-blank character); then per
 *   scorecard dimension (discovery, listening, objection_handling, value, next_steps,
 *   conversation_flow) the sum of its numeric scores and how many there are ([11],[12] … [21],[22]);
 *   [23] the objections answered `other` (left unexplored: the daily brief's open deals), [24] 1 when
 *   the result has a transcript (an array), else 0. Null when `result` is. The same parts, at the
 *   same paths, as `digest` holds. The readers name these positions once: `TREND_FACT`
 *   (views/TrendsQueries.ts).
 * - `trend_dues`: the dues of those dated steps as said, in order (null when none): what the deal
 *   timeline's rule reads (chrono, in the service) to tell kept from slipped.
 *
 * And one index the trends read alone (an index-only scan, no heap): the tenant's completed calls by
 * `occurred_at`, with the closer, the deal, the score and the two columns. Another finds a deal's
 * next completed call after a step (`calls_deal_completed_idx`). Adding the columns rewrites `calls`
 * once, as 0024 did.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const KINDS = ["price", "budget", "timing", "authority", "need", "competitor"]
const DIMENSIONS = ["discovery", "listening", "objection_handling", "value", "next_steps", "conversation_flow"]
const arr = (path: string) => `CASE WHEN jsonb_typeof(r -> ${path}) = 'array' THEN r -> ${path} ELSE '[]'::jsonb END`

const FACTS = `
  CREATE FUNCTION calls_trend_facts(r jsonb) RETURNS float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN r IS NULL THEN NULL ELSE (
      SELECT ARRAY[o.n, ${KINDS.map((k) => `o.${k}`).join(", ")}, nd.pains, st.said, st.dated,
                   ${DIMENSIONS.map((d) => `dm.${d}_s, dm.${d}_n`).join(", ")}, o.unexplored,
                   COALESCE(jsonb_typeof(r -> 'transcript') = 'array', false)::int]::float8[]
      FROM (SELECT count(*) AS n, count(*) FILTER (WHERE e ->> 'response' = 'other') AS unexplored, ${KINDS.map((k) => `count(*) FILTER (WHERE e ->> 'kind' = '${k}') AS ${k}`).join(", ")}
            FROM jsonb_array_elements(${arr("'objections'")}) e) o,
           (SELECT count(*) FILTER (WHERE e ->> 'kind' = 'pain') AS pains FROM jsonb_array_elements(${arr("'summary' -> 'needs'")}) e) nd,
           (SELECT count(*) AS said, count(*) FILTER (WHERE jsonb_typeof(e -> 'due') = 'string' AND e ->> 'due' ~ '\\S') AS dated
            FROM jsonb_array_elements(${arr("'next_steps'")}) e) st,
           (SELECT ${
  DIMENSIONS.map((d) =>
    `COALESCE(sum((e ->> 'score')::float8) FILTER (WHERE e ->> 'dimension' = '${d}' AND jsonb_typeof(e -> 'score') = 'number'), 0) AS ${d}_s, ` +
    `count(*) FILTER (WHERE e ->> 'dimension' = '${d}' AND jsonb_typeof(e -> 'score') = 'number') AS ${d}_n`
  ).join(",\n                   ")
}
            FROM jsonb_array_elements(${arr("'scorecard' -> 'dimensions'")}) e) dm
    ) END
  $$`

const DUES = `
  CREATE FUNCTION calls_trend_dues(r jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN r IS NULL THEN NULL ELSE (
      SELECT array_agg(e ->> 'due' ORDER BY i)
      FROM jsonb_array_elements(${arr("'next_steps'")}) WITH ORDINALITY AS x(e, i)
      WHERE jsonb_typeof(e -> 'due') = 'string' AND e ->> 'due' ~ '\\S'
    ) END
  $$`

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(FACTS)
  yield* sql.unsafe(DUES)
  yield* sql`
    ALTER TABLE calls
      ADD COLUMN trend_facts float8[] GENERATED ALWAYS AS (calls_trend_facts(result)) STORED,
      ADD COLUMN trend_dues text[] GENERATED ALWAYS AS (calls_trend_dues(result)) STORED`
  yield* sql`
    CREATE INDEX calls_trends_idx ON calls (client_id, occurred_at)
      INCLUDE (call_id, closer_email, deal_id, overall_score, trend_facts, trend_dues) WHERE status = 'completed'`
  yield* sql`
    CREATE INDEX calls_deal_completed_idx ON calls (deal_id, occurred_at) INCLUDE (client_id)
      WHERE status = 'completed' AND deal_id IS NOT NULL`
})
