/**
 * The trends' numbers per tenant, closer and UTC month, for the months that are over (issue 39;
 * views/TrendsQueries.ts, docs/trends.md "How it is counted").
 *
 * A year by month read ~8,800 rows of `trend_days` (migration 0032) at 100,000 calls a year and 25
 * closers, three times (the numbers, the competitors' mentions, the steps), ~225 ms. A month's
 * numbers are its days' numbers summed, so a month that is over is kept as one row per closer:
 *
 * - `trend_months`: `trend_days`' columns, `day` the month's first day; each number's sum and
 *   calls the days' sums; the newest call's e-mail spelling and time, and the lowest overall
 *   score's call, as the reads pick them from days; the calls among the newest 10 of each number
 *   (`ids`, `times`, `metrics`) the newest 10 of the days' lists (by time, then id, as a day ranks
 *   them); the days' near and far steps not kept, listed. A read judges a month's slipped steps as
 *   it judges a day's: from the summed near ones once its last day is 31 days past ("settled"),
 *   else from the lists.
 * - `trend_month_terms`: `trend_day_terms` per month the same way.
 * - `trend_months_built`: the tenant's months summed. A read uses a month's rows only when its
 *   mark is there; else it reads the month's days.
 *
 * `trend_months_build(client, month)` sums a month from its days under an advisory lock on the
 * month, and marks it built. `trend_days_refresh` (a stale day summed again, migration 0032) now
 * also takes that lock, after it has written the day, and removes the day's month (mark and
 * rows): a build that ran first is removed, and one that waited for the lock reads the day as
 * written (a statement of a PL/pgSQL function sees what committed before it began). The mark and
 * the rows go in one transaction, so a read sees a month whole or not at all.
 *
 * Also: the calls trigger of 0032 plans its look for each deal's previous call without bitmap scans.
 * In a statement that inserts many calls the table's statistics are older than its rows, and the
 * planner ANDed the deal's index with a range of `calls_trends_idx` over every call before the
 * new one's time (half the table, for each new call): 100,000 calls inserted at once took over
 * 17 minutes, growing with the square of their number (5,000: 3.3 s, 20,000: 41 s). With the
 * deal's index alone, 20,000 took 3.8 s, and 4.2 s with the trigger disabled.
 *
 * PostgreSQL and embedded PGlite alike. Nothing is built here: the first read of a month builds it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DAY_COLUMNS, MAX, METRICS, REFRESH_DAY_BODY, REFRESH_DAY_DECLARE, TERM_COLUMNS } from "./0032_trend_days.js"

/**
 * A span of days summed into rows of their own (a month here; a week, migration 0035): its tables,
 * its function, its mark's column, the advisory lock class of a tenant's span (the other key: the
 * span's hash), and the day after its last, from its first (`p_first`).
 */
export interface Span {
  readonly rows: string
  readonly terms: string
  readonly built: string
  readonly column: string
  readonly build: string
  readonly lock: number
  readonly end: string
}

export const MONTH: Span = {
  rows: "trend_months",
  terms: "trend_month_terms",
  built: "trend_months_built",
  column: "month",
  build: "trend_months_build",
  lock: 3_300_001,
  end: "(p_first + interval '1 month')::date"
}

export const lockSpan = (span: Span, client: string, first: string) =>
  `PERFORM pg_advisory_xact_lock(${span.lock}, hashtext(${client} || '/' || ${first}::text))`
/** The first day of the month of a date, without a time zone in between. */
export const monthOf = (day: string) => `make_date(extract(year FROM ${day})::int, extract(month FROM ${day})::int, 1)`

/** A day summed again removes its span (mark and rows), under the span's lock, after the day is written. */
export const removeSpanOf = (span: Span, first: string) => `
    ${lockSpan(span, "p_client", first)};
    DELETE FROM ${span.built} WHERE client_id = p_client AND ${span.column} = ${first};
    IF FOUND THEN
      DELETE FROM ${span.rows} WHERE client_id = p_client AND day = ${first};
      DELETE FROM ${span.terms} WHERE client_id = p_client AND day = ${first};
    END IF;`

/** The stale day summed again (0032's function as it was), then its month removed, mark and rows. */
const REFRESH_DAY = `
  CREATE OR REPLACE FUNCTION trend_days_refresh(p_client text, p_day date, p_ck text) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE ${REFRESH_DAY_DECLARE}
          p_month date := ${monthOf("p_day")};
  BEGIN${REFRESH_DAY_BODY}${removeSpanOf(MONTH, "p_month")}
  END $$`

const pick = (column: string) =>
  `(array_agg(${column} ORDER BY lowest_score, lowest_ms DESC, lowest_call_id DESC) FILTER (WHERE lowest_call_id IS NOT NULL))[1]`

/** A tenant's span (`p_first` its first day) summed from its days, unless built already; the caller knows it is over. */
export const buildSpan = (span: Span) => `
  CREATE FUNCTION ${span.build}(p_client text, p_first date) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE p_end date := ${span.end};
  BEGIN
    ${lockSpan(span, "p_client", "p_first")};
    INSERT INTO ${span.built} (client_id, ${span.column}) VALUES (p_client, p_first) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN RETURN; END IF;
    DELETE FROM ${span.rows} WHERE client_id = p_client AND day = p_first;
    DELETE FROM ${span.terms} WHERE client_id = p_client AND day = p_first;
    INSERT INTO ${span.rows} (client_id, ${DAY_COLUMNS})
    WITH d AS (SELECT * FROM trend_days WHERE client_id = p_client AND day >= p_first AND day < p_end),
    sums AS (
      SELECT ck, (array_agg(closer_email ORDER BY newest_ms DESC))[1] AS closer_email, max(newest_ms) AS newest_ms,
             ${pick("lowest_score")} AS lowest_score, ${pick("lowest_ms")} AS lowest_ms, ${pick("lowest_call_id")} AS lowest_call_id,
             ${METRICS.map((m) => `sum(s_${m.name})::float8 AS s_${m.name}, sum(n_${m.name})::int AS n_${m.name}`).join(", ")}
      FROM d GROUP BY ck),
    -- each number's newest ${MAX} among the days' newest ${MAX}, a call listed once with its numbers' bits: from the
    -- days whose newer days (of the month) have fewer than ${MAX} calls of the number (\`need\`, a bit per number)
    needed AS (
      SELECT d.ck, d.ids, d.times, d.metrics,
             ${METRICS.map((m, k) => `CASE WHEN COALESCE(sum(d.n_${m.name}) OVER w - d.n_${m.name}, 0) < ${MAX} THEN ${2 ** k} ELSE 0 END`).join(" + ")} AS need
      FROM d WINDOW w AS (PARTITION BY d.ck ORDER BY d.day DESC)),
    ranked AS (
      SELECT n.ck, u.id, u.ms, k, row_number() OVER (PARTITION BY n.ck, k ORDER BY u.ms DESC, u.id DESC) AS r
      FROM needed n, unnest(n.ids, n.times, n.metrics) AS u(id, ms, m), generate_series(0, ${METRICS.length - 1}) AS k
      WHERE n.need <> 0 AND ((u.m & n.need) >> k) & 1 = 1),
    newest AS (SELECT ck, id, ms, sum(1 << k)::int AS m FROM ranked WHERE r <= ${MAX} GROUP BY ck, id, ms),
    -- (materialized: joined on \`IS NOT DISTINCT FROM\`, a nested loop, they were summed again for every closer)
    lists AS MATERIALIZED (SELECT ck, array_agg(id) AS ids, array_agg(ms) AS times, array_agg(m) AS metrics FROM newest GROUP BY ck),
    near AS MATERIALIZED (
      SELECT d.ck, array_agg(f.id) AS ids, array_agg(f.ms) AS ms, array_agg(f.deadline) AS deadlines
      FROM d, unnest(d.near_ids, d.near_ms, d.near_deadlines) AS f(id, ms, deadline) GROUP BY d.ck),
    far AS MATERIALIZED (
      SELECT d.ck, array_agg(f.id) AS ids, array_agg(f.ms) AS ms, array_agg(f.deadline) AS deadlines, array_agg(f.new) AS new
      FROM d, unnest(d.far_ids, d.far_ms, d.far_deadlines, d.far_new) AS f(id, ms, deadline, new) GROUP BY d.ck)
    SELECT p_client, s.ck, p_first, s.closer_email, s.newest_ms, s.lowest_score, s.lowest_ms, s.lowest_call_id,
           ${METRICS.map((m) => `s.s_${m.name}, s.n_${m.name}`).join(", ")},
           COALESCE(l.ids, '{}'), COALESCE(l.times, '{}'), COALESCE(l.metrics, '{}'),
           COALESCE(n.ids, '{}'), COALESCE(n.ms, '{}'), COALESCE(n.deadlines, '{}'),
           COALESCE(f.ids, '{}'), COALESCE(f.ms, '{}'), COALESCE(f.deadlines, '{}'), COALESCE(f.new, '{}')
    FROM sums s LEFT JOIN lists l ON l.ck IS NOT DISTINCT FROM s.ck LEFT JOIN near n ON n.ck IS NOT DISTINCT FROM s.ck
    LEFT JOIN far f ON f.ck IS NOT DISTINCT FROM s.ck;
    INSERT INTO ${span.terms} (client_id, ${TERM_COLUMNS})
    WITH d AS (SELECT * FROM trend_day_terms WHERE client_id = p_client AND day >= p_first AND day < p_end),
    sums AS (SELECT ck, term, sum(mentions)::int AS mentions, sum(calls)::int AS calls FROM d GROUP BY ck, term),
    needed AS (SELECT d.*, COALESCE(sum(d.calls) OVER w - d.calls, 0) < ${MAX} AS need FROM d WINDOW w AS (PARTITION BY d.ck, d.term ORDER BY d.day DESC)),
    ranked AS (
      SELECT n.ck, n.term, u.id, u.ms, row_number() OVER (PARTITION BY n.ck, n.term ORDER BY u.ms DESC, u.id DESC) AS r
      FROM needed n, unnest(n.ids, n.times) AS u(id, ms) WHERE n.need),
    lists AS MATERIALIZED (SELECT ck, term, array_agg(id) AS ids, array_agg(ms) AS times FROM ranked WHERE r <= ${MAX} GROUP BY ck, term)
    SELECT p_client, s.ck, p_first, s.term, s.mentions, s.calls, COALESCE(l.ids, '{}'), COALESCE(l.times, '{}')
    FROM sums s LEFT JOIN lists l ON l.ck IS NOT DISTINCT FROM s.ck AND l.term IS NOT DISTINCT FROM s.term;
  END $$`

/** A span's tables: its rows and terms like the days', and its marks. */
export const createSpanTables = (sql: SqlClient.SqlClient, span: Span) =>
  Effect.gen(function* () {
    for (const [table, like] of [[span.rows, "trend_days"], [span.terms, "trend_day_terms"]]) {
      yield* sql.unsafe(`CREATE TABLE ${table} (LIKE ${like} INCLUDING ALL)`)
      yield* sql.unsafe(`ALTER TABLE ${table} ADD FOREIGN KEY (client_id) REFERENCES tenants (client_id) ON DELETE CASCADE`)
    }
    yield* sql.unsafe(`
      CREATE TABLE ${span.built} (
        client_id text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
        ${span.column} date NOT NULL,
        built_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (client_id, ${span.column})
      )`)
  })

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* createSpanTables(sql, MONTH)
  for (const statement of [REFRESH_DAY, buildSpan(MONTH)]) yield* sql.unsafe(statement)
  yield* sql.unsafe(`ALTER FUNCTION trend_days_calls_changed() SET enable_bitmapscan = off`)
})
