/**
 * `trend_days` (migration 0032, docs/trends.md "How it is counted"): the trends' numbers per tenant,
 * closer and UTC day, kept in step with `calls` by statement triggers whoever writes. After every
 * kind of write (calls inserted, analysed again, moved to another closer or day, failed, deleted,
 * many at once, a tenant deleted), the table holds exactly what `trend_day_rows` sums from the calls
 * as they are once its stale days are summed again; and a day written while it is summed again is
 * not lost (PostgreSQL). `trend_months` (migration 0033): a year read from the months gives the
 * numbers it gives from the days, before and after a day of a built month is written; a build and
 * a day summed again at the same time leave no month built from the day as it was (PostgreSQL).
 * `trend_weeks` (migration 0035): the same for twenty weeks read from the weeks, and for a window
 * cut into days, weeks and months. The background settling pass (trends/SettlePass.ts) leaves no
 * tenant's day stale, builds every month and week over within reach, and the reads then sum nothing.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { TRENDS_PERIODS_MAX } from "@callsight/api-spec"
import { makeSettlePass } from "../src/trends/SettlePass.js"
import { METRICS, TrendGroupRow, TrendMentionGroupRow, TrendStepGroupRow, TrendsQueries } from "../src/views/TrendsQueries.js"
import { TestDatabase } from "./utils/TestDatabase.js"

const DAY = 86_400_000
/** A stored analysis with `n` of each counted part (objections of two kinds, a pain, dated steps, scores). */
const result = (n: number, overall: number | null) =>
  JSON.stringify({
    objections: Array.from({ length: n }, (_, i) => ({ kind: i % 2 === 0 ? "price" : "timing", response: i === 0 ? "other" : "answered" })),
    summary: { needs: Array.from({ length: n % 3 }, () => ({ kind: "pain", text: "slow onboarding" })) },
    next_steps: Array.from({ length: n % 2 + 1 }, (_, i) => ({ action: "send the proposal", due: i === 0 ? "next Friday" : "" })),
    scorecard: { overall, dimensions: [{ dimension: "discovery", score: 40 + n }, { dimension: "listening", score: null }] }
  })

/** The rows the table holds and the rows summed afresh from `calls`, each as sorted JSON text. */
const tableAndFresh = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT trend_days_refresh(client_id, day, ck) FROM trend_days_stale ORDER BY client_id, day, ck`
  const table = yield* sql<{ r: string }>`SELECT to_jsonb(d)::text AS r FROM trend_days d ORDER BY 1`
  const fresh = yield* sql<{ r: string }>`
    SELECT to_jsonb(d)::text AS r
    FROM (SELECT t.client_id, x.* FROM tenants t, LATERAL trend_day_rows(t.client_id, '-infinity', 'infinity') x) d ORDER BY 1`
  return { table: table.map((x) => x.r), fresh: fresh.map((x) => x.r) }
})

const expectInStep = Effect.gen(function* () {
  const { fresh, table } = yield* tableAndFresh
  expect(table).toEqual(fresh)
  return table.length
})

/** `held` in a transaction kept open 600 ms, and `meanwhile` begun 150 ms into it, on another connection. */
const whileHeld = <A, B, E>(held: Effect.Effect<A, E, SqlClient.SqlClient>, meanwhile: Effect.Effect<B, E, SqlClient.SqlClient>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.all([
      sql.withTransaction(Effect.zipRight(held, Effect.sleep("600 millis"))),
      Effect.zipRight(Effect.sleep("150 millis"), meanwhile)
    ], { concurrency: 2 }))

let seq = 0
const insertCall = (clientId: string, options: {
  closer: string | null
  at: number
  n: number
  overall?: number | null
  status?: string
  deal?: string
  /** The days of the dated steps' dues (as the service stores them). */
  dueDays?: ReadonlyArray<string>
}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_td_${seq++}`
    const status = options.status ?? "completed"
    yield* sql`INSERT INTO calls (call_id, client_id, closer_email, status, format, blob_key, size_bytes, sha256, created_at, result, deal_id, trend_due_days)
               VALUES (${callId}, ${clientId}, ${options.closer}, ${status}, 'mp3', 'x', 1, 'x', ${new Date(options.at).toISOString()},
                       ${status === "completed" ? result(options.n, options.overall ?? 50 + options.n) : null}::jsonb, ${options.deal ?? null},
                       ${options.dueDays === undefined ? null : `{${options.dueDays.join(",")}}`}::date[])`
    return callId
  })

describe("trend_days", () => {
  it.layer(TestDatabase.layer, { timeout: 60_000 })((it) => {
    it.effect("follows every write to calls: inserts, analyses again, closers and days changed, failures, deletes, a tenant deleted", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES ('cli_td1', 'One', 'growth'), ('cli_td2', 'Two', 'growth')`
        const day0 = Math.floor(Date.now() / DAY) * DAY - 3 * DAY
        const ids: Array<string> = []
        // 3 days, 3 closers (one spelled in two cases, one call without a closer), 14 calls a day, equal times on day 1
        for (let d = 0; d < 3; d++) {
          for (let i = 0; i < 14; i++) {
            const closer = i % 7 === 6 ? null : ["ana@t.test", "Ana@T.test", "bo@t.test", "cy@t.test"][i % 4]!
            ids.push(yield* insertCall("cli_td1", { closer, at: day0 + d * DAY + (d === 1 ? 3_600_000 : i * 60_000), n: i % 5 }))
          }
        }
        yield* insertCall("cli_td2", { closer: "ana@t.test", at: day0, n: 2 })
        yield* insertCall("cli_td1", { closer: "ana@t.test", at: day0, n: 1, status: "queued" })
        const rows = yield* expectInStep
        expect(rows).toBeGreaterThanOrEqual(3 * 4 + 1)
        // what a day holds: the sums of its calls, and each number's newest 10 of the day
        const [ana] = yield* sql<{ n_calls: number; s_objections: number; ids: Array<string>; metrics: Array<number> }>`
          SELECT n_calls, s_objections, ids, metrics FROM trend_days WHERE client_id = 'cli_td1' AND ck = 'ana@t.test' AND day = ${new Date(day0).toISOString().slice(0, 10)}::date`
        expect(ana!.n_calls).toBe(7) // i % 4 = 0 or 1, but not i % 7 = 6: 0, 1, 4, 5, 8, 9, 12
        expect(ana!.s_objections).toBe([0, 1, 4, 5, 8, 9, 12].reduce((s, i) => s + (i % 5), 0))
        expect(ana!.ids.length).toBe(ana!.metrics.length)

        // analysed again, moved to another closer, to another day, failed, completed, deleted
        yield* sql`UPDATE calls SET result = ${result(4, 12)}::jsonb WHERE call_id = ${ids[0]!}`
        yield* expectInStep
        yield* sql`UPDATE calls SET closer_email = 'dee@t.test' WHERE call_id = ${ids[1]!}`
        yield* expectInStep
        yield* sql`UPDATE calls SET meeting_at = ${new Date(day0 + 2 * DAY + 5_000).toISOString()} WHERE call_id = ${ids[2]!}`
        yield* expectInStep
        yield* sql`UPDATE calls SET status = 'failed', result = NULL WHERE call_id = ${ids[3]!}`
        yield* expectInStep
        yield* sql`UPDATE calls SET status = 'completed', result = ${result(3, 77)}::jsonb WHERE status = 'queued'`
        yield* expectInStep
        yield* sql`DELETE FROM calls WHERE call_id = ${ids[4]!}`
        yield* expectInStep
        // many rows in one statement, and a write that changes nothing counted
        yield* sql`UPDATE calls SET closer_email = upper(closer_email) WHERE client_id = 'cli_td1' AND closer_email LIKE 'b%'`
        yield* expectInStep
        const before = (yield* tableAndFresh).table
        yield* sql`UPDATE calls SET stage = 'done' WHERE client_id = 'cli_td1'`
        expect((yield* tableAndFresh).table).toEqual(before)
        // a day emptied leaves no row
        yield* sql`DELETE FROM calls WHERE client_id = 'cli_td1' AND created_at < ${new Date(day0 + DAY).toISOString()} AND meeting_at IS NULL`
        yield* expectInStep
        const [{ n }] = (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM trend_days WHERE client_id = 'cli_td1' AND day = ${new Date(day0).toISOString().slice(0, 10)}::date`) as [{ n: number }]
        expect(n).toBe(0)
        yield* sql`DELETE FROM tenants WHERE client_id = 'cli_td2'`
        yield* expectInStep
        expect((yield* sql`SELECT 1 FROM trend_days WHERE client_id = 'cli_td2'`).length).toBe(0)
      }))

    it.effect("follows the deals' next calls (steps kept and slipped) and the Competitors tracker's mentions", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES ('cli_td3', 'Three', 'growth')`
        yield* sql`INSERT INTO deals (deal_id, client_id) VALUES ('deal_td1', 'cli_td3'), ('deal_td2', 'cli_td3')`
        yield* sql`INSERT INTO trackers (tracker_id, client_id, name, kind, terms, source) VALUES
                     ('trk_td_c', 'cli_td3', 'Competitors', 'competitor', '["Gong","Clari"]', 'market_profile'),
                     ('trk_td_p', 'cli_td3', 'Pricing', 'pricing', '["price"]', 'tenant')`
        const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
        const today = Math.floor(Date.now() / DAY) * DAY
        // a deal's call 40 days ago: a step due 2 days later (slipped: no next call), another due in 330 days (far, listed)
        const first = yield* insertCall("cli_td3", { closer: "ana@t.test", at: today - 40 * DAY, n: 1, deal: "deal_td1", dueDays: [iso(today - 38 * DAY), iso(today + 330 * DAY)] })
        yield* expectInStep
        const [before] = yield* sql<{ n_slipped: number; far: number }>`
          SELECT n_slipped, cardinality(far_ids) AS far FROM trend_days WHERE client_id = 'cli_td3' AND day = ${iso(today - 40 * DAY)}::date`
        expect(before).toEqual({ n_slipped: 1, far: 1 })
        // the deal's next call, the day after the first due: both steps are kept; the first call's day is marked and summed again
        const next = yield* insertCall("cli_td3", { closer: "bo@t.test", at: today - 37 * DAY + 3_600_000, n: 2, deal: "deal_td1" })
        yield* expectInStep
        const [after] = yield* sql<{ s_kept: number; n_kept: number; n_slipped: number; far: number }>`
          SELECT s_kept, n_kept, n_slipped, cardinality(far_ids) AS far FROM trend_days WHERE client_id = 'cli_td3' AND day = ${iso(today - 40 * DAY)}::date`
        expect(after).toEqual({ s_kept: 2, n_kept: 1, n_slipped: 0, far: 0 })
        // the next call moved to another deal: the first call's steps are no longer kept
        yield* sql`UPDATE calls SET deal_id = 'deal_td2' WHERE call_id = ${next}`
        yield* expectInStep
        yield* sql`UPDATE calls SET status = 'failed' WHERE call_id = ${next}`
        yield* expectInStep

        // mentions: the Competitors tracker's are summed per term, the Pricing tracker's are not
        const mention = (tracker: string, callId: string, ord: number, term: string) =>
          sql`INSERT INTO tracker_mentions (tracker_id, call_id, client_id, ord, term, speaker, start_s, matched, quote)
              VALUES (${tracker}, ${callId}, 'cli_td3', ${ord}, ${term}, 'S1', 1, ${term}, ${term})`
        const yesterday = yield* insertCall("cli_td3", { closer: "ana@t.test", at: today - DAY + 60_000, n: 0, deal: "deal_td2", dueDays: [iso(today + 5 * DAY)] })
        yield* mention("trk_td_c", yesterday, 0, "Gong")
        yield* mention("trk_td_c", yesterday, 1, "Gong")
        yield* mention("trk_td_c", yesterday, 2, "Clari")
        yield* mention("trk_td_p", yesterday, 0, "price")
        yield* mention("trk_td_c", first, 0, "Clari")
        yield* expectInStep
        const terms = yield* sql<{ term: string | null; mentions: number; calls: number }>`
          SELECT term, mentions, calls FROM trend_day_terms WHERE client_id = 'cli_td3' AND day = ${iso(today - DAY)}::date ORDER BY term NULLS FIRST`
        expect(terms).toEqual([{ term: null, mentions: 3, calls: 1 }, { term: "Clari", mentions: 1, calls: 1 }, { term: "Gong", mentions: 2, calls: 1 }])
        yield* sql`DELETE FROM tracker_mentions WHERE tracker_id = 'trk_td_c' AND call_id = ${yesterday} AND term = 'Gong'`
        yield* expectInStep
        yield* sql`DELETE FROM trackers WHERE tracker_id = 'trk_td_c'`
        yield* expectInStep
        expect((yield* sql`SELECT 1 FROM trend_day_terms WHERE client_id = 'cli_td3'`).length).toBe(0)
      }))
  })

  it.scopedLive.skipIf(TestDatabase.testServerUrl() === undefined)(
    "a day written while a read sums it again is not lost: the read waits for a writer holding the mark, or the writer marks it again (PostgreSQL)",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES ('cli_tdc', 'Con', 'growth')`
        const at = Math.floor(Date.now() / DAY) * DAY - DAY + 3_600_000
        const day = new Date(at).toISOString().slice(0, 10)
        const calls = yield* Effect.forEach([0, 1, 2, 3], (i) => insertCall("cli_tdc", { closer: "ana@t.test", at: at + i * 1000, n: 1, status: "queued" }))
        const complete = (callId: string) => sql`UPDATE calls SET status = 'completed', result = ${result(2, 60)}::jsonb WHERE call_id = ${callId}`
        const refresh = sql`SELECT trend_days_refresh('cli_tdc', ${day}::date, 'ana@t.test')`
        const summed = Effect.map(
          sql<{ n: number | null; stale: boolean }>`
            SELECT (SELECT n_calls FROM trend_days WHERE client_id = 'cli_tdc') AS n,
                   EXISTS (SELECT 1 FROM trend_days_stale WHERE client_id = 'cli_tdc') AS stale`,
          (rows) => rows[0]!
        )
        yield* complete(calls[0]!)
        yield* refresh
        expect(yield* summed).toEqual({ n: 1, stale: false })
        const mark = sql`INSERT INTO trend_days_stale (client_id, day, ck) VALUES ('cli_tdc', ${day}::date, 'ana@t.test')`

        // a writer marks a day no one marked and holds its transaction open: a read meanwhile sees no mark; the day is stale once it commits
        yield* whileHeld(complete(calls[1]!), refresh)
        expect(yield* summed).toEqual({ n: 1, stale: true })
        yield* refresh
        expect(yield* summed).toEqual({ n: 2, stale: false })

        // a writer marks a day already marked and holds its transaction open: the read that sums it meanwhile waits for it
        yield* mark
        yield* whileHeld(complete(calls[2]!), refresh)
        expect(yield* summed).toEqual({ n: 3, stale: false })

        // a read sums the day and holds its transaction open: a writer meanwhile marks the day again once the read commits
        yield* mark
        yield* whileHeld(refresh, complete(calls[3]!))
        expect(yield* summed).toEqual({ n: 3, stale: true })
        yield* refresh
        expect(yield* summed).toEqual({ n: 4, stale: false })
        yield* expectInStep
      }).pipe(Effect.provide(TestDatabase.layer)),
    60_000
  )
})

/**
 * A group's numbers as the service reads them (views/Trends.ts): the sums as they are, and for each
 * number (a bit of `metrics`) the newest TRENDS_CALL_IDS_MAX of the calls listed with it, by time
 * then id; a metric `[sum, calls, ids, times]` likewise.
 */
const MAX = 10
const newest = (entries: ReadonlyArray<readonly [string, number]>) =>
  [...new Map(entries.map((e) => [e[0], e])).values()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1)).slice(0, MAX).map((e) => e[0])
const metricRead = ([sum, calls, ids, times]: readonly [number, number, ReadonlyArray<string>, ReadonlyArray<number>]) =>
  [sum, calls, newest(ids.map((id, i) => [id, times[i]!] as const))]
const groupRead = (g: TrendGroupRow) => ({
  key: `${g.p}/${g.ck}`,
  sums: [g.closer_email, g.newest_ms, g.lowest_call_id, g.counts, g.scores],
  lists: Array.from({ length: METRICS.length }, (_, k) => newest(g.ids.flatMap((id, i) => ((g.metrics[i]! >> k) & 1) === 1 ? [[id, g.times[i]!] as const] : [])))
})
const byKey = <A extends { key: string }>(rows: ReadonlyArray<A>) => [...rows].sort((a, b) => a.key.localeCompare(b.key))

/** The three aggregated reads of a year by month (as Trends.scopes makes them), each row as the service reads it. */
const yearRead = (clientId: string, now: number) =>
  windowsRead(clientId, now, Array.from({ length: 12 }, (_, i) => {
    const d = new Date(now)
    return [new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11 + i, 1)).toISOString(),
      new Date(Math.min(now, Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 10 + i, 1))).toISOString()]
  }))

/** The Monday (UTC midnight, ms) of the week holding `ms`. */
const mondayOf = (ms: number) => {
  const day = Math.floor(ms / DAY) * DAY
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY
}

/** The last 20 weeks (Monday to Sunday), the last cut at `now`. */
const weeksRead = (clientId: string, now: number) =>
  windowsRead(clientId, now, Array.from({ length: 20 }, (_, i) => {
    const start = mondayOf(now) - (19 - i) * 7 * DAY
    return [new Date(start).toISOString(), new Date(Math.min(now, start + 7 * DAY)).toISOString()]
  }))

/** The three aggregated reads over `windows` ([from, to], oldest first), each row as the service reads it. */
const windowsRead = (clientId: string, now: number, windows: ReadonlyArray<readonly [string, string]>) =>
  Effect.gen(function* () {
    const queries = yield* TrendsQueries
    const request = {
      clientId,
      sees: { _tag: "Team" } as const,
      from: windows[0]![0]!,
      to: windows.at(-1)![1]!,
      closerEmail: null,
      windows: JSON.stringify(windows),
      max: MAX,
      byCloser: true,
      now: new Date(now).toISOString()
    }
    const [groups, mentions, steps] = yield* Effect.all([queries.groups(request), queries.mentionGroups(request), queries.stepGroups(request)])
    return {
      request,
      read: {
        groups: byKey(groups.map(groupRead)),
        mentions: byKey(mentions.map((m) => ({ key: `${m.p}/${m.ck}/${m.term}`, metric: metricRead(m.metric) }))),
        steps: byKey(steps.map((s) => ({ key: `${s.p}/${s.ck}`, kept: metricRead(s.kept), slipped: metricRead(s.slipped) })))
      }
    }
  })

/**
 * A tenant `clientId` with two deals and a Competitors tracker, and `count` completed calls, call i
 * at `at(i)`: 3 closers in turn (one call in 9 without), the first deal every 4th call and the
 * second where `secondDeal(i)`, each deal call with a dated step 2 days on (every other one another
 * 400 days on), a mention of Gong or Clari every 5th call. The calls' ids, in order.
 */
const seedTeam = (clientId: string, count: number, at: (i: number) => number, secondDeal: (i: number) => boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    const [first, second, tracker] = [`deal_${clientId}_1`, `deal_${clientId}_2`, `trk_${clientId}`]
    yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES (${clientId}, 'Team', 'growth')`
    yield* sql`INSERT INTO deals (deal_id, client_id) VALUES (${first}, ${clientId}), (${second}, ${clientId})`
    yield* sql`INSERT INTO trackers (tracker_id, client_id, name, kind, terms, source)
               VALUES (${tracker}, ${clientId}, 'Competitors', 'competitor', '["Gong","Clari"]', 'market_profile')`
    const ids: Array<string> = []
    for (let i = 0; i < count; i++) {
      const when = at(i)
      const closer = i % 9 === 8 ? null : ["ana@t.test", "bo@t.test", "Cy@t.test"][i % 3]!
      const deal = i % 4 === 0 ? first : secondDeal(i) ? second : undefined
      const dueDays = deal === undefined ? undefined : [iso(when + 2 * DAY), ...(i % 8 === 0 ? [iso(when + 400 * DAY)] : [])]
      ids.push(yield* insertCall(clientId, { closer, at: when, n: i % 6, overall: i % 7 === 0 ? null : 40 + (i % 11), deal, dueDays }))
      if (i % 5 === 0) {
        yield* sql`INSERT INTO tracker_mentions (tracker_id, call_id, client_id, ord, term, speaker, start_s, matched, quote)
                   VALUES (${tracker}, ${ids.at(-1)!}, ${clientId}, 0, ${i % 10 === 0 ? "Gong" : "Clari"}, 'S1', 1, 'x', 'x')`
      }
    }
    return ids
  })

describe("trend_months", () => {
  it.layer(Layer.provideMerge(TrendsQueries.Default, TestDatabase.layer), { timeout: 60_000 })((it) => {
    it.effect("a month that is over is summed from its days once, read in their place with the same numbers, and summed again after a day of it is", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const queries = yield* TrendsQueries
        const now = Date.now()
        const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
        const today = Math.floor(now / DAY) * DAY
        // ~5 months of calls, every 19 hours, two at a time: more than 10 of each number in a month;
        // equal times across closers, deals with steps kept, slipped near and far, mentions
        const ids = yield* seedTeam("cli_tm", 190, (i) => today - 150 * DAY + Math.floor(i / 2) * 38 * 3_600_000, (i) => i % 4 === 1)
        const built = sql<{ month: string }>`SELECT to_char(month, 'YYYY-MM-DD') AS month FROM trend_months_built WHERE client_id = 'cli_tm' ORDER BY 1`
        yield* expectInStep
        // read from the days (nothing built yet), then built by settling
        const first = yield* yearRead("cli_tm", now)
        expect(yield* built).toEqual([])
        yield* queries.settle(first.request)
        const months = (yield* built).map((m) => m.month)
        // the eleven months before this one (each over), with calls in the last five or six of them
        expect(months).toEqual(Array.from({ length: 11 }, (_, i) => iso(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 11 + i, 1))))
        // a row per closer (3, and the calls without one) in each month with calls
        const [rows] = yield* sql<{ n: number; months: number; with_calls: number }>`
          SELECT count(*)::int AS n, count(DISTINCT day)::int AS months,
                 (SELECT count(DISTINCT date_trunc('month', day))::int FROM trend_days
                  WHERE client_id = 'cli_tm' AND day < date_trunc('month', now() AT TIME ZONE 'UTC')) AS with_calls
          FROM trend_months WHERE client_id = 'cli_tm'`
        expect(rows!.months).toBeGreaterThanOrEqual(4)
        expect(rows).toEqual({ n: rows!.months * 4, months: rows!.with_calls, with_calls: rows!.with_calls })
        const fromMonths = yield* yearRead("cli_tm", now)
        expect(fromMonths.read).toEqual(first.read)
        // steps slipped both in last month (not settled: counted from its lists) and in the settled ones (summed)
        const slipped = (p: number) => fromMonths.read.steps.filter((s) => s.key.startsWith(`${p}/`)).reduce((n, s) => n + (s.slipped[0] as number), 0)
        expect(slipped(10)).toBeGreaterThan(0)
        expect(slipped(8)).toBeGreaterThan(0)
        // a month's rows are read only while it is marked built
        yield* sql`DELETE FROM trend_months_built WHERE client_id = 'cli_tm'`
        yield* sql`UPDATE trend_months SET n_calls = n_calls + 1000 WHERE client_id = 'cli_tm'`
        expect((yield* yearRead("cli_tm", now)).read).toEqual(first.read)
        yield* queries.settle(first.request)
        expect((yield* built).map((m) => m.month)).toEqual(months)
        expect((yield* yearRead("cli_tm", now)).read).toEqual(first.read)

        // a call of the oldest settled month analysed again, and one deleted: its month is removed when its day is summed again
        const old = ids.find((_, i) => i % 9 !== 8 && i > 40)!
        yield* sql`UPDATE calls SET result = ${result(5, 99)}::jsonb WHERE call_id = ${old}`
        yield* sql`DELETE FROM calls WHERE call_id = ${ids[60]!}`
        yield* sql`SELECT trend_days_refresh(client_id, day, ck) FROM trend_days_stale ORDER BY client_id, day, ck`
        expect((yield* built).length).toBeLessThan(months.length)
        const fromDays = yield* yearRead("cli_tm", now)
        yield* queries.settle(fromDays.request)
        expect((yield* built).map((m) => m.month)).toEqual(months)
        const again = yield* yearRead("cli_tm", now)
        expect(again.read).toEqual(fromDays.read)
        expect(again.read).not.toEqual(first.read)
      }))
  })

  it.scopedLive.skipIf(TestDatabase.testServerUrl() === undefined)(
    "a month built while a day of it is summed again is never left built from the day as it was (PostgreSQL)",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES ('cli_tmc', 'Con', 'growth')`
        const now = new Date()
        const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1))
        const at = month.getTime() + 10 * DAY + 3_600_000
        const day = new Date(at).toISOString().slice(0, 10)
        const first = month.toISOString().slice(0, 10)
        const calls = yield* Effect.forEach([0, 1, 2], (i) => insertCall("cli_tmc", { closer: "ana@t.test", at: at + i * 1000, n: 1, status: "queued" }))
        const complete = (callId: string) => sql`UPDATE calls SET status = 'completed', result = ${result(2, 60)}::jsonb WHERE call_id = ${callId}`
        const refresh = sql`SELECT trend_days_refresh('cli_tmc', ${day}::date, 'ana@t.test')`
        const build = sql`SELECT trend_months_build('cli_tmc', ${first}::date)`
        /** The month's calls as built (null: not built), and the days' calls. */
        const state = Effect.map(
          sql<{ month: number | null; days: number }>`
            SELECT (SELECT m.n_calls FROM trend_months m JOIN trend_months_built b ON b.client_id = m.client_id AND b.month = m.day
                    WHERE m.client_id = 'cli_tmc') AS month,
                   (SELECT COALESCE(sum(n_calls), 0)::int FROM trend_days WHERE client_id = 'cli_tmc') AS days`,
          (rows) => rows[0]!
        )
        yield* complete(calls[0]!)
        yield* refresh
        yield* build
        expect(yield* state).toEqual({ month: 1, days: 1 })

        // a day summed again (its transaction held open) while the month is built: the build waits, and reads the day as written
        yield* complete(calls[1]!)
        yield* sql`DELETE FROM trend_months_built WHERE client_id = 'cli_tmc'`
        yield* whileHeld(refresh, build)
        expect(yield* state).toEqual({ month: 2, days: 2 })

        // the month built (its transaction held open) while a day of it is summed again: the day's removal of the month waits for the build
        yield* complete(calls[2]!)
        yield* sql`DELETE FROM trend_months_built WHERE client_id = 'cli_tmc'`
        yield* whileHeld(build, refresh)
        expect(yield* state).toEqual({ month: null, days: 3 })
        yield* build
        expect(yield* state).toEqual({ month: 3, days: 3 })
      }).pipe(Effect.provide(TestDatabase.layer)),
    60_000
  )
})

describe("trend_weeks", () => {
  it.layer(Layer.provideMerge(TrendsQueries.Default, TestDatabase.layer), { timeout: 60_000 })((it) => {
    it.effect("a week that is over is summed from its days once, read in their place with the same numbers, and summed again after a day of it is", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const queries = yield* TrendsQueries
        const now = Date.now()
        const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
        const today = Math.floor(now / DAY) * DAY
        // ~100 days of calls, every 10 hours: more than 10 of each number in a week; one deal met every
        // 40 hours (its steps kept), the other every 160 (its steps slipped)
        const ids = yield* seedTeam("cli_tw", 240, (i) => today - 100 * DAY + i * 10 * 3_600_000, (i) => i % 16 === 1)
        const built = sql<{ week: string }>`SELECT to_char(week, 'YYYY-MM-DD') AS week FROM trend_weeks_built WHERE client_id = 'cli_tw' ORDER BY 1`
        yield* expectInStep
        // a window from the middle of a month three months ago to now: days, whole weeks, whole months, weeks, days and the cut
        const mixed = (at: number) => {
          const d = new Date(at)
          return windowsRead("cli_tw", at, [[new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 3, 12)).toISOString(), d.toISOString()]])
        }
        // read from the days (nothing built yet), then built by settling
        const first = yield* weeksRead("cli_tw", now)
        const firstMixed = yield* mixed(now)
        expect(yield* built).toEqual([])
        yield* queries.settle(first.request)
        const weeks = (yield* built).map((w) => w.week)
        // the nineteen weeks before this one (each over)
        expect(weeks).toEqual(Array.from({ length: 19 }, (_, i) => iso(mondayOf(now) - (19 - i) * 7 * DAY)))
        // a row per closer (3, and the calls without one) in each week with calls
        const [rows] = yield* sql<{ n: number; weeks: number }>`SELECT count(*)::int AS n, count(DISTINCT day)::int AS weeks FROM trend_weeks WHERE client_id = 'cli_tw'`
        expect(rows!.weeks).toBeGreaterThanOrEqual(13)
        expect(rows!.n).toBe(rows!.weeks * 4)
        const fromWeeks = yield* weeksRead("cli_tw", now)
        expect(fromWeeks.read).toEqual(first.read)
        // steps slipped both in recent weeks (not settled: counted from their lists) and in settled ones (summed)
        const slipped = (p: number) => fromWeeks.read.steps.filter((s) => s.key.startsWith(`${p}/`)).reduce((n, s) => n + (s.slipped[0] as number), 0)
        expect(slipped(17)).toBeGreaterThan(0)
        expect(slipped(8)).toBeGreaterThan(0)
        // the mixed window alone: its whole months built, and the whole weeks of the days before the first of them; the same numbers
        yield* sql`DELETE FROM trend_weeks_built WHERE client_id = 'cli_tw'`
        yield* queries.settle(firstMixed.request)
        const [spans] = yield* sql<{ months: number; weeks: number }>`
          SELECT (SELECT count(*)::int FROM trend_months_built WHERE client_id = 'cli_tw') AS months,
                 (SELECT count(*)::int FROM trend_weeks_built WHERE client_id = 'cli_tw') AS weeks`
        expect(spans!.months).toBe(2)
        expect(spans!.weeks).toBeGreaterThanOrEqual(2)
        expect((yield* mixed(now)).read).toEqual(firstMixed.read)
        yield* queries.settle(first.request)
        // a built week's rows are what is read (changed, the answer changes), and only while it is marked built
        yield* sql`UPDATE trend_weeks SET n_calls = n_calls + 1000 WHERE client_id = 'cli_tw'`
        expect((yield* weeksRead("cli_tw", now)).read).not.toEqual(first.read)
        yield* sql`DELETE FROM trend_weeks_built WHERE client_id = 'cli_tw'`
        yield* sql`UPDATE trend_weeks SET n_calls = n_calls + 1000 WHERE client_id = 'cli_tw'`
        expect((yield* weeksRead("cli_tw", now)).read).toEqual(first.read)
        yield* queries.settle(first.request)
        expect((yield* built).map((w) => w.week)).toEqual(weeks)
        expect((yield* weeksRead("cli_tw", now)).read).toEqual(first.read)

        // a call of a settled week analysed again, and one deleted: their weeks (and months) are removed when their days are summed again
        yield* sql`UPDATE calls SET result = ${result(5, 99)}::jsonb WHERE call_id = ${ids[50]!}`
        yield* sql`DELETE FROM calls WHERE call_id = ${ids[100]!}`
        yield* sql`SELECT trend_days_refresh(client_id, day, ck) FROM trend_days_stale ORDER BY client_id, day, ck`
        expect((yield* built).length).toBe(weeks.length - 2)
        const fromDays = yield* weeksRead("cli_tw", now)
        yield* queries.settle(fromDays.request)
        expect((yield* built).map((w) => w.week)).toEqual(weeks)
        const again = yield* weeksRead("cli_tw", now)
        expect(again.read).toEqual(fromDays.read)
        expect(again.read).not.toEqual(first.read)
        const againMixed = yield* mixed(now)
        yield* queries.settle(againMixed.request)
        expect((yield* mixed(now)).read).toEqual(againMixed.read)
        expect(againMixed.read).not.toEqual(firstMixed.read)
      }))
  })
})

describe("the trends' settling pass", () => {
  it.layer(Layer.provideMerge(TrendsQueries.Default, TestDatabase.layer), { timeout: 60_000 })((it) => {
    it.effect("sums every tenant's stale days and builds the months and weeks over ahead of the reads, which then sum nothing", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const queries = yield* TrendsQueries
        const now = Date.now()
        const today = Math.floor(now / DAY) * DAY
        yield* seedTeam("cli_sp", 190, (i) => today - 150 * DAY + Math.floor(i / 2) * 38 * 3_600_000, (i) => i % 4 === 1)
        yield* seedTeam("cli_sq", 60, (i) => today - 200 * DAY + i * 80 * 3_600_000, (i) => i % 3 === 1)
        const stale = sql<{ client_id: string; n: number }>`SELECT client_id, count(*)::int AS n FROM trend_days_stale GROUP BY 1 ORDER BY 1`
        const marks = yield* stale
        expect(marks.map((m) => m.client_id)).toEqual(["cli_sp", "cli_sq"])
        const staleBefore = marks.reduce((n, m) => n + m.n, 0)

        // a process's pass: its first looks at every span in reach, then at the last month and week
        // unless it summed days or an hour has passed
        const pass = yield* makeSettlePass()
        const done = yield* pass
        expect(yield* stale).toEqual([])
        expect(done.days).toBe(staleBefore)
        // the tables as the functions sum the calls (nothing left for the check to sum again)
        yield* expectInStep
        // built: each tenant's months and weeks with days that are over, within the last 26 of each
        // (all the months here; the weeks of the tenant of 200 days only from 26 weeks ago)
        const spans = (table: string, column: string, first: string, current: string, reach: string) =>
          Effect.all([
            sql<{ c: string; f: string }>`SELECT client_id AS c, to_char(${sql.literal(column)}, 'YYYY-MM-DD') AS f FROM ${sql.literal(table)} ORDER BY 1, 2`,
            sql<{ c: string; f: string }>`SELECT DISTINCT client_id AS c, to_char(${sql.literal(first)}, 'YYYY-MM-DD') AS f FROM trend_days
                                          WHERE day < ${sql.literal(current)} AND day >= ${sql.literal(current)} - ${sql.literal(reach)} ORDER BY 1, 2`
          ])
        const thisMonth = "date_trunc('month', now() AT TIME ZONE 'UTC')::date"
        const thisWeek = "((now() AT TIME ZONE 'UTC')::date - (extract(isodow FROM now() AT TIME ZONE 'UTC')::int - 1))"
        const [months, monthsWithDays] = yield* spans("trend_months_built", "month", "date_trunc('month', day)", thisMonth, "interval '26 months'")
        const [weeks, weeksWithDays] = yield* spans("trend_weeks_built", "week", "day - (extract(isodow FROM day)::int - 1)", thisWeek, "26 * 7")
        expect(months).toEqual(monthsWithDays)
        expect(weeks).toEqual(weeksWithDays)
        expect(weeks.filter((w) => w.c === "cli_sq")).toHaveLength(26)
        expect(new Set(months.map((m) => m.c))).toEqual(new Set(["cli_sp", "cli_sq"]))
        expect(done.months).toBe(months.length)
        expect(done.weeks).toBe(weeks.length)

        // a year read: its settling sums nothing (it marks the months of its window without days built,
        // empty), and it reads the same before and after it
        const year = yield* yearRead("cli_sp", now)
        const monthRows = sql<{ n: number }>`SELECT count(*)::int AS n FROM trend_months`
        const rowsBefore = yield* monthRows
        yield* queries.settle(year.request)
        expect(yield* monthRows).toEqual(rowsBefore)
        expect(yield* stale).toEqual([])
        expect((yield* yearRead("cli_sp", now)).read).toEqual(year.read)
        // and the read from the months equals the read from the days
        yield* sql`DELETE FROM trend_months_built WHERE client_id = 'cli_sp'`
        expect((yield* yearRead("cli_sp", now)).read).toEqual(year.read)

        // the next pass (no day summed, its hour not up) rebuilds the last month it lost; a pass whose
        // look at every span is due, the others; and then there is nothing to do
        expect(yield* pass).toEqual({ days: 0, months: 1, weeks: 0 })
        const lookingEverywhere = yield* makeSettlePass(0)
        expect(yield* lookingEverywhere).toEqual({ days: 0, months: months.filter((m) => m.c === "cli_sp").length - 1, weeks: 0 })
        expect(yield* pass).toEqual({ days: 0, months: 0, weeks: 0 })
        expect(yield* lookingEverywhere).toEqual({ days: 0, months: 0, weeks: 0 })

        // a batch of stale days at a time, the newest first, until the time budget is spent (here at
        // once: one batch); a span with a day left stale is built
        // only at the pass that has summed it. A week 40 days back made unbuilt, then two calls in it
        // and three newer ones (the newest three days are summed first)
        const w = mondayOf(today - 40 * DAY)
        const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
        const builtWeek = (at: number) =>
          Effect.map(sql`SELECT 1 FROM trend_weeks_built WHERE client_id = 'cli_sq' AND week = ${dayOf(mondayOf(at))}::date`, (r) => r.length === 1)
        yield* sql`DELETE FROM trend_weeks_built WHERE client_id = 'cli_sq' AND week = ${dayOf(w)}::date`
        for (const at of [today - 3 * DAY, today - 5 * DAY, today - 9 * DAY, w + DAY, w]) {
          yield* insertCall("cli_sq", { closer: "ana@t.test", at: at + 3_600_000, n: 2 })
        }
        const days = sql<{ day: string }>`SELECT day::text AS day FROM trend_days_stale WHERE client_id = 'cli_sq' ORDER BY day DESC`
        const all = (yield* days).map((d) => d.day)
        expect(all).toEqual([today - 3 * DAY, today - 5 * DAY, today - 9 * DAY, w + DAY, w].map(dayOf))
        const settleAhead = (limits: { batch: number; budgetMs: number }) =>
          Effect.gen(function* () {
            const days = yield* queries.settleStaleDays(limits)
            return { days, ...(yield* queries.buildSpans(new Date(now), TRENDS_PERIODS_MAX)) }
          })
        const oneBatch = { batch: 3, budgetMs: 0 }
        expect((yield* settleAhead(oneBatch)).days).toBe(3)
        expect((yield* days).map((d) => d.day)).toEqual(all.slice(3))
        expect(yield* builtWeek(w)).toBe(false)
        // the week 9 days back (over): its day summed again removed it, and it was built again
        expect(yield* builtWeek(today - 9 * DAY)).toBe(true)
        // its two days summed: the week and their month (or two), removed with them, built again
        const monthsOfW = new Set([dayOf(w).slice(0, 7), dayOf(w + DAY).slice(0, 7)]).size
        expect(yield* settleAhead(oneBatch)).toEqual({ days: 2, months: monthsOfW, weeks: 1 })
        expect(yield* days).toEqual([])
        expect(yield* builtWeek(w)).toBe(true)
        // within the budget, batch after batch until none is left
        for (const back of [2, 4, 6]) yield* insertCall("cli_sq", { closer: "bo@t.test", at: today - back * DAY + 3_600_000, n: 1 })
        expect((yield* settleAhead({ batch: 2, budgetMs: 60_000 })).days).toBe(3)
        expect(yield* days).toEqual([])
        yield* expectInStep
      }))
  })
})

describe("the aggregated rows' schemas", () => {
  it("take a row whose every column has its type, and refuse one with a column missing or of another type", () => {
    const metric = [3, 2, ["call_a", "call_b"], [2, 1]]
    const ok = { p: 0, ck: null, term: "Gong", metric }
    expect(Schema.decodeUnknownSync(TrendMentionGroupRow)(ok)).toBe(ok)
    for (const bad of [{ ...ok, p: "0" }, { ...ok, term: 1 }, { p: 0, ck: null, metric }, { ...ok, metric: [3, 2, ["call_a"], [2, 1]] }, null, [ok]]) {
      expect(() => Schema.decodeUnknownSync(TrendMentionGroupRow)(bad)).toThrow()
    }
    const group = {
      p: 1, ck: "ana@t.test", closer_email: "Ana@t.test", newest_ms: 5, lowest_call_id: null,
      counts: [[1, 1]], scores: [[80, 1]], ids: ["call_a"], times: [5], metrics: [3]
    }
    expect(Schema.decodeUnknownSync(TrendGroupRow)(group)).toBe(group)
    for (const bad of [{ ...group, counts: [[1]] }, { ...group, ids: [1] }, { ...group, lowest_call_id: undefined }]) {
      expect(() => Schema.decodeUnknownSync(TrendGroupRow)(bad)).toThrow()
    }
    const steps = { p: 2, ck: null, kept: metric, slipped: [0, 0, [], []] }
    expect(Schema.decodeUnknownSync(TrendStepGroupRow)(steps)).toBe(steps)
    expect(() => Schema.decodeUnknownSync(TrendStepGroupRow)({ ...steps, slipped: [0, 0, [], [1]] })).toThrow()
  })
})
