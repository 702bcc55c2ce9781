/**
 * Workspace search (issue 16): a `tsvector` document on each searchable row, each with a GIN index.
 *
 * The documents are STORED generated columns, not columns a repository fills in nor triggers:
 * - PostgreSQL recomputes them on every INSERT and UPDATE of the row, whichever code writes it:
 *   the worker completing a call (`CallsRepo.complete` writes `calls.result`), the outcome truth
 *   (`outcome_truth.notes`), a manual audit (`manual_audits.notes`), a closer's rename. No feature
 *   has to remember to refresh the search, and no feature imports the workspace to do it.
 * - They work the same on PostgreSQL 15 and PGlite (no trigger functions, no extension): every
 *   expression is IMMUTABLE, as a generated column requires: `to_tsvector` and `jsonb_to_tsvector`
 *   with an explicit configuration, `jsonb_path_query_array` (not its `_tz` form), and the call's
 *   date spelled from `extract` of `created_at AT TIME ZONE 'UTC'` (`to_char` and `::date::text`
 *   are only STABLE).
 * The configuration is `english` everywhere; the search builds its query with the same one.
 *
 * Calls get two documents: `search_meta` (external id, closer e-mail and its name part, the
 * date as YYYY-MM-DD) and `search_transcript` (the text of every transcript segment of the stored
 * analysis, empty until the call completes). The second a transcript hit is at is found at query
 * time from the segments of the few calls returned.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const utc = sql.literal("created_at AT TIME ZONE 'UTC'")
  yield* sql`
    ALTER TABLE calls
      ADD COLUMN search_meta tsvector GENERATED ALWAYS AS (
        to_tsvector('english'::regconfig,
          coalesce(external_call_id, '') || ' ' ||
          coalesce(closer_email, '') || ' ' ||
          coalesce(translate(split_part(closer_email, '@', 1), '._-+', '    '), '') || ' ' ||
          (extract(year FROM ${utc})::int)::text || '-' ||
          lpad((extract(month FROM ${utc})::int)::text, 2, '0') || '-' ||
          lpad((extract(day FROM ${utc})::int)::text, 2, '0'))
      ) STORED,
      ADD COLUMN search_transcript tsvector GENERATED ALWAYS AS (
        jsonb_to_tsvector('english'::regconfig,
          coalesce(jsonb_path_query_array(result, '$.transcript[*].text'), '[]'::jsonb), '["string"]'::jsonb)
      ) STORED`
  yield* sql`CREATE INDEX calls_search_meta_idx ON calls USING gin (search_meta)`
  yield* sql`CREATE INDEX calls_search_transcript_idx ON calls USING gin (search_transcript)`

  yield* sql`
    ALTER TABLE closers
      ADD COLUMN search_doc tsvector GENERATED ALWAYS AS (
        to_tsvector('english'::regconfig,
          full_name || ' ' || email || ' ' || translate(split_part(email, '@', 1), '._-+', '    ') || ' ' || coalesce(team, ''))
      ) STORED`
  yield* sql`CREATE INDEX closers_search_idx ON closers USING gin (search_doc)`

  yield* sql`
    ALTER TABLE outcome_truth
      ADD COLUMN search_doc tsvector GENERATED ALWAYS AS (
        to_tsvector('english'::regconfig, coalesce(notes, '') || ' ' || coalesce(reason, ''))
      ) STORED`
  yield* sql`CREATE INDEX outcome_truth_search_idx ON outcome_truth USING gin (search_doc)`

  yield* sql`
    ALTER TABLE manual_audits
      ADD COLUMN search_doc tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, notes)) STORED`
  yield* sql`CREATE INDEX manual_audits_search_idx ON manual_audits USING gin (search_doc)`
})
