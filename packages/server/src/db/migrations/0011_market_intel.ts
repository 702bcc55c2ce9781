/**
 * Staff operations and market intelligence (issue 17):
 *
 * - `worker_heartbeats`: one row per worker process, beaten while it runs (admin `status`).
 * - `outcome_truth.lead_source`, `.icp_label`: where the deal's lead came from and the ICP the buyer
 *   fits, as the tenant records them with the outcome.
 * - `call_hygiene`: the staff's hygiene marks of a call (`exclude`, label overrides, a note).
 * - `mi_label(text)` and the views `market_intel_tenant_facts` and `market_intel_call_facts`: how
 *   market intelligence files a call
 *   (industry, ICP, lead source, score, outcome), in one place for the stored aggregates and for
 *   the reads that compute. A label is trimmed, its spaces collapsed and lower-cased; the first
 *   of: the hygiene mark, then for the ICP and the lead source the outcome record, then the
 *   tenant's profile (its industry; its ICP or lead source when it lists exactly one; the
 *   industry given at signup). Without one: `unknown` (industry, lead source), `unassigned` (ICP).
 * - `market_intel_cells`: the stored aggregates, per period and per tenant and segment (so any
 *   set of them adds up, distinct tenants included); `market_intel_builds`: which periods are
 *   stored and the snapshot they were computed on; `market_intel_changes`: every later change to
 *   the data of a stored period, by the transaction that made it (triggers below). A stored period
 *   is fresh while every change of it is visible in its build's snapshot.
 * - `market_intel_rebuild_lock`: one rebuild at a time across processes.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE worker_heartbeats (
      worker_id         text PRIMARY KEY,
      host              text NOT NULL,
      pid               integer NOT NULL,
      concurrency       integer NOT NULL,
      lease_seconds     integer NOT NULL,
      started_at        timestamptz NOT NULL DEFAULT now(),
      last_heartbeat_at timestamptz NOT NULL DEFAULT now()
    )`

  yield* sql`ALTER TABLE outcome_truth ADD COLUMN lead_source text, ADD COLUMN icp_label text`

  yield* sql`
    CREATE TABLE call_hygiene (
      call_id    text PRIMARY KEY REFERENCES calls (call_id) ON DELETE CASCADE,
      client_id  text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      marks      jsonb NOT NULL DEFAULT '{}'::jsonb,
      excluded   boolean NOT NULL DEFAULT false,
      updated_by text,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`

  // Cross-tenant windows of calls by when they were made.
  yield* sql`CREATE INDEX calls_created_idx ON calls (created_at)`
  yield* sql`CREATE INDEX outcome_truth_client_updated_idx ON outcome_truth (client_id, updated_at DESC)`

  yield* sql`
    CREATE FUNCTION mi_label(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT NULLIF(lower(regexp_replace(btrim(value), '\\s+', ' ', 'g')), '')
    $$`

  // What the tenant's profiles say, computed once per tenant (the calls' view materialises it, so
  // that it is neither folded into the calls' query nor run again for each call).
  yield* sql`
    CREATE VIEW market_intel_tenant_facts AS
    SELECT t.client_id, t.company_name, t.is_test AS tenant_test,
           mi_label(m.profile ->> 'industry') AS profile_industry, mi_label(t.industry) AS signup_industry,
           COALESCE(mi_label(m.profile ->> 'industry'), mi_label(t.industry)) AS industry,
           ARRAY(SELECT mi_label(x ->> 'label') FROM jsonb_array_elements(
                   CASE WHEN jsonb_typeof(m.profile -> 'icps') = 'array' THEN m.profile -> 'icps' ELSE '[]'::jsonb END) x) AS icp_labels,
           ARRAY(SELECT mi_label(x ->> 'label') FROM jsonb_array_elements(
                   CASE WHEN jsonb_typeof(l.profile -> 'lead_sources') = 'array' THEN l.profile -> 'lead_sources' ELSE '[]'::jsonb END) x)
             AS lead_labels,
           m.profile ->> 'currency' AS profile_currency
    FROM tenants t
    LEFT JOIN market_profiles m ON m.client_id = t.client_id
    LEFT JOIN lead_context_profiles l ON l.client_id = t.client_id`

  yield* sql`
    CREATE VIEW market_intel_call_facts AS
    WITH tf AS MATERIALIZED (SELECT * FROM market_intel_tenant_facts)
    SELECT c.call_id, c.client_id, tf.tenant_test, c.created_at, c.completed_at, c.status, c.closer_email,
           CASE WHEN c.status = 'completed' THEN (c.result -> 'scorecard' ->> 'overall')::float8 END AS score,
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

  // The grain of the aggregates: one row per period, tenant and segment, with additive measures.
  // Outcome measures are split by `test_outcome` so that test outcomes can be left out on reading;
  // `b<i>_*` are the reliability buckets of 20 score points (the last one takes 100).
  yield* sql`
    CREATE TABLE market_intel_cells (
      period_type    text NOT NULL CHECK (period_type IN ('day', 'week', 'month', 'quarter')),
      period_start   date NOT NULL,
      client_id      text NOT NULL,
      tenant_test    boolean NOT NULL,
      industry       text NOT NULL,
      icp            text NOT NULL,
      lead_source    text NOT NULL,
      test_outcome   boolean NOT NULL,
      currency       text NOT NULL,
      calls          integer NOT NULL,
      completed      integer NOT NULL,
      scored         integer NOT NULL,
      score_sum      double precision NOT NULL,
      with_outcome   integer NOT NULL,
      won            integer NOT NULL,
      lost           integer NOT NULL,
      no_decision    integer NOT NULL,
      open           integer NOT NULL,
      scored_decided integer NOT NULL,
      scored_won     integer NOT NULL,
      pred_sum       double precision NOT NULL,
      b0_n integer NOT NULL, b1_n integer NOT NULL, b2_n integer NOT NULL, b3_n integer NOT NULL, b4_n integer NOT NULL,
      b0_won integer NOT NULL, b1_won integer NOT NULL, b2_won integer NOT NULL, b3_won integer NOT NULL, b4_won integer NOT NULL,
      b0_pred double precision NOT NULL, b1_pred double precision NOT NULL, b2_pred double precision NOT NULL,
      b3_pred double precision NOT NULL, b4_pred double precision NOT NULL,
      won_value_sum  double precision NOT NULL,
      won_value_n    integer NOT NULL
    )`
  yield* sql`CREATE INDEX market_intel_cells_period_idx ON market_intel_cells (period_type, period_start)`

  yield* sql`
    CREATE TABLE market_intel_builds (
      period_type  text NOT NULL,
      period_start date NOT NULL,
      snapshot     pg_snapshot,
      built_at     timestamptz,
      rows_written integer NOT NULL DEFAULT 0,
      PRIMARY KEY (period_type, period_start)
    )`
  yield* sql`
    CREATE TABLE market_intel_changes (
      period_type  text NOT NULL,
      period_start date NOT NULL,
      txid         xid8 NOT NULL
    )`
  yield* sql`CREATE INDEX market_intel_changes_period_idx ON market_intel_changes (period_type, period_start)`

  yield* sql`
    CREATE TABLE market_intel_rebuild_lock (
      id            boolean PRIMARY KEY DEFAULT true CHECK (id),
      holder        text,
      running_since timestamptz
    )`
  yield* sql`INSERT INTO market_intel_rebuild_lock (id) VALUES (true)`

  // A change of the data of the calls made at `at`: the stored periods holding that instant are stale.
  yield* sql`
    CREATE FUNCTION market_intel_mark_at(at timestamptz) RETURNS void LANGUAGE sql AS $$
      INSERT INTO market_intel_changes (period_type, period_start, txid)
      SELECT b.period_type, b.period_start, pg_current_xact_id() FROM market_intel_builds b
      WHERE at IS NOT NULL AND b.period_start = CASE b.period_type
        WHEN 'day' THEN (at AT TIME ZONE 'UTC')::date
        WHEN 'week' THEN date_trunc('week', at AT TIME ZONE 'UTC')::date
        WHEN 'month' THEN date_trunc('month', at AT TIME ZONE 'UTC')::date
        ELSE date_trunc('quarter', at AT TIME ZONE 'UTC')::date END
    $$`
  // A change that may refile any call (a profile, a tenant's test flag or industry): every stored period is stale.
  yield* sql`
    CREATE FUNCTION market_intel_mark_all() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO market_intel_changes (period_type, period_start, txid)
      SELECT period_type, period_start, pg_current_xact_id() FROM market_intel_builds;
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE FUNCTION market_intel_call_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN PERFORM market_intel_mark_at(OLD.created_at); END IF;
      IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.created_at IS DISTINCT FROM OLD.created_at) THEN
        PERFORM market_intel_mark_at(NEW.created_at);
      END IF;
      RETURN NULL;
    END $$`
  // A change of a row about one call (its outcome, its hygiene marks).
  yield* sql`
    CREATE FUNCTION market_intel_call_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM market_intel_mark_at((SELECT created_at FROM calls WHERE call_id = OLD.call_id));
      ELSE
        PERFORM market_intel_mark_at((SELECT created_at FROM calls WHERE call_id = NEW.call_id));
      END IF;
      RETURN NULL;
    END $$`

  yield* sql`
    CREATE TRIGGER calls_market_intel AFTER INSERT OR DELETE OR UPDATE OF status, result, created_at, client_id ON calls
    FOR EACH ROW EXECUTE FUNCTION market_intel_call_changed()`
  yield* sql`
    CREATE TRIGGER outcome_truth_market_intel AFTER INSERT OR UPDATE OR DELETE ON outcome_truth
    FOR EACH ROW EXECUTE FUNCTION market_intel_call_row_changed()`
  yield* sql`
    CREATE TRIGGER call_hygiene_market_intel AFTER INSERT OR UPDATE OR DELETE ON call_hygiene
    FOR EACH ROW EXECUTE FUNCTION market_intel_call_row_changed()`
  yield* sql`
    CREATE TRIGGER market_profiles_market_intel AFTER INSERT OR UPDATE OR DELETE ON market_profiles
    FOR EACH STATEMENT EXECUTE FUNCTION market_intel_mark_all()`
  yield* sql`
    CREATE TRIGGER lead_context_profiles_market_intel AFTER INSERT OR UPDATE OR DELETE ON lead_context_profiles
    FOR EACH STATEMENT EXECUTE FUNCTION market_intel_mark_all()`
  yield* sql`
    CREATE TRIGGER tenants_market_intel AFTER UPDATE OF is_test, industry OR DELETE ON tenants
    FOR EACH STATEMENT EXECUTE FUNCTION market_intel_mark_all()`
})
