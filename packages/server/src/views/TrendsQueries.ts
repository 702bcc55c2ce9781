/**
 * What the trends view reads (views/Trends.ts; docs/trends.md): the completed calls that took place
 * in a window (`calls.occurred_at`, migration 0022), with the parts of their analysis the trends
 * count (objections' kinds, next steps' dues, the summary's needs' kinds, the scorecard); the
 * mentions of the Competitors tracker stored for those calls (`tracker_mentions` of the tracker whose
 * `source` is `market_profile`, migration 0021: read here, never matched here); the tenant's
 * closers; and, for market intelligence, the same across tenants with each call's segment
 * (`market_intel_call_facts`, migration 0011). Every tenant read takes the tenant's id; rows are
 * decoded by Schema.
 *
 * The tenant's trends are read aggregated (issue 39) from the numbers kept per tenant, closer and
 * UTC day (`trend_days`, `trend_day_terms`, migration 0032; docs/trends.md "How it is counted"):
 * `settle` first sums again the days written since they were summed; then `groups` one row per
 * period and closer, `mentionGroups` the same for the competitors' mentions, `stepGroups` the steps
 * kept and slipped, each from the windows' whole days and, for a window's cut ends, from the function
 * the tables are filled from. `steps` reads only the calls of a deal whose dues have no days stored
 * (normally none), with the deal's next call; a call's period there is `width_bucket` of its time
 * over the periods' starts (passed as one JSON array: a join on a set-returning function was
 * estimated at 100 rows and planned with JIT, seconds of compiling).
 */
import type { ClientId, Sees } from "@callsight/api-spec"
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"
import { DAY_MS, utcMonthStart, utcWeekStart } from "../lib/Time.js"
import { seenBy, SeesSchema } from "../tenancy/Sees.js"

export const TrendCloserRow = Schema.Struct({ closer_id: Schema.String, email: Schema.String, full_name: Schema.NullOr(Schema.String) })
export type TrendCloserRow = typeof TrendCloserRow.Type

/** A metric of a group: the sum (a count, or the scores), the calls it comes from, the newest calls' ids and their times (ms). */
export type GroupMetric = readonly [sum: number, calls: number, ids: ReadonlyArray<string>, times: ReadonlyArray<number>]

const isNumber = (u: unknown): u is number => typeof u === "number"
const isString = (u: unknown): u is string => typeof u === "string"
const isGroupMetric = (u: unknown): u is GroupMetric =>
  Array.isArray(u) && u.length === 4 && isNumber(u[0]) && isNumber(u[1]) &&
  Array.isArray(u[2]) && Array.isArray(u[3]) && u[2].length === u[3].length && u[2].every(isString) && u[3].every(isNumber)

/**
 * The arrays of the groups' rows, each checked by one guard, not element by element: Schema's array
 * parser pairs every element with its index and sorts the pairs back (ParseResult), which for the
 * ~80,000 ids and times of a 6-week read at 100,000 calls was most of the rows' decoding. `isSums`:
 * a group's `[sum, calls]` of each metric.
 */
const isSums = (u: unknown): u is ReadonlyArray<readonly [sum: number, calls: number]> =>
  Array.isArray(u) && u.every((m) => Array.isArray(m) && m.length === 2 && isNumber(m[0]) && isNumber(m[1]))
const isStrings = (u: unknown): u is ReadonlyArray<string> => Array.isArray(u) && u.every(isString)
const isNumbers = (u: unknown): u is ReadonlyArray<number> => Array.isArray(u) && u.every(isNumber)
const isNullOrString = (u: unknown): u is string | null => u === null || isString(u)

/**
 * A row read by many (a team's 26 weeks at 100,000 calls: ~2,700 rows of the three statements
 * below) checked by one guard per column (`Schema.declare`), not parsed by `Schema.Struct`: a
 * struct's parser makes an object, a result for every column and, for a `NullOr`, the union's
 * arrays, ~4 MB a read of short-lived objects the collector then copies. The row is the driver's
 * object as it came, every column of the type checked.
 */
const checkedRow = <A extends object>(identifier: string, columns: { readonly [K in keyof A]-?: (u: unknown) => u is A[K] }) =>
  Schema.declare((u: unknown): u is A => {
    if (typeof u !== "object" || u === null) return false
    for (const key in columns) {
      if (!columns[key]((u as Record<string, unknown>)[key])) return false
    }
    return true
  }, { identifier })

/**
 * One period (`p`, the window's index) of one closer (`ck`: the e-mail in lower case; null for the
 * calls without one), aggregated in SQL: `counts` (`[sum, calls]`) in the order of `COUNT_METRICS`,
 * `scores` in the order of `SCORE_METRICS`; `closer_email` as the group's newest call spells it;
 * `lowest_call_id` the call of the lowest overall score (the newest of equals).
 *
 * The calls behind the numbers, once each: `ids`, their times (`times`, ms) and `metrics`, whose
 * bit k says the call is among the newest `max` of metric k (the counts' metrics first, then the
 * scores'; a group of one row keeps the row's bits past them, the steps', which are not read). The
 * three are filled from the same rows in the same order, in no order (the service keeps the
 * newest). A call stands behind many numbers of its group (the newest calls behind most): listed
 * once with its bits, a period and closer of six weeks at 100,000 calls lists ~23 ids, where one
 * list per metric held 180.
 */
export interface TrendGroupRow {
  readonly p: number
  readonly ck: string | null
  readonly closer_email: string | null
  readonly newest_ms: number
  readonly lowest_call_id: string | null
  readonly counts: ReadonlyArray<readonly [sum: number, calls: number]>
  readonly scores: ReadonlyArray<readonly [sum: number, calls: number]>
  readonly ids: ReadonlyArray<string>
  readonly times: ReadonlyArray<number>
  readonly metrics: ReadonlyArray<number>
}
export const TrendGroupRow = checkedRow<TrendGroupRow>("TrendGroupRow", {
  p: isNumber,
  ck: isNullOrString,
  closer_email: isNullOrString,
  newest_ms: isNumber,
  lowest_call_id: isNullOrString,
  counts: isSums,
  scores: isSums,
  ids: isStrings,
  times: isNumbers,
  metrics: isNumbers
})

/** The competitor mentions of one period, closer and term (`term` null: all terms). */
export interface TrendMentionGroupRow {
  readonly p: number
  readonly ck: string | null
  readonly term: string | null
  readonly metric: GroupMetric
}
export const TrendMentionGroupRow = checkedRow<TrendMentionGroupRow>("TrendMentionGroupRow", {
  p: isNumber,
  ck: isNullOrString,
  term: isNullOrString,
  metric: isGroupMetric
})

/**
 * The steps kept and slipped of one period and closer, from the days stored with the calls
 * (`calls.trend_due_days`, migration 0027): `[steps, calls, newest ids, their times]` each.
 */
export interface TrendStepGroupRow {
  readonly p: number
  readonly ck: string | null
  readonly kept: GroupMetric
  readonly slipped: GroupMetric
}
export const TrendStepGroupRow = checkedRow<TrendStepGroupRow>("TrendStepGroupRow", {
  p: isNumber,
  ck: isNullOrString,
  kept: isGroupMetric,
  slipped: isGroupMetric
})

/**
 * A call of a deal in the windows with a step said with a due whose day is not stored (a result not
 * written by the analysis: `trend_due_days` null), and when the deal's next completed call took place.
 */
export const TrendStepRow = Schema.Struct({
  call_id: Schema.String,
  ck: Schema.NullOr(Schema.String),
  p: Schema.Number,
  occurred_at: Rows.IsoTimestamp,
  next_at: Schema.NullOr(Schema.Number),
  dues: Schema.Array(Schema.String)
})
export type TrendStepRow = typeof TrendStepRow.Type

/** The per-call counts the trends sum, in this order (`TrendGroupRow.counts`). */
export const COUNT_METRICS = [
  "calls",
  "objections",
  "price",
  "budget",
  "timing",
  "authority",
  "need",
  "competitor",
  "pains",
  "said",
  "dated"
] as const
/** The scores the trends average, in this order (`TrendGroupRow.scores`). */
export const SCORE_METRICS = ["overall", "discovery", "listening", "objection_handling", "value", "next_steps", "conversation_flow"] as const
/** A group's metrics in the order of their bits in `TrendGroupRow.metrics`: the counts, then the scores. */
export const METRICS = [...COUNT_METRICS, ...SCORE_METRICS] as const

/**
 * Where each count of a call sits in `calls.trend_facts` (1-based; migration 0025 writes the array
 * in this layout): every count metric but `calls`, each scorecard dimension's `[sum, count]` of its
 * numeric scores, and two facts the daily brief's open deals read.
 */
export const TREND_FACT = {
  objections: 1,
  price: 2,
  budget: 3,
  timing: 4,
  authority: 5,
  need: 6,
  competitor: 7,
  pains: 8,
  said: 9,
  dated: 10,
  discovery: [11, 12],
  listening: [13, 14],
  objection_handling: [15, 16],
  value: [17, 18],
  next_steps: [19, 20],
  conversation_flow: [21, 22],
  /** Objections answered `other` (left unexplored). */
  unexplored: 23,
  /** 1 when the result has a transcript. */
  transcript: 24
} as const satisfies
  & Record<Exclude<(typeof COUNT_METRICS)[number], "calls">, number>
  & Record<Exclude<(typeof SCORE_METRICS)[number], "overall">, readonly [number, number]>
  & Record<"unexplored" | "transcript", number>

/**
 * `x.tf`: the call `alias`'s `trend_facts` unpacked once, as a lateral subquery of its row (kept
 * apart by `OFFSET 0`, or the planner would put the expression back in every reference). PostgreSQL
 * keeps the array compressed in a long row, and in the indexes that include it, and each subscript
 * decompresses the whole array again: the trends' 22 subscripts a call were a fifth of their
 * statement (six weeks at 100,000 calls: 133 → 109 ms).
 */
export const unpackedFacts = (sql: SqlClient.SqlClient, alias: string) =>
  sql.literal(`LATERAL (SELECT ${alias}.trend_facts || '{}'::float8[] AS tf OFFSET 0) x`)

/**
 * `m`: the stored mentions (`m.call_id`, `m.client_id`, `m.term`) of the Competitors trackers (the
 * trackers whose `source` is `market_profile`) of the tenants `tenants` names (a condition on
 * `t.client_id`), read tracker by tracker from `tracker_mentions_terms_idx` (migration 0030). Joined
 * the other way round, every tracker's mentions of the tenants were read from the table and hashed
 * (six weeks at 100,000 calls: 42 → 34 ms). The trends and market intelligence's segment trends read them.
 */
export const competitorMentions = (sql: SqlClient.SqlClient, tenants: Statement.Fragment) =>
  sql`(SELECT t.tracker_id FROM trackers t WHERE ${tenants} AND t.source = 'market_profile' OFFSET 0) t
      JOIN LATERAL (SELECT m.call_id, m.client_id, m.term FROM tracker_mentions m WHERE m.tracker_id = t.tracker_id OFFSET 0) m ON true`

/** A day is settled when every step deadline near it (migration 0032: within 31 days) has passed. */
const NEAR_DAYS = 31

/** The tables of days, and of the months and weeks summed from them (migrations 0032, 0033, 0035). */
type DayTable = "trend_days" | "trend_day_terms"
const MONTH_TABLE: Record<DayTable, string> = { trend_days: "trend_months", trend_day_terms: "trend_month_terms" }
const WEEK_TABLE: Record<DayTable, string> = { trend_days: "trend_weeks", trend_day_terms: "trend_week_terms" }

/** `columns` (comma-separated: a name, or an expression over the row `{}`) of the row `alias`. */
const columnsOf = (columns: string, alias: string) =>
  columns.split(",").map((c) => (c.includes("{}") ? c.trim().replaceAll("{}", alias) : `${alias}.${c.trim()}`)).join(", ")

/**
 * A part of a window (`dayRows`): a whole month or week that is over (its first day, and the day
 * after its last), whole days (dates, `to` excluded), or a cut end's calls (instants).
 */
type DayPart = readonly [p: number, kind: "month" | "week" | "days" | "calls", from: string, to: string]

const Window = {
  clientId: Schema.String,
  sees: SeesSchema,
  from: Schema.String,
  to: Schema.String,
  closerEmail: Schema.NullOr(Schema.String)
}

export class TrendsQueries extends Effect.Service<TrendsQueries>()("TrendsQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    // ---- the aggregated reads (issue 39): one row per period and closer, not one per call ----

    /**
     * The windows as one row `b` of two arrays (`f` their starts, `t` their ends), from a JSON array
     * of [from, to] pairs, oldest first. A call's window is `width_bucket(occurred_at, b.f)` (1-based;
     * 0 before the first), the call kept when it is before that window's end.
     */
    const windowsCte = (windows: string) =>
      sql`b AS (SELECT ARRAY(SELECT (x.v ->> 0)::timestamptz FROM jsonb_array_elements(${windows}::jsonb) WITH ORDINALITY AS x(v, i) ORDER BY x.i) AS f,
                       ARRAY(SELECT (x.v ->> 1)::timestamptz FROM jsonb_array_elements(${windows}::jsonb) WITH ORDINALITY AS x(v, i) ORDER BY x.i) AS t)`
    /**
     * The tenant's completed calls `c` in the windows, seen by `sees`, of the closer when one is asked
     * for. The window test is one `IS NOT NULL` (estimated at 99.5 %): as two comparisons of
     * `width_bucket` it was estimated at 1/9 of the range, and a closer's 26 weeks were read through
     * the heap by the closer's index.
     */
    const inWindows = (r: { clientId: string; sees: unknown; from: string; to: string; closerEmail: string | null }) =>
      sql`c.client_id = ${r.clientId} AND c.status = 'completed'
          AND c.occurred_at >= ${r.from}::timestamptz AND c.occurred_at < ${r.to}::timestamptz AND ${seenInWindows(r)}`
    /** The part of `inWindows` on the index's columns alone (`occurred_at`, `closer_email`): the windows, the viewer, the closer. */
    const seenInWindows = (r: { sees: unknown; closerEmail: string | null }) =>
      sql`(CASE WHEN width_bucket(c.occurred_at, b.f) > 0 AND c.occurred_at < b.t[width_bucket(c.occurred_at, b.f)] THEN true END) IS NOT NULL
          AND ${seenBy(sql, r.sees as Sees, "c.closer_email")}
          AND (${r.closerEmail}::text IS NULL OR lower(c.closer_email) = lower(${r.closerEmail}))`
    /**
     * `byCloser` false: the team's groups alone (one per period, `ck` null), for a reader of the
     * team's numbers only. `now`: when the steps' deadlines are judged, and which months and weeks are over.
     */
    const GroupsRequest = Schema.Struct({
      ...Window,
      windows: Schema.String,
      max: Schema.Number,
      byCloser: Schema.Boolean,
      now: Schema.String,
      /** The last window's cut last day read whole from its stored row (`settle` finds when it may be). */
      wholeLastDay: Schema.optional(Schema.Boolean)
    })
    /** A call's closer key (its closer's e-mail in lower case), or none when the groups are the team's alone. */
    const closerKey = (r: { readonly byCloser: boolean }) => sql.literal(r.byCloser ? "lower(c.closer_email)" : "NULL::text")

    /**
     * The windows cut into whole UTC months, weeks and days, read from `trend_months`, `trend_weeks`
     * and `trend_days` (migrations 0033, 0035, 0032), and the parts of days left at a window's ends
     * (`since`, `until`, a time zone's midnight), summed from the calls by the same function that
     * fills the tables (`trend_day_rows`): `[p, "month", first day, next month's]` for each whole
     * calendar month that is over at `now`, `[p, "week", its Monday, the next]` for each whole week
     * (Monday to Sunday) that is over among the days left, `[p, "days", from, to]` (dates, `to`
     * excluded) and `[p, "calls", from, to]` (instants).
     */
    const dayParts = (windows: string, now: string, wholeLastDay = false) => {
      const nowMs = Date.parse(now)
      const iso = (ms: number) => new Date(ms).toISOString()
      const day = (ms: number) => iso(ms).slice(0, 10)
      /** The days from `start` to `end` (ms, UTC midnights) of window `p`: its whole weeks that are over, and the days around them. */
      const days = (p: number, start: number, end: number): Array<DayPart> => {
        const parts: Array<DayPart> = []
        // the first Monday from `start` (1970-01-01 was a Thursday: day 0 of the epoch is 3 days after a Monday)
        let week = start + ((7 - ((start / DAY_MS + 3) % 7)) % 7) * DAY_MS
        let from = start
        for (; week + 7 * DAY_MS <= end && week + 7 * DAY_MS <= nowMs; week += 7 * DAY_MS) {
          if (from < week) parts.push([p, "days", day(from), day(week)])
          parts.push([p, "week", day(week), day(week + 7 * DAY_MS)])
          from = week + 7 * DAY_MS
        }
        if (from < end) parts.push([p, "days", day(from), day(end)])
        return parts
      }
      const all = JSON.parse(windows) as ReadonlyArray<readonly [string, string]>
      return all.flatMap(([from, to], p): Array<DayPart> => {
        const lo = Date.parse(from)
        const hi = Date.parse(to)
        const firstDay = Math.ceil(lo / DAY_MS) * DAY_MS
        const lastDay = Math.floor(hi / DAY_MS) * DAY_MS
        if (firstDay >= lastDay) return lo < hi ? [[p, "calls", from, to]] : []
        const whole: Array<DayPart> = []
        let start = firstDay
        let month = utcMonthStart(firstDay) < firstDay ? utcMonthStart(firstDay, 1) : firstDay
        for (let end = utcMonthStart(month, 1); end <= lastDay && end <= nowMs; end = utcMonthStart(month, 1)) {
          if (start < month) whole.push(...days(p, start, month))
          whole.push([p, "month", day(month), day(end)])
          start = month = end
        }
        if (start < lastDay) whole.push(...days(p, start, lastDay))
        const lastCut: Array<DayPart> = lastDay >= hi
          ? []
          : wholeLastDay && p === all.length - 1
          ? [[p, "days", day(lastDay), day(lastDay + DAY_MS)]]
          : [[p, "calls", iso(lastDay), to]]
        return [...(lo < firstDay ? [[p, "calls", from, iso(firstDay)] as const] : []), ...whole, ...lastCut]
      })
    }
    /** The bits of the steps' numbers in a day's `metrics` (migration 0032: after the counts and scores). */
    const KEPT_BIT = 2 ** METRICS.length
    const SLIPPED_BIT = 2 ** (METRICS.length + 1)
    /** A number written into a statement as it is (a constant, or one made here: never a caller's text). */
    const n = (x: number) => sql.literal(String(x))
    /**
     * A day row's newer days (of its period and group): `upto` the days up to its own (its own
     * included); `newer(x)` the sum of `x` over the newer days. A closer's group has one row a day,
     * so that is `upto`'s sum less the row's own; the team's (the daily brief's two weeks) has a row
     * per closer a day, less its day's (`today`). (A frame that excludes the current day, `EXCLUDE
     * GROUP`, is summed again for every row, and so is `today`'s: a year by month, 25 closers, was
     * 55 ms of window, then 45.)
     */
    const windows = (r: typeof GroupsRequest.Type, partition: string) =>
      sql.literal(
        `upto AS (PARTITION BY ${partition} ORDER BY day DESC)${r.byCloser ? "" : ", today AS (upto RANGE BETWEEN CURRENT ROW AND CURRENT ROW)"}` +
          `, grp AS (PARTITION BY ${partition})`
      )
    /**
     * `alone`: the row is its group's only one (a month that is a whole window, a day that is one):
     * its lists are the group's as they are, not unnested and gathered again (a year by month, 25
     * closers: ~300 rows, a third of each statement's time).
     */
    const alone = sql.literal("count(*) OVER grp = 1 AS alone")
    const newer = (r: typeof GroupsRequest.Type, x: string) => r.byCloser ? `(sum(${x}) OVER upto - ${x})` : `(sum(${x}) OVER upto - sum(${x}) OVER today)`

    /**
     * `parts`, `edges`, `days` and `seen`: the rows of `table` for the windows' whole days, of its
     * month and week tables for their whole months and weeks that are over (those built: else their days), and of `rows`
     * (the function the tables are filled from) for their cut ends (`edges`, each with its `eid`),
     * as `p` (the window), `src` and `tid` or `eid` (where the row is), and `columns` (a name, or an
     * expression over the row `{}`); those the viewer sees (and of the closer asked for), with `g`
     * their group's closer key (null when the groups are the team's alone). A month's or week's row
     * stands where its days would, `day` its first day. `columns` are the narrow ones the sums and ranks
     * need: a row's lists (`listsOf`) are read only for the rows that can hold a newest call, ~1 in
     * 10 of a year's days (and sorting the rows with their lists spilled to disk).
     */
    const dayRows = (r: typeof GroupsRequest.Type, table: DayTable, rows: string, columns: string) => {
      const cols = (alias: string) => sql.literal(columnsOf(columns, alias))
      const months = sql.literal(MONTH_TABLE[table])
      const weeks = sql.literal(WEEK_TABLE[table])
      // the parts as a VALUES list: the planner knows how many there are and of which kind (from a JSON
      // array it guessed 100 rows, and read a closer's every day from the table to match them against
      // the parts, ~8 ms of a closer's 26 weeks)
      const parts = dayParts(r.windows, r.now, r.wholeLastDay).map(([p, kind, lo, hi]) => sql`(${p}::int, ${kind}::text, ${lo}::text, ${hi}::text)`)
      return sql`parts (p, kind, lo, hi) AS (
              ${parts.length === 0 ? sql`SELECT NULL::int, NULL::text, NULL::text, NULL::text WHERE false` : sql`VALUES ${sql.join(", ", false)(parts)}`}),
            built AS (
              SELECT parts.p, parts.kind, b.month AS first FROM parts JOIN trend_months_built b ON b.client_id = ${r.clientId} AND b.month = parts.lo::date
              WHERE parts.kind = 'month'
              UNION ALL
              SELECT parts.p, parts.kind, b.week FROM parts JOIN trend_weeks_built b ON b.client_id = ${r.clientId} AND b.week = parts.lo::date
              WHERE parts.kind = 'week'),
            edges AS (
              SELECT row_number() OVER () AS eid, parts.p, d.*
              FROM parts, LATERAL ${sql.literal(rows)}(${r.clientId}, parts.lo::timestamptz, parts.hi::timestamptz) d
              WHERE parts.kind = 'calls'),
            days AS (
              -- whole days, and the days of a month or week not summed: each part's days read by their range
              -- (a closer's whole table was read and matched against the parts when the planner chose)
              SELECT parts.p, 'd' AS src, d.tid, NULL::bigint AS eid, ${cols("d")}
              FROM parts CROSS JOIN LATERAL (
                SELECT d.ctid AS tid, d.* FROM ${sql.literal(table)} d
                WHERE d.client_id = ${r.clientId} AND d.day >= parts.lo::date AND d.day < parts.hi::date
                  AND (${r.closerEmail}::text IS NULL OR d.ck = lower(${r.closerEmail})) OFFSET 0) d
              WHERE parts.kind = 'days'
                 OR (parts.kind IN ('month', 'week') AND NOT EXISTS (SELECT 1 FROM built WHERE built.kind = parts.kind AND built.first = parts.lo::date))
              UNION ALL
              SELECT built.p, 'm', d.ctid, NULL::bigint, ${cols("d")}
              FROM built JOIN ${months} d ON d.client_id = ${r.clientId} AND d.day = built.first WHERE built.kind = 'month'
              UNION ALL
              SELECT built.p, 'w', d.ctid, NULL::bigint, ${cols("d")}
              FROM built JOIN ${weeks} d ON d.client_id = ${r.clientId} AND d.day = built.first WHERE built.kind = 'week'
              UNION ALL
              SELECT e.p, 'e', NULL::tid, e.eid, ${cols("e")} FROM edges e),
            seen AS (
              SELECT d.*, ${sql.literal(r.byCloser ? "d.ck" : "NULL::text")} AS g FROM days d
              WHERE ${seenBy(sql, r.sees, "d.ck")} AND (${r.closerEmail}::text IS NULL OR d.ck = lower(${r.closerEmail})))`
    }
    /** `a`: the lists `columns` of the row `alias` of `seen` (`dayRows`), from `table`, its month or week table or its cut end. */
    const listsOf = (alias: string, table: DayTable, columns: string) => {
      const cols = (x: string) => columnsOf(columns, x)
      return sql.literal(
        `LATERAL (SELECT ${cols("t")} FROM ${table} t WHERE ${alias}.src = 'd' AND t.ctid = ${alias}.tid
                  UNION ALL SELECT ${cols("t")} FROM ${MONTH_TABLE[table]} t WHERE ${alias}.src = 'm' AND t.ctid = ${alias}.tid
                  UNION ALL SELECT ${cols("t")} FROM ${WEEK_TABLE[table]} t WHERE ${alias}.src = 'w' AND t.ctid = ${alias}.tid
                  UNION ALL SELECT ${cols("e")} FROM edges e WHERE e.eid = ${alias}.eid) a`
      )
    }

    /**
     * One row per period and closer (`TrendGroupRow`) from the days of `trend_days` and the cut ends.
     * The sums are the days' sums. A number's newest `max` calls are among the newest `max` of its
     * days (each day keeps its own), and only the days that can hold one are read: a day whose newer
     * days (of the period and closer) have `max` calls of the number already has none of its newest
     * (`need`: bit k for each number the day can still add to). The service keeps the newest.
     */
    const groups = Rows.findAll({
      Request: GroupsRequest,
      Result: TrendGroupRow,
      execute: (r) => {
        const before = sql.literal(METRICS.map((m, k) => `${newer(r, `n_${m}`)} AS b${k}`).join(", "))
        const need = sql.literal(METRICS.map((_, k) => `CASE WHEN COALESCE(b${k}, 0) < ${r.max} THEN ${2 ** k} ELSE 0 END`).join(" + "))
        const pair = (m: string) => `json_build_array(sum(s_${m}), sum(n_${m}))`
        const own = (m: string) => `json_build_array(n.s_${m}, n.n_${m})`
        const columns = `ck, day, closer_email, newest_ms, lowest_score, lowest_ms, lowest_call_id, ${METRICS.map((m) => `s_${m}, n_${m}`).join(", ")}`
        // a group of one row (a whole month or week that is over, in a window of its own: every
        // period of a year by month, or of 26 weeks, but the last) is that row as it is, neither
        // aggregated nor joined to its lists; and the arrays are json, not jsonb (the driver parses
        // the text either way: jsonb's binary form was made only to be written out as text again).
        // 26 weeks at 100,000 calls, 676 groups: 23.4 -> 20.4 (json) -> 16.5 ms (alone)
        return sql`WITH ${dayRows(r, "trend_days", "trend_day_rows", columns)},
            needed AS (SELECT s.*, ${need} AS need FROM (SELECT seen.*, ${before}, ${alone} FROM seen WINDOW ${windows(r, "p, g")}) s),
            sums AS (
              SELECT p, g, (array_agg(closer_email ORDER BY newest_ms DESC))[1] AS closer_email, max(newest_ms) AS newest_ms,
                     (array_agg(lowest_call_id ORDER BY lowest_score, lowest_ms DESC, lowest_call_id DESC) FILTER (WHERE lowest_call_id IS NOT NULL))[1] AS lowest_call_id,
                     json_build_array(${sql.literal(COUNT_METRICS.map(pair).join(", "))}) AS counts,
                     json_build_array(${sql.literal(SCORE_METRICS.map(pair).join(", "))}) AS scores
              FROM needed WHERE NOT alone GROUP BY p, g),
            lists AS (
              SELECT n.p, n.g, array_agg(u.id) AS ids, array_agg(u.ms) AS times, array_agg(u.m & n.need) AS metrics
              FROM needed n, ${listsOf("n", "trend_days", "ids, times, metrics")}, unnest(a.ids, a.times, a.metrics) AS u(id, ms, m)
              WHERE NOT n.alone AND n.need <> 0 AND (u.m & n.need) <> 0
              GROUP BY n.p, n.g)
            SELECT s.p, s.g AS ck, s.closer_email, s.newest_ms, s.lowest_call_id, s.counts, s.scores,
                   to_json(COALESCE(l.ids, '{}'::text[])) AS ids, to_json(COALESCE(l.times, '{}'::float8[])) AS times,
                   to_json(COALESCE(l.metrics, '{}'::int[])) AS metrics
            FROM sums s LEFT JOIN lists l ON l.p = s.p AND l.g IS NOT DISTINCT FROM s.g
            UNION ALL
            SELECT n.p, n.g, n.closer_email, n.newest_ms, n.lowest_call_id,
                   json_build_array(${sql.literal(COUNT_METRICS.map(own).join(", "))}),
                   json_build_array(${sql.literal(SCORE_METRICS.map(own).join(", "))}),
                   to_json(a.ids), to_json(a.times), to_json(a.metrics)
            FROM needed n, ${listsOf("n", "trend_days", "ids, times, metrics")} WHERE n.alone`
      }
    })

    /**
     * The Competitors tracker's mentions per period, closer and term (null: all terms) from
     * `trend_day_terms` and the cut ends, the newest ids from the days that can hold them (as `groups`).
     */
    const mentionGroups = Rows.findAll({
      Request: GroupsRequest,
      Result: TrendMentionGroupRow,
      execute: (r) =>
        sql`WITH ${dayRows(r, "trend_day_terms", "trend_day_term_rows", "ck, day, term, mentions, calls")},
            needed AS (
              SELECT seen.*, ${sql.literal(newer(r, "calls"))} < ${n(r.max)} AS need, ${alone} FROM seen WINDOW ${windows(r, "p, g, term")}),
            sums AS (SELECT p, g, term, sum(mentions) AS mentions, sum(calls) AS calls FROM needed WHERE NOT alone GROUP BY p, g, term),
            lists AS (
              SELECT n.p, n.g, n.term, array_agg(u.id) AS ids, array_agg(u.ms) AS times
              FROM needed n, ${listsOf("n", "trend_day_terms", "ids, times")}, unnest(a.ids, a.times) AS u(id, ms)
              WHERE n.need AND NOT n.alone GROUP BY n.p, n.g, n.term)
            SELECT s.p, s.g AS ck, s.term,
                   json_build_array(s.mentions, s.calls, COALESCE(l.ids, '{}'::text[]), COALESCE(l.times, '{}'::float8[])) AS metric
            FROM sums s LEFT JOIN lists l ON l.p = s.p AND l.g IS NOT DISTINCT FROM s.g AND l.term IS NOT DISTINCT FROM s.term
            UNION ALL
            -- a group of one row as it is (as in groups)
            SELECT n.p, n.g, n.term, json_build_array(n.mentions, n.calls, a.ids, a.times)
            FROM needed n, ${listsOf("n", "trend_day_terms", "ids, times")} WHERE n.alone`
    })

    /**
     * Kept and slipped per period and closer (docs/trends.md; the deal timeline's rule) from
     * `trend_days`, `trend_months`, `trend_weeks` and the cut ends (migrations 0032, 0033, 0035). Kept is summed per day.
     * A step not kept is slipped once its deadline has passed (`now`): a settled day's near ones are
     * its summed `slipped`, and its far ones are counted from their list when their deadline has
     * passed; a newer day's (or a cut end's) are all counted from their lists. A month or a week is
     * settled when its last day is. The newest ids: kept and a settled day's slipped from the days that can
     * hold them (as `groups`), and every listed call slipped.
     */
    const stepGroups = Rows.findAll({
      Request: GroupsRequest,
      Result: TrendStepGroupRow,
      execute: (r) => {
        const now = sql`${r.now}::timestamptz`
        const nowMs = Date.parse(r.now)
        return sql`WITH ${dayRows(r, "trend_days", "trend_day_rows", "ck, day, s_kept, n_kept, s_slipped, n_slipped, cardinality({}.far_ids) > 0 AS far")},
            flagged AS (
              SELECT seen.*, tid IS NOT NULL AND (CASE WHEN src = 'm' THEN (day + interval '1 month')::date - 1 WHEN src = 'w' THEN day + 6 ELSE day END + ${n(NEAR_DAYS)})::timestamp
                                                  AT TIME ZONE 'UTC' <= ${now} AS settled
              FROM seen),
            needed AS (
              SELECT f.*, CASE WHEN COALESCE(f.bk, 0) < ${n(r.max)} THEN ${n(KEPT_BIT)} ELSE 0 END
                          + CASE WHEN f.settled AND COALESCE(f.bs, 0) < ${n(r.max)} THEN ${n(SLIPPED_BIT)} ELSE 0 END AS need
              FROM (SELECT flagged.*, ${sql.literal(newer(r, "n_kept"))} AS bk, ${sql.literal(newer(r, "CASE WHEN settled THEN n_slipped ELSE 0 END"))} AS bs
                    FROM flagged WINDOW ${windows(r, "p, g")}) f),
            entries AS (
              SELECT n.p, n.g, e.id, e.ms, NOT n.settled OR e.new AS new_call
              FROM needed n, ${listsOf("n", "trend_days", "far_ids, far_ms, far_deadlines, far_new")},
                   unnest(a.far_ids, a.far_ms, a.far_deadlines, a.far_new) AS e(id, ms, deadline, new)
              WHERE n.far AND e.deadline <= ${n(nowMs)}
              UNION ALL
              SELECT n.p, n.g, e.id, e.ms, true
              FROM needed n, ${listsOf("n", "trend_days", "near_ids, near_ms, near_deadlines")},
                   unnest(a.near_ids, a.near_ms, a.near_deadlines) AS e(id, ms, deadline)
              WHERE NOT n.settled AND e.deadline <= ${n(nowMs)}),
            entry_calls AS (SELECT p, g, id, ms, count(*) AS steps, bool_or(new_call) AS new_call FROM entries GROUP BY p, g, id, ms),
            calls_behind AS (
              SELECT p, g, id, ms, bool_or(kept) AS kept, bool_or(slipped) AS slipped FROM (
                SELECT n.p, n.g, u.id, u.ms, (u.m & n.need & ${n(KEPT_BIT)}) <> 0 AS kept, (u.m & n.need & ${n(SLIPPED_BIT)}) <> 0 AS slipped
                FROM needed n, ${listsOf("n", "trend_days", "ids, times, metrics")}, unnest(a.ids, a.times, a.metrics) AS u(id, ms, m)
                WHERE n.need <> 0 AND (u.m & n.need) <> 0
                UNION ALL
                SELECT p, g, id, ms, false, true FROM entry_calls) x
              GROUP BY p, g, id, ms),
            lists AS (
              SELECT p, g, array_agg(id) FILTER (WHERE kept) AS kept_ids, array_agg(ms) FILTER (WHERE kept) AS kept_times,
                     array_agg(id) FILTER (WHERE slipped) AS slipped_ids, array_agg(ms) FILTER (WHERE slipped) AS slipped_times
              FROM calls_behind GROUP BY p, g),
            sums AS (
              SELECT p, g, sum(s_kept) AS s_kept, sum(n_kept) AS n_kept,
                     COALESCE(sum(s_slipped) FILTER (WHERE settled), 0) AS s_slipped, COALESCE(sum(n_slipped) FILTER (WHERE settled), 0) AS n_slipped
              FROM needed GROUP BY p, g),
            entry_sums AS (SELECT p, g, sum(steps) AS steps, count(*) FILTER (WHERE new_call) AS calls FROM entry_calls GROUP BY p, g)
            SELECT s.p, s.g AS ck,
                   json_build_array(s.s_kept, s.n_kept, COALESCE(l.kept_ids, '{}'::text[]), COALESCE(l.kept_times, '{}'::float8[])) AS kept,
                   json_build_array(s.s_slipped + COALESCE(e.steps, 0), s.n_slipped + COALESCE(e.calls, 0),
                                     COALESCE(l.slipped_ids, '{}'::text[]), COALESCE(l.slipped_times, '{}'::float8[])) AS slipped
            FROM sums s
            LEFT JOIN entry_sums e ON e.p = s.p AND e.g IS NOT DISTINCT FROM s.g
            LEFT JOIN lists l ON l.p = s.p AND l.g IS NOT DISTINCT FROM s.g`
      }
    })

    /**
     * The tenant's closers' days between `from` and `to` written since they were summed (`trend_days_stale`,
     * migration 0032), summed again one by one, each in its own statement (a read holds one mark at a
     * time: it cannot deadlock with a writer holding others); then the windows' months and weeks that
     * are over, not summed yet (or since a day of theirs was summed again), summed from their days
     * (migrations 0033, 0035), each in its own statement.
     */
    const staleDays = Rows.findAll({
      Request: Schema.Struct({ clientId: Schema.String, from: Schema.String, to: Schema.String }),
      Result: Schema.Struct({ day: Schema.String, ck: Schema.NullOr(Schema.String) }),
      execute: (r) =>
        sql`SELECT day::text AS day, ck FROM trend_days_stale
            WHERE client_id = ${r.clientId} AND day >= (${r.from}::timestamptz AT TIME ZONE 'UTC')::date
              AND day <= (${r.to}::timestamptz AT TIME ZONE 'UTC')::date
            ORDER BY day, ck`
    })
    /** Of these months and weeks (their first days), those not summed yet, with the function that sums them. */
    const unbuilt = Rows.findAll({
      Request: Schema.Struct({ clientId: Schema.String, months: Schema.Array(Schema.String), weeks: Schema.Array(Schema.String) }),
      Result: Schema.Struct({ first: Schema.String, week: Schema.Boolean }),
      execute: (r) =>
        sql`SELECT to_char(m, 'YYYY-MM-DD') AS first, false AS week FROM unnest(${r.months}::date[]) AS m
            WHERE NOT EXISTS (SELECT 1 FROM trend_months_built b WHERE b.client_id = ${r.clientId} AND b.month = m)
            UNION ALL
            SELECT to_char(w, 'YYYY-MM-DD'), true FROM unnest(${r.weeks}::date[]) AS w
            WHERE NOT EXISTS (SELECT 1 FROM trend_weeks_built b WHERE b.client_id = ${r.clientId} AND b.week = w)
            ORDER BY 1, 2`
    })
    /**
     * Whether no completed call of the tenant took place from `to` to the end of its UTC day (the
     * tenant's completed calls by `occurred_at`: `calls_trends_idx`).
     */
    const noneLaterThatDay = Rows.single({
      Request: Schema.Struct({ clientId: Schema.String, to: Schema.String, dayEnd: Schema.String }),
      Result: Schema.Struct({ none: Schema.Boolean }),
      execute: (r) =>
        sql`SELECT NOT EXISTS (
              SELECT 1 FROM calls c
              WHERE c.client_id = ${r.clientId} AND c.status = 'completed'
                AND c.occurred_at >= ${r.to}::timestamptz AND c.occurred_at < ${r.dayEnd}::timestamptz) AS none`
    })
    /** A tenant's closer's stale day summed again (one statement: one mark held at a time). */
    const refreshDay = (clientId: string, day: string, ck: string | null) =>
      sql`SELECT trend_days_refresh(${clientId}, ${day}::date, ${ck}::text)`
    /** A tenant's month or week (its first day) summed from its days and marked built. */
    const buildSpan = (clientId: string, first: string, week: boolean) =>
      week
        ? sql`SELECT trend_weeks_build(${clientId}, ${first}::date)`
        : sql`SELECT trend_months_build(${clientId}, ${first}::date)`

    /**
     * The request as the groups read it: `wholeLastDay` when the windows end within a UTC day (at
     * `until`, now by default) and no completed call of the tenant took place later that day. That
     * day's stored row then holds the same calls as the cut (it is summed by the same function, over
     * the whole day), so it is read instead of summing the day's calls again in each of the three
     * statements (a year by month at 100,000 calls: ~25 ms of each, ~150 calls today).
     */
    const settle = (r: typeof GroupsRequest.Type) =>
      Effect.gen(function* () {
        for (const { ck, day } of yield* staleDays(r)) yield* refreshDay(r.clientId, day, ck)
        const parts = dayParts(r.windows, r.now)
        const months = parts.flatMap((part) => (part[1] === "month" ? [part[2]] : []))
        const weeks = parts.flatMap((part) => (part[1] === "week" ? [part[2]] : []))
        if (months.length + weeks.length > 0) {
          for (const { first, week } of yield* unbuilt({ clientId: r.clientId, months, weeks })) yield* buildSpan(r.clientId, first, week)
        }
        const toMs = Date.parse(r.to)
        if (toMs % DAY_MS === 0) return r
        const dayEnd = new Date(Math.floor(toMs / DAY_MS) * DAY_MS + DAY_MS).toISOString()
        const { none } = yield* noneLaterThatDay({ clientId: r.clientId, to: r.to, dayEnd })
        return { ...r, wholeLastDay: none }
      })

    // ---- the background pass (trends/SettlePass.ts): the reads' settling done ahead of them ----

    /** Every tenant's stale days (`trend_days_stale`), the newest first, at most `limit`. */
    const staleMarks = Rows.findAll({
      Request: Schema.Number,
      Result: Schema.Struct({ client_id: Schema.String, day: Schema.String, ck: Schema.NullOr(Schema.String) }),
      execute: (limit) =>
        sql`SELECT client_id, day::text AS day, ck FROM trend_days_stale ORDER BY day DESC, client_id, ck LIMIT ${limit}`
    })
    /**
     * The months and weeks (their first days) from `monthsFrom` / `weeksFrom` to the current month
     * and week (`monthsTo`, `weeksTo`: excluded, not over), not built, of the tenants with days in
     * them and none of them stale (a span built before a day of it is summed again is removed with
     * it: built at a later pass); the newest first.
     */
    const unbuiltSpans = Rows.findAll({
      Request: Schema.Struct({ monthsFrom: Schema.String, monthsTo: Schema.String, weeksFrom: Schema.String, weeksTo: Schema.String }),
      Result: Schema.Struct({ client_id: Schema.String, first: Schema.String, week: Schema.Boolean }),
      execute: (r) =>
        sql`SELECT d.client_id, to_char(d.first, 'YYYY-MM-DD') AS first, false AS week
            FROM (SELECT DISTINCT client_id, date_trunc('month', day)::date AS first FROM trend_days
                  WHERE day >= ${r.monthsFrom}::date AND day < ${r.monthsTo}::date) d
            WHERE NOT EXISTS (SELECT 1 FROM trend_months_built b WHERE b.client_id = d.client_id AND b.month = d.first)
              AND NOT EXISTS (SELECT 1 FROM trend_days_stale s
                              WHERE s.client_id = d.client_id AND s.day >= d.first AND s.day < (d.first + interval '1 month')::date)
            UNION ALL
            SELECT d.client_id, to_char(d.first, 'YYYY-MM-DD'), true
            FROM (SELECT DISTINCT client_id, day - (extract(isodow FROM day)::int - 1) AS first FROM trend_days
                  WHERE day >= ${r.weeksFrom}::date AND day < ${r.weeksTo}::date) d
            WHERE NOT EXISTS (SELECT 1 FROM trend_weeks_built b WHERE b.client_id = d.client_id AND b.week = d.first)
              AND NOT EXISTS (SELECT 1 FROM trend_days_stale s WHERE s.client_id = d.client_id AND s.day >= d.first AND s.day < d.first + 7)
            ORDER BY 2 DESC, 3, 1`
    })

    /**
     * What the reads settle for their own range (`settle`), done ahead of them for every tenant
     * (trends/SettlePass.ts), in two steps. `settleStaleDays`: the stale days summed again, the
     * newest first, `batch` at a time until none is left or `budgetMs` has passed (checked after
     * each batch; the rest at the next pass); how many. `buildSpans`: the months and weeks that are
     * over among the last `back` of each (TRENDS_PERIODS_MAX: the farthest a read of `periods`
     * reaches), not built yet and with no day left stale, built. Each day and each span in its own
     * statement, as a read does (one mark held at a time; a read or another process settling the
     * same day meanwhile waits for it, then finds it done).
     */
    const settleStaleDays = ({ batch, budgetMs }: { readonly batch: number; readonly budgetMs: number }) =>
      Effect.gen(function* () {
        const started = performance.now()
        let days = 0
        for (;;) {
          const marks = yield* staleMarks(batch)
          for (const m of marks) yield* refreshDay(m.client_id, m.day, m.ck)
          days += marks.length
          if (marks.length < batch || performance.now() - started >= budgetMs) return days
        }
      })
    const buildSpans = (now: Date, back: number) =>
      Effect.gen(function* () {
        const nowMs = now.getTime()
        const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
        const weekStart = utcWeekStart(nowMs)
        const monthStart = utcMonthStart(nowMs)
        const spans = yield* unbuiltSpans({
          monthsFrom: day(utcMonthStart(monthStart, -back)),
          monthsTo: day(monthStart),
          weeksFrom: day(weekStart - back * 7 * DAY_MS),
          weeksTo: day(weekStart)
        })
        for (const s of spans) yield* buildSpan(s.client_id, s.first, s.week)
        return { months: spans.filter((s) => !s.week).length, weeks: spans.filter((s) => s.week).length }
      })

    /**
     * Whether a call in the range has dues without days stored (`calls_trend_due_days_missing_idx`):
     * a look that costs nothing, so that the read below (estimated at thousands of calls, compiled
     * by JIT: 200 ms when it finds none) runs only when one has.
     */
    const anyMissing = Rows.findAll({
      Request: GroupsRequest,
      Result: Schema.Struct({ missing: Schema.Boolean }),
      execute: (r) =>
        sql`SELECT EXISTS (
              SELECT 1 FROM calls c
              WHERE c.client_id = ${r.clientId} AND c.status = 'completed' AND c.trend_dues IS NOT NULL AND c.trend_due_days IS NULL
                AND c.occurred_at >= ${r.from}::timestamptz AND c.occurred_at < ${r.to}::timestamptz) AS missing`
    })

    /** The calls whose days are not stored (none, normally: `calls_trend_due_days_missing_idx`), their dues for the service to read. */
    const steps = Rows.findAll({
      Request: GroupsRequest,
      Result: TrendStepRow,
      execute: (r) =>
        sql`WITH ${windowsCte(r.windows)}
            SELECT c.call_id, ${closerKey(r)} AS ck, width_bucket(c.occurred_at, b.f) - 1 AS p, c.occurred_at, c.trend_dues AS dues,
                   (SELECT floor(extract(epoch FROM min(d.occurred_at)) * 1000)::float8
                    FROM calls d
                    WHERE d.deal_id = c.deal_id AND d.client_id = c.client_id AND d.status = 'completed' AND d.deal_id IS NOT NULL
                      AND date_trunc('milliseconds', d.occurred_at) > date_trunc('milliseconds', c.occurred_at)) AS next_at
            FROM b, calls c
            WHERE ${inWindows(r)} AND c.deal_id IS NOT NULL AND c.trend_dues IS NOT NULL AND c.trend_due_days IS NULL
            ORDER BY c.occurred_at DESC, c.call_id DESC`
    })

    const closers = Rows.findAll({
      Request: Schema.String,
      Result: TrendCloserRow,
      execute: (clientId) =>
        sql`SELECT closer_id, email, full_name FROM closers WHERE client_id = ${clientId} ORDER BY lower(email), closer_id`
    })

    return {
      closers: (clientId: ClientId) => Effect.orDie(closers(clientId)),
      groups: (r: typeof GroupsRequest.Type) => Effect.orDie(groups(r)),
      settle: (r: typeof GroupsRequest.Type) => Effect.orDie(settle(r)),
      settleStaleDays: (limits: { readonly batch: number; readonly budgetMs: number }) => Effect.orDie(settleStaleDays(limits)),
      buildSpans: (now: Date, back: number) => Effect.orDie(buildSpans(now, back)),
      mentionGroups: (r: typeof GroupsRequest.Type) => Effect.orDie(mentionGroups(r)),
      stepGroups: (r: typeof GroupsRequest.Type) => Effect.orDie(stepGroups(r)),
      steps: (r: typeof GroupsRequest.Type) =>
        Effect.orDie(Effect.flatMap(anyMissing(r), ([found]) => (found?.missing === true ? steps(r) : Effect.succeed([]))))
    } as const
  })
}) {}
