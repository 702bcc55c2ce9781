/**
 * The trends' numbers per tenant, closer and day (issue 39; views/TrendsQueries.ts, docs/trends.md).
 *
 * The trends summed every completed call of their window: at 100,000 calls in one tenant a year by
 * month read, ranked and summed ~90,000 calls (its statement ~500 ms: the index scan, the sort for
 * the ranks, 18 window counts and the sums, each ~100 ms). Every one of those numbers is a sum over
 * calls, and a period is a run of whole UTC days (weeks from Monday, months; only a window's first
 * and last day can be cut by `since`/`until`). So the database keeps them per day:
 *
 * - `trend_day_rows(client, lo, hi)`: the tenant's completed calls that took place in [lo, hi)
 *   summed per closer (`ck`, the e-mail in lower case; null for none) and UTC day: for each number
 *   of the trends (`s_<metric>` its sum, `n_<metric>` its calls; the counts `calls` … `dated`, then
 *   the scores `overall` … `conversation_flow`, the order of `COUNT_METRICS` and `SCORE_METRICS`),
 *   the spelling of the closer's e-mail on the newest call, the newest call's time, the call of the
 *   lowest overall score (the newest of equals), and the calls among the newest 10 of any number of
 *   that day (`ids`, `times` in ms, `metrics`: bit k for the k-th number). The one definition of a
 *   day's numbers: the table below is filled from it, and the trends read it for a window's cut
 *   first and last day.
 * - `trend_days`: those rows for every tenant's every day with a completed call, kept in step by
 *   statement triggers on `calls` (insert, update, delete, whoever writes): the days of the rows
 *   that were or became completed, or whose time, closer, score or facts changed, are summed again
 *   from `calls` (a day of one tenant: ~300 calls at 100,000 a year). Each (tenant, day) is taken
 *   under a transaction-scoped advisory lock, in order, before it is summed again: two workers
 *   completing calls of the same day write one after the other, the second one's statements seeing
 *   the first one's call (READ COMMITTED takes a snapshot per statement). `TRUNCATE calls` fires no
 *   row trigger: nothing in the service truncates it.
 *
 * Ten ids a number a day (`TRENDS_CALL_IDS_MAX`): a period's newest 10 of a number are among its
 * days' newest 10, and the read takes only the days it needs (views/TrendsQueries.ts `groups`).
 *
 * PostgreSQL and embedded PGlite alike. Filled here for the calls already there.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The metrics in the trends' order (views/TrendsQueries.ts `COUNT_METRICS`, `SCORE_METRICS`), as a call's `has` and `sum`. */
const FACT = { objections: 1, price: 2, budget: 3, timing: 4, authority: 5, need: 6, competitor: 7, pains: 8, said: 9, dated: 10 }
const DIMENSION_FACTS = { discovery: 11, listening: 13, objection_handling: 15, value: 17, next_steps: 19, conversation_flow: 21 }
const METRICS: ReadonlyArray<{ name: string; has: string; sum: string }> = [
  { name: "calls", has: "true", sum: "1" },
  ...Object.entries(FACT).map(([name, i]) => ({ name, has: `f${i} > 0`, sum: `f${i}` })),
  { name: "overall", has: "overall_score IS NOT NULL", sum: "overall_score" },
  ...Object.entries(DIMENSION_FACTS).map(([name, i]) => ({ name, has: `f${i + 1} > 0`, sum: `f${i}` }))
]
/** The newest calls kept per number and day. */
const MAX = 10
const FACTS = 22

const columns = METRICS.map((m) => `s_${m.name} float8 NOT NULL, n_${m.name} int NOT NULL`).join(",\n      ")
const columnNames = METRICS.map((m) => `s_${m.name}, n_${m.name}`).join(", ")

const DAY_ROWS = `
  CREATE FUNCTION trend_day_rows(p_client text, p_lo timestamptz, p_hi timestamptz)
  RETURNS TABLE (ck text, day date, closer_email text, newest_ms float8, lowest_score float8, lowest_ms float8, lowest_call_id text,
                 ${METRICS.map((m) => `s_${m.name} float8, n_${m.name} int`).join(", ")},
                 ids text[], times float8[], metrics int[])
  LANGUAGE sql STABLE AS $$
    WITH base AS (
      SELECT c.call_id, c.closer_email, lower(c.closer_email) AS ck, (c.occurred_at AT TIME ZONE 'UTC')::date AS day, c.occurred_at,
             extract(epoch FROM c.occurred_at)::float8 * 1000 AS ms, c.overall_score,
             ${Array.from({ length: FACTS }, (_, i) => `COALESCE(x.tf[${i + 1}], 0) AS f${i + 1}`).join(", ")}
      FROM calls c, LATERAL (SELECT c.trend_facts || '{}'::float8[] AS tf OFFSET 0) x
      WHERE c.client_id = p_client AND c.status = 'completed' AND c.occurred_at >= p_lo AND c.occurred_at < p_hi),
    ranked AS (
      SELECT base.*, ${METRICS.map((m, k) => `count(*) FILTER (WHERE ${m.has}) OVER win AS r${k}`).join(", ")}
      FROM base WINDOW win AS (PARTITION BY ck, day ORDER BY occurred_at DESC, call_id DESC)),
    marked AS (
      SELECT ranked.*, ${METRICS.map((m, k) => `CASE WHEN ${m.has} AND r${k} <= ${MAX} THEN ${2 ** k} ELSE 0 END`).join(" + ")} AS m
      FROM ranked OFFSET 0)
    SELECT ck, day, max(closer_email) FILTER (WHERE r0 = 1), max(ms),
           min(overall_score),
           (array_agg(ms ORDER BY overall_score, occurred_at DESC, call_id DESC) FILTER (WHERE overall_score IS NOT NULL))[1],
           (array_agg(call_id ORDER BY overall_score, occurred_at DESC, call_id DESC) FILTER (WHERE overall_score IS NOT NULL))[1],
           ${METRICS.map((m) => `COALESCE(sum(${m.sum}) FILTER (WHERE ${m.has}), 0), (count(*) FILTER (WHERE ${m.has}))::int`).join(",\n           ")},
           COALESCE(array_agg(call_id) FILTER (WHERE m <> 0), '{}'::text[]),
           COALESCE(array_agg(ms) FILTER (WHERE m <> 0), '{}'::float8[]),
           COALESCE(array_agg(m) FILTER (WHERE m <> 0), '{}'::int[])
    FROM marked GROUP BY ck, day
  $$`

/** A tenant's day summed again from `calls` (under its lock: see above). */
const REFRESH_DAY = `
  CREATE FUNCTION trend_days_refresh(p_client text, p_day date) RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('trend_days ' || p_client || ' ' || p_day::text, 0));
    DELETE FROM trend_days WHERE client_id = p_client AND day = p_day;
    INSERT INTO trend_days (client_id, ck, day, closer_email, newest_ms, lowest_score, lowest_ms, lowest_call_id, ${columnNames}, ids, times, metrics)
    SELECT p_client, r.*
    FROM trend_day_rows(p_client, p_day::timestamp AT TIME ZONE 'UTC', (p_day + 1)::timestamp AT TIME ZONE 'UTC') r;
  END $$`

/** What a call's day row is summed from: a change to any of these (or to the status, from or to completed) sums the day again. */
const counted = (r: string) => `(${r}.client_id, ${r}.occurred_at, ${r}.closer_email, ${r}.overall_score, ${r}.trend_facts, ${r}.call_id)`
const dayOf = (r: string) => `(${r}.occurred_at AT TIME ZONE 'UTC')::date`

const TRIGGER = `
  CREATE FUNCTION trend_days_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      PERFORM trend_days_refresh(k.client_id, k.day)
      FROM (SELECT DISTINCT n.client_id, ${dayOf("n")} AS day FROM new_rows n WHERE n.status = 'completed' ORDER BY 1, 2) k;
    ELSIF TG_OP = 'DELETE' THEN
      PERFORM trend_days_refresh(k.client_id, k.day)
      FROM (SELECT DISTINCT o.client_id, ${dayOf("o")} AS day FROM old_rows o WHERE o.status = 'completed' ORDER BY 1, 2) k;
    ELSE
      PERFORM trend_days_refresh(k.client_id, k.day)
      FROM (SELECT DISTINCT x.client_id, x.day FROM (
              SELECT o.client_id, ${dayOf("o")} AS day FROM old_rows o JOIN new_rows n ON n.call_id = o.call_id
              WHERE o.status = 'completed' AND (n.status <> 'completed' OR ${counted("o")} IS DISTINCT FROM ${counted("n")})
              UNION ALL
              SELECT n.client_id, ${dayOf("n")} FROM new_rows n LEFT JOIN old_rows o ON o.call_id = n.call_id
              WHERE n.status = 'completed' AND (o.call_id IS NULL OR o.status <> 'completed' OR ${counted("o")} IS DISTINCT FROM ${counted("n")})
            ) x ORDER BY 1, 2) k;
    END IF;
    RETURN NULL;
  END $$`

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    CREATE TABLE trend_days (
      client_id text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      ck text,
      day date NOT NULL,
      closer_email text,
      newest_ms float8 NOT NULL,
      lowest_score float8,
      lowest_ms float8,
      lowest_call_id text,
      ${columns},
      ids text[] NOT NULL,
      times float8[] NOT NULL,
      metrics int[] NOT NULL,
      UNIQUE NULLS NOT DISTINCT (client_id, day, ck)
    )`)
  yield* sql.unsafe(DAY_ROWS)
  yield* sql.unsafe(REFRESH_DAY)
  yield* sql.unsafe(TRIGGER)
  yield* sql`CREATE TRIGGER calls_trend_days_insert AFTER INSERT ON calls REFERENCING NEW TABLE AS new_rows
             FOR EACH STATEMENT EXECUTE FUNCTION trend_days_changed()`
  yield* sql`CREATE TRIGGER calls_trend_days_update AFTER UPDATE ON calls REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
             FOR EACH STATEMENT EXECUTE FUNCTION trend_days_changed()`
  yield* sql`CREATE TRIGGER calls_trend_days_delete AFTER DELETE ON calls REFERENCING OLD TABLE AS old_rows
             FOR EACH STATEMENT EXECUTE FUNCTION trend_days_changed()`
  yield* sql.unsafe(`
    INSERT INTO trend_days (client_id, ck, day, closer_email, newest_ms, lowest_score, lowest_ms, lowest_call_id, ${columnNames}, ids, times, metrics)
    SELECT t.client_id, r.* FROM tenants t, LATERAL trend_day_rows(t.client_id, '-infinity', 'infinity') r`)
})
