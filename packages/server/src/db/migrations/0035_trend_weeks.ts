/**
 * The trends' numbers per tenant, closer and week (Monday to Sunday, UTC days), for the weeks that
 * are over (issue 39; views/TrendsQueries.ts, docs/trends.md "How it is counted"), kept as the
 * months are (migration 0033): `trend_weeks`, `trend_week_terms` and `trend_weeks_built`, built by
 * `trend_weeks_build(client, week)` from the week's days, and removed when a day of theirs is summed
 * again (`trend_days_refresh` now removes the day's month, then its week, each under its own lock).
 *
 * A read by week at 100,000 calls a year and 25 closers read ~1,100 day rows for six weeks, three
 * times (the numbers, the competitors' mentions, the steps): PostgreSQL's CPU was ~60 ms a read.
 * Five of those six weeks are over, and each is now one row per closer.
 *
 * PostgreSQL and embedded PGlite alike. Nothing is built here: the first read of a week builds it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { REFRESH_DAY_BODY, REFRESH_DAY_DECLARE } from "./0032_trend_days.js"
import { buildSpan, createSpanTables, MONTH, monthOf, removeSpanOf, type Span } from "./0033_trend_months.js"

export const WEEK: Span = {
  rows: "trend_weeks",
  terms: "trend_week_terms",
  built: "trend_weeks_built",
  column: "week",
  build: "trend_weeks_build",
  lock: 3_500_001,
  end: "p_first + 7"
}

/** The Monday of a date's week (ISO: Monday is day 1). */
const weekOf = (day: string) => `(${day} - (extract(isodow FROM ${day})::int - 1))`

/** The stale day summed again (0032), then its month (0033), then its week removed, mark and rows. */
const REFRESH_DAY = `
  CREATE OR REPLACE FUNCTION trend_days_refresh(p_client text, p_day date, p_ck text) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE ${REFRESH_DAY_DECLARE}
          p_month date := ${monthOf("p_day")};
          p_week date := ${weekOf("p_day")};
  BEGIN${REFRESH_DAY_BODY}${removeSpanOf(MONTH, "p_month")}${removeSpanOf(WEEK, "p_week")}
  END $$`

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* createSpanTables(sql, WEEK)
  for (const statement of [REFRESH_DAY, buildSpan(WEEK)]) yield* sql.unsafe(statement)
})
