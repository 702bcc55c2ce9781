/**
 * Market intelligence's per-segment trends from the stored aggregates (issue 39;
 * marketIntel/SegmentTrendsQueries.ts). At 200 tenants and 100,000 calls, 8 weeks computed from the
 * calls took ~60 ms of one statement: the ~14,000 calls' scan through `market_intel_call_facts` and
 * the join of every Competitors tracker's mentions to them.
 *
 * - `market_intel_trend_cells`: the trends' grain per period type and period, tenant, industry, ICP
 *   and term (`term` null: the calls row; else a competitor as mentioned, in lower case), with the
 *   calls, the mentions, and per objection kind the objections and the calls with one. Written by
 *   the rebuild with the other stored aggregates (`market_intel_cells`), for the same periods, in the
 *   same transaction: one build, one snapshot, one freshness for both.
 * - The trends file a call by when it took place (`occurred_at`), the other aggregates by when it
 *   was made (`created_at`). A change is now logged at the periods of both instants, so a stored
 *   period is stale for both kinds of cell when either could have changed (a period marked for one
 *   kind alone is only computed again, never wrong):
 *   - a call: as before (its `trend_facts` are its result's), and on a change of its meeting's time
 *     (`meeting_at`, of which `occurred_at` is made) too;
 *   - its outcome or its hygiene marks: at both of its instants;
 *   - the Competitors trackers' mentions (new): at the periods of their calls' `occurred_at`.
 *   A profile, a tenant's test flag or industry still make every stored period stale.
 *
 * PostgreSQL and embedded PGlite alike. Nothing is built here: the next rebuild stores the cells.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE market_intel_trend_cells (
      period_type  text NOT NULL CHECK (period_type IN ('day', 'week', 'month', 'quarter')),
      period_start date NOT NULL,
      industry     text NOT NULL,
      icp          text NOT NULL,
      client_id    text NOT NULL,
      term         text,
      calls        integer NOT NULL,
      mentions     integer NOT NULL,
      o2 float8 NOT NULL, c2 integer NOT NULL, o3 float8 NOT NULL, c3 integer NOT NULL,
      o4 float8 NOT NULL, c4 integer NOT NULL, o5 float8 NOT NULL, c5 integer NOT NULL,
      o6 float8 NOT NULL, c6 integer NOT NULL, o7 float8 NOT NULL, c7 integer NOT NULL
    )`
  yield* sql`CREATE INDEX market_intel_trend_cells_period_idx ON market_intel_trend_cells (period_type, period_start)`

  // a call: its periods by both instants
  yield* sql`
    CREATE OR REPLACE FUNCTION market_intel_call_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        PERFORM market_intel_mark_at(OLD.created_at);
        IF OLD.occurred_at IS DISTINCT FROM OLD.created_at THEN PERFORM market_intel_mark_at(OLD.occurred_at); END IF;
      END IF;
      IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.created_at IS DISTINCT FROM OLD.created_at) THEN
        PERFORM market_intel_mark_at(NEW.created_at);
      END IF;
      IF (TG_OP = 'INSERT' AND NEW.occurred_at IS DISTINCT FROM NEW.created_at)
         OR (TG_OP = 'UPDATE' AND NEW.occurred_at IS DISTINCT FROM OLD.occurred_at) THEN
        PERFORM market_intel_mark_at(NEW.occurred_at);
      END IF;
      RETURN NULL;
    END $$`
  yield* sql`DROP TRIGGER calls_market_intel ON calls`
  yield* sql`
    CREATE TRIGGER calls_market_intel AFTER INSERT OR DELETE OR UPDATE OF status, result, created_at, client_id, meeting_at ON calls
    FOR EACH ROW EXECUTE FUNCTION market_intel_call_changed()`

  // its outcome, its hygiene marks: both instants
  yield* sql`
    CREATE OR REPLACE FUNCTION market_intel_call_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      made timestamptz;
      held timestamptz;
    BEGIN
      SELECT c.created_at, c.occurred_at INTO made, held FROM calls c
      WHERE c.call_id = CASE WHEN TG_OP = 'DELETE' THEN OLD.call_id ELSE NEW.call_id END;
      PERFORM market_intel_mark_at(made);
      IF held IS DISTINCT FROM made THEN PERFORM market_intel_mark_at(held); END IF;
      RETURN NULL;
    END $$`

  // the Competitors trackers' mentions: their calls' periods by when they took place
  yield* sql`
    CREATE FUNCTION market_intel_mentions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
        PERFORM market_intel_mark_at(x.at) FROM (
          SELECT DISTINCT c.occurred_at AS at
          FROM new_rows m JOIN calls c ON c.call_id = m.call_id JOIN trackers t ON t.tracker_id = m.tracker_id AND t.source = 'market_profile') x;
      END IF;
      IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
        PERFORM market_intel_mark_at(x.at) FROM (
          SELECT DISTINCT c.occurred_at AS at
          FROM old_rows m JOIN calls c ON c.call_id = m.call_id LEFT JOIN trackers t ON t.tracker_id = m.tracker_id
          WHERE t.tracker_id IS NULL OR t.source = 'market_profile') x; -- (a tracker deleted: its mentions with it)
      END IF;
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE TRIGGER tracker_mentions_market_intel_insert AFTER INSERT ON tracker_mentions
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_intel_mentions_changed()`
  yield* sql`
    CREATE TRIGGER tracker_mentions_market_intel_update AFTER UPDATE ON tracker_mentions
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_intel_mentions_changed()`
  yield* sql`
    CREATE TRIGGER tracker_mentions_market_intel_delete AFTER DELETE ON tracker_mentions
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION market_intel_mentions_changed()`
})
