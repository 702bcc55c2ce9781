/**
 * Trends (issue 38, item 3; docs/trends.md) with the real server on the shared seed (`seedTeamWeeks`:
 * 3 closers, 30 analysed calls over six weeks, meeting times distinct from upload times). Every
 * number is recomputed here from the seed's stored `result`s and meeting times, by hand: objections
 * by kind, pains, next steps said and dated, the overall and dimension averages, per week and per
 * closer; competitors from the words of the transcripts (regular expressions written here) against
 * the Competitors tracker's stored mentions; the calls behind each number; a rep's own calls only;
 * another tenant's closer 404; bad query values 422; the changes' rule and sentences; the daily
 * brief's `changes` (a crafted tenant: "objections about price up from 3 to 9 this week"); the
 * assistant's door answering the same view; market intelligence per segment, a segment of fewer
 * than 3 tenants withheld; the steps' due days stored with the calls (migration 0027's backfill, and
 * `CallsRepo.complete` as the analysis is stored) equal to chrono's reading, the answer read from
 * them the same as read without them.
 */
import type { AnalysisResult } from "@callsight/analysis"
import { type CallId, Trends, TRENDS_CALL_IDS_MAX } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import * as chrono from "chrono-node"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { CallsRepo } from "../src/calls/CallsRepo.js"
import { storeMissingDueDays } from "../src/db/migrations/0027_trend_due_days.js"
import { dueDateOf } from "../src/views/DealTimeline.js"
import { acc, keepNewest } from "../src/views/Trends.js"
import { admin } from "./utils/AudioRequests.js"
import { awayFromMidnight } from "./utils/AwayFromMidnight.js"
import { insertAnalysed } from "./utils/AnalysedCalls.js"
import { call, memberSession, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"
import { seedTeamWeeks, type TeamWeeks } from "./utils/TeamWeeks.js"
import { ASSISTANT_KEY } from "./utils/TestServer.js"

const TRENDS = "/v1/client-portal/trends"
const DAY = 86_400_000
const KINDS = ["price", "budget", "timing", "authority", "need", "competitor"]
const DIMENSIONS = ["discovery", "listening", "objection_handling", "value", "next_steps", "conversation_flow"]

/**
 * The competitors named in the market profile, and the words each stands for, written by hand: a
 * competitor is matched as written, whole words in any case, without stems (docs/trackers.md), so
 * "spreadsheets" is not "Spreadsheet" and "Google's" is a word of its own.
 */
const COMPETITORS: Record<string, RegExp> = {
  Spreadsheet: /\bspreadsheet\b(?!['’]\w)/gi,
  Google: /\bgoogle\b(?!['’]\w)/gi
}

const get = (path: string, options: { session?: string; headers?: Record<string, string> }) =>
  Effect.map(call("GET", path, options), (reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body
  })

/** The Monday (YYYY-MM-DD, UTC) of an instant's week. */
const mondayOf = (iso: string) => {
  const d = new Date(iso)
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY
  return new Date(day).toISOString().slice(0, 10)
}

type SeedCall = TeamWeeks["calls"][number]

/**
 * Each call's steps kept and slipped, by the rule docs/deals.md states, written again here: a step's
 * due read by chrono from its call's meeting (forward, UTC); kept when a later call of its deal took
 * place before the end of the day after the due; slipped when that passed with none; calls of no deal
 * keep and slip nothing.
 */
const followThrough = (seed: TeamWeeks): Map<string, { kept: number; slipped: number }> => {
  const out = new Map<string, { kept: number; slipped: number }>()
  const byId = new Map(seed.calls.map((c) => [c.callId, c]))
  for (const deal of seed.deals) {
    const calls = deal.callIds.map((id) => byId.get(id)!).sort((a, b) => a.meetingAt.localeCompare(b.meetingAt))
    calls.forEach((c, i) => {
      const n = { kept: 0, slipped: 0 }
      for (const step of (c.result as any).next_steps as Array<{ due: string | null }>) {
        if (step.due === null || step.due.trim() === "") continue
        const due = chrono.casual.parseDate(step.due, { instant: new Date(c.meetingAt), timezone: 0 }, { forwardDate: true })
        if (due === null) continue
        const deadline = Date.parse(`${due.toISOString().slice(0, 10)}T00:00:00Z`) + 2 * DAY
        if (calls.slice(i + 1).some((later) => Date.parse(later.meetingAt) > Date.parse(c.meetingAt) && Date.parse(later.meetingAt) < deadline)) n.kept++
        else if (Date.now() >= deadline) n.slipped++
      }
      out.set(c.callId, n)
    })
  }
  return out
}
let steps = new Map<string, { kept: number; slipped: number }>()

/** Everything the trends count of one call, read from its stored result by hand. */
const countsOf = (c: SeedCall) => {
  const r = c.result as any
  const words = ((r.transcript ?? []) as Array<{ text: string }>).map((s) => s.text).join("\n")
  return {
    objections: (r.objections as Array<{ kind: string }>).map((o) => o.kind),
    pains: ((r.summary?.needs ?? []) as Array<{ kind: string }>).filter((n) => n.kind === "pain").length,
    said: (r.next_steps as Array<unknown>).length,
    dated: (r.next_steps as Array<{ due: string | null }>).filter((s) => s.due !== null && s.due.trim() !== "").length,
    overall: r.scorecard.overall as number | null,
    dimensions: new Map((r.scorecard.dimensions as Array<{ dimension: string; score: number | null }>).map((d) => [d.dimension, d.score])),
    kept: steps.get(c.callId)?.kept ?? 0,
    slipped: steps.get(c.callId)?.slipped ?? 0,
    competitors: Object.fromEntries(Object.entries(COMPETITORS).map(([term, re]) => [term, words.match(re)?.length ?? 0]))
  }
}

const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? null : Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10)
const newestFirst = (calls: ReadonlyArray<SeedCall>) => [...calls].sort((a, b) => b.meetingAt.localeCompare(a.meetingAt) || b.callId.localeCompare(a.callId)).map((c) => c.callId)

/** A period of the answer against the calls of that period, every number recomputed. */
const expectPeriod = (period: any, calls: ReadonlyArray<SeedCall>, label: string) => {
  const counts = calls.map((c) => ({ c, n: countsOf(c) }))
  const ids = (keep: (n: ReturnType<typeof countsOf>) => boolean) => newestFirst(counts.filter((x) => keep(x.n)).map((x) => x.c))
  expect(period.calls, label).toEqual({ count: calls.length, calls: calls.length, call_ids: newestFirst(calls).slice(0, TRENDS_CALL_IDS_MAX) })
  const allObjections = counts.reduce((s, x) => s + x.n.objections.length, 0)
  expect(period.objections, label).toEqual({ count: allObjections, calls: ids((n) => n.objections.length > 0).length, call_ids: ids((n) => n.objections.length > 0).slice(0, TRENDS_CALL_IDS_MAX) })
  for (const kind of KINDS) {
    const row = period.objections_by_kind.find((k: any) => k.kind === kind)
    const has = (n: ReturnType<typeof countsOf>) => n.objections.includes(kind)
    expect(row, `${label} ${kind}`).toEqual({
      kind,
      count: counts.reduce((s, x) => s + x.n.objections.filter((k) => k === kind).length, 0),
      calls: ids(has).length,
      call_ids: ids(has).slice(0, TRENDS_CALL_IDS_MAX)
    })
  }
  expect(period.pains, label).toEqual({ count: counts.reduce((s, x) => s + x.n.pains, 0), calls: ids((n) => n.pains > 0).length, call_ids: ids((n) => n.pains > 0).slice(0, TRENDS_CALL_IDS_MAX) })
  expect(period.next_steps.said, label).toEqual({ count: counts.reduce((s, x) => s + x.n.said, 0), calls: ids((n) => n.said > 0).length, call_ids: ids((n) => n.said > 0).slice(0, TRENDS_CALL_IDS_MAX) })
  expect(period.next_steps.dated, label).toEqual({ count: counts.reduce((s, x) => s + x.n.dated, 0), calls: ids((n) => n.dated > 0).length, call_ids: ids((n) => n.dated > 0).slice(0, TRENDS_CALL_IDS_MAX) })
  expect(period.next_steps.kept, label).toEqual({ count: counts.reduce((s, x) => s + x.n.kept, 0), calls: ids((n) => n.kept > 0).length, call_ids: ids((n) => n.kept > 0).slice(0, TRENDS_CALL_IDS_MAX) })
  expect(period.next_steps.slipped, label).toEqual({ count: counts.reduce((s, x) => s + x.n.slipped, 0), calls: ids((n) => n.slipped > 0).length, call_ids: ids((n) => n.slipped > 0).slice(0, TRENDS_CALL_IDS_MAX) })
  const scored = counts.filter((x) => x.n.overall !== null)
  expect(period.overall_score.n, label).toBe(scored.length)
  expect(period.overall_score.average, label).toBe(mean(scored.map((x) => x.n.overall!)))
  expect(period.overall_score.call_ids, label).toEqual(newestFirst(scored.map((x) => x.c)).slice(0, TRENDS_CALL_IDS_MAX))
  for (const dimension of DIMENSIONS) {
    const row = period.dimensions.find((d: any) => d.dimension === dimension)
    const assessed = counts.filter((x) => x.n.dimensions.get(dimension) !== null && x.n.dimensions.get(dimension) !== undefined)
    expect(row.n, `${label} ${dimension}`).toBe(assessed.length)
    expect(row.average, `${label} ${dimension}`).toBe(mean(assessed.map((x) => x.n.dimensions.get(dimension)!)))
  }
  const mentions = (term: string) => counts.reduce((s, x) => s + x.n.competitors[term]!, 0)
  expect(period.competitors.count, label).toBe(Object.keys(COMPETITORS).reduce((s, term) => s + mentions(term), 0))
  for (const term of Object.keys(COMPETITORS)) {
    const row = period.competitors_by_term.find((t: any) => t.term === term)
    const has = (n: ReturnType<typeof countsOf>) => n.competitors[term]! > 0
    if (mentions(term) === 0) expect(row, `${label} ${term}`).toBeUndefined()
    else expect(row, `${label} ${term}`).toEqual({ term, count: mentions(term), calls: ids(has).length, call_ids: ids(has).slice(0, TRENDS_CALL_IDS_MAX) })
  }
}

/** The seeded team: the market profile names the competitors, and the trackers' list stores their mentions (the backfill on read). */
const team = Effect.gen(function* () {
  const owner = yield* newTenant("Northwind")
  const seed = yield* seedTeamWeeks(owner.clientId)
  const profile = yield* call("PUT", "/v1/client-portal/market-profile", {
    session: owner.session,
    body: { competitors: Object.keys(COMPETITORS) }
  })
  expect(profile.status, JSON.stringify(profile.body)).toBe(200)
  yield* get("/v1/client-portal/trackers", { session: owner.session })
  steps = followThrough(seed)
  return { owner, seed }
})

/** The weeks (oldest first) the seed's calls took place in. */
const weeksOf = (seed: TeamWeeks) => [...new Set(seed.calls.map((c) => mondayOf(c.meetingAt)))].sort()

const price = (at: number) => ({ kind: "price", at, quote: "That price is too high for us.", response: "other", response_pause_s: null })
/** A stored result with only what the trends read, `kinds` its objections (for the crafted tenants). */
const crafted = (kinds: ReadonlyArray<string>, words = "") => ({
  method_version: "test",
  duration_s: 60,
  objections: kinds.map((kind, i) => ({ ...price(i), kind })),
  next_steps: [],
  scorecard: { overall: null, dimensions: [] },
  speakers: [],
  transcript: words === "" ? [] : [{ speaker: "B", start: 0, end: 5, text: words }]
})

describe("trends", () => {
  it("a number's ids: the newest TRENDS_CALL_IDS_MAX of those added in any order, by time then id, as sorting them all would give", () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let round = 0; round < 200; round++) {
      // few distinct times, so that many ids share one and the id decides
      const pairs = Array.from({ length: Math.floor(random() * 40) }, (_, i) => [Math.floor(random() * 6) * 1000, `call_${Math.floor(random() * 1e6)}_${i}`] as const)
      const kept = acc()
      for (const [ms, id] of pairs) keepNewest(kept, ms, id)
      const sorted = [...pairs].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0)).slice(0, TRENDS_CALL_IDS_MAX)
      expect(kept.ids).toEqual(sorted.map((p) => p[1]))
      expect(kept.times).toEqual(sorted.map((p) => p[0]))
    }
  })

  layer(serverWithSmtp(), { excludeTestServices: true })("on the seeded team", (it) => {
    it.effect("per week, for the team: every number equals the counts recomputed from the seed's results and meeting times", () =>
      Effect.gen(function* () {
        const { owner, seed } = yield* team
        const weeks = weeksOf(seed)
        const trends = yield* get(`${TRENDS}?periods=${weeks.length}`, { session: owner.session })
        expect(trends.period).toBe("week")
        expect(trends.follow_through).toBe("deal_timeline")
        // steps were kept and slipped at all (else their counts above would prove little)
        expect(trends.team.periods.reduce((s: number, p: any) => s + p.next_steps.kept.count, 0)).toBeGreaterThan(0)
        expect(trends.team.periods.map((p: any) => p.period_start)).toEqual(weeks)
        for (const [i, week] of weeks.entries()) {
          expectPeriod(trends.team.periods[i], seed.calls.filter((c) => mondayOf(c.meetingAt) === week), `team ${week}`)
        }
        // the competitors were found at all (else their counts above would prove little)
        expect(trends.team.periods.reduce((s: number, p: any) => s + p.competitors.count, 0)).toBeGreaterThan(0)
        // by month: the same calls, other periods
        const months = [...new Set(seed.calls.map((c) => c.meetingAt.slice(0, 7)))].sort()
        const byMonth = yield* get(`${TRENDS}?period=month&periods=${months.length}`, { session: owner.session })
        expect(byMonth.team.periods.map((p: any) => p.period_start)).toEqual(months.map((m) => `${m}-01`))
        for (const [i, month] of months.entries()) {
          expectPeriod(byMonth.team.periods[i], seed.calls.filter((c) => c.meetingAt.startsWith(month)), `month ${month}`)
        }
      }))

    it.effect("per closer, and one closer by id or e-mail: the same numbers over each closer's calls", () =>
      Effect.gen(function* () {
        const { owner, seed } = yield* team
        const weeks = weeksOf(seed)
        const trends = yield* get(`${TRENDS}?periods=${weeks.length}`, { session: owner.session })
        expect(trends.closers.map((c: any) => c.closer_email)).toEqual(seed.closers.map((c) => c.email).sort())
        for (const closer of seed.closers) {
          const scope = trends.closers.find((c: any) => c.closer_email === closer.email)
          expect(scope.closer_id).toBe(closer.closerId)
          expect(scope.full_name).toBe(closer.fullName)
          for (const [i, week] of weeks.entries()) {
            const calls = seed.calls.filter((c) => c.closerEmail === closer.email && mondayOf(c.meetingAt) === week)
            expectPeriod(scope.periods[i], calls, `${closer.email} ${week}`)
          }
        }
        const one = seed.closers[1]!
        const byId = yield* get(`${TRENDS}?periods=${weeks.length}&closer_id=${one.closerId}`, { session: owner.session })
        const byEmail = yield* get(`${TRENDS}?periods=${weeks.length}&closer_email=${one.email.toUpperCase()}`, { session: owner.session })
        for (const answer of [byId, byEmail]) {
          expect(answer.closers.map((c: any) => c.closer_email)).toEqual([one.email])
          for (const [i, week] of weeks.entries()) {
            expectPeriod(answer.team.periods[i], seed.calls.filter((c) => c.closerEmail === one.email && mondayOf(c.meetingAt) === week), `one ${week}`)
          }
        }
      }))

    it.effect("one closer's steps are kept by their deal's next call whoever made it: the same as the closer's part of the team's answer", () =>
      Effect.gen(function* () {
        const { owner, seed } = yield* team
        const sql = yield* SqlClient.SqlClient
        // every deal's calls after its first go to another closer: each deal now spans two closers
        const byId = new Map(seed.calls.map((c) => [c.callId, c]))
        for (const deal of seed.deals) {
          const calls = deal.callIds.map((id) => byId.get(id)!).sort((a, b) => a.meetingAt.localeCompare(b.meetingAt))
          const other = seed.closers.find((c) => c.email !== calls[0]!.closerEmail)!
          for (const later of calls.slice(1)) yield* sql`UPDATE calls SET closer_email = ${other.email} WHERE call_id = ${later.callId}`
        }
        // the due days stored, as the analysis stores them (the seed writes results by SQL, without them)
        yield* storeMissingDueDays
        const weeks = weeksOf(seed)
        const until = new Date().toISOString()
        const all = yield* get(`${TRENDS}?periods=${weeks.length}&until=${until}`, { session: owner.session })
        let kept = 0
        for (const closer of seed.closers) {
          const one = yield* get(`${TRENDS}?periods=${weeks.length}&until=${until}&closer_email=${closer.email}`, { session: owner.session })
          const scope = all.closers.find((c: any) => c.closer_email === closer.email)
          expect(one.team.periods.map((p: any) => p.next_steps), closer.email).toEqual(scope.periods.map((p: any) => p.next_steps))
          kept += one.team.periods.reduce((s: number, p: any) => s + p.next_steps.kept.count, 0)
        }
        // steps kept at all, by a call of another closer (else the equality above would prove little)
        expect(kept).toBeGreaterThan(0)
      }).pipe(Effect.orDie))

    it.effect("since/until: the periods between them, the first and last clipped, calls counted by when they took place", () =>
      Effect.gen(function* () {
        const { owner, seed } = yield* team
        const since = seed.calls[10]!.meetingAt
        const until = seed.calls[20]!.meetingAt
        const trends = yield* get(`${TRENDS}?since=${since}&until=${until}`, { session: owner.session })
        expect(trends.from).toBe(new Date(since).toISOString())
        expect(trends.to).toBe(new Date(until).toISOString())
        const inside = seed.calls.slice(10, 20)
        // every week from the one holding since to the one holding the last instant before until (one
        // with none of the calls too: the 21st call can be the first of a new week, as the seed's times fall)
        const weeks: Array<string> = []
        const lastWeek = Date.parse(mondayOf(new Date(Date.parse(until) - 1).toISOString()))
        for (let week = Date.parse(mondayOf(since)); week <= lastWeek; week += 7 * DAY) weeks.push(new Date(week).toISOString().slice(0, 10))
        expect(weeks).toEqual(expect.arrayContaining([...new Set(inside.map((c) => mondayOf(c.meetingAt)))]))
        expect(trends.team.periods.map((p: any) => p.period_start)).toEqual(weeks)
        for (const [i, week] of weeks.entries()) expectPeriod(trends.team.periods[i], inside.filter((c) => mondayOf(c.meetingAt) === week), week)
      }))

    it.effect("changes between the last two weeks follow the documented rule, with the calls behind each side", () =>
      Effect.gen(function* () {
        const { owner, seed } = yield* team
        const trends = yield* get(`${TRENDS}?periods=2`, { session: owner.session })
        const [a, b] = trends.team.periods
        const objections = (p: any, kind: string) => p.objections_by_kind.find((k: any) => k.kind === kind)
        for (const kind of KINDS) {
          const from = objections(a, kind).count
          const to = objections(b, kind).count
          const change = trends.team.changes.find((c: any) => c.metric === "objection_kind" && c.key === kind)
          if (from === 0 && to === 0) {
            expect(change).toBeUndefined()
            continue
          }
          const notable = Math.abs(to - from) >= 3 && (from === 0 || Math.abs(to - from) / from >= 0.5)
          const label = kind === "competitor" ? "objections about a competitor" : `objections about ${kind}`
          expect(change).toMatchObject({ from, to, notable, label, from_call_ids: objections(a, kind).call_ids, to_call_ids: objections(b, kind).call_ids })
          expect(change.sentence).toBe(
            from === to ? `${label} unchanged at ${to} this week` : `${label} ${to > from ? "up" : "down"} from ${from} to ${to} this week`
          )
        }
        // the notable ones first
        const flags = trends.team.changes.map((c: any) => c.notable)
        expect(flags).toEqual([...flags].sort((x: boolean, y: boolean) => Number(y) - Number(x)))
        expect(seed.calls.length).toBe(30)
      }))

    it.effect("a rep sees their own calls only, whatever closer they ask for", () =>
      Effect.gen(function* () {
        const { owner, seed } = yield* team
        const smtp = yield* Smtp
        const rep = seed.closers[0]!
        const session = yield* memberSession(smtp, owner.clientId, rep.email)
        const weeks = weeksOf(seed)
        const mine = yield* get(`${TRENDS}?periods=${weeks.length}`, { session })
        expect(mine.closers.map((c: any) => c.closer_email)).toEqual([rep.email])
        for (const [i, week] of weeks.entries()) {
          expectPeriod(mine.team.periods[i], seed.calls.filter((c) => c.closerEmail === rep.email && mondayOf(c.meetingAt) === week), week)
        }
        const other = yield* get(`${TRENDS}?periods=${weeks.length}&closer_email=${seed.closers[1]!.email}`, { session })
        expect(other.team.periods.every((p: any) => p.calls.count === 0)).toBe(true)
        expect(other.closers).toEqual([])
      }))

    it.effect("another tenant: its closer_id is 404, and it sees none of the calls; bad query values are 422", () =>
      Effect.gen(function* () {
        const { seed } = yield* team
        const other = yield* newTenant("Elsewhere")
        const missing = yield* call("GET", `${TRENDS}?closer_id=${seed.closers[0]!.closerId}`, { session: other.session })
        expect(missing.status).toBe(404)
        const theirs = yield* get(`${TRENDS}?periods=8`, { session: other.session })
        expect(theirs.team.periods.every((p: any) => p.calls.count === 0 && p.calls.call_ids.length === 0)).toBe(true)
        for (const query of ["period=day", "periods=0", "periods=27", "since=yesterday", "since=2026-05-01&until=2026-04-01", "since=2020-01-01&until=2026-01-01"]) {
          const bad = yield* call("GET", `${TRENDS}?${query}`, { session: other.session })
          expect(bad.status, query).toBe(422)
          expect(bad.body.detail[0].loc[0], query).toBe("query")
        }
        expect((yield* call("GET", TRENDS)).status).toBe(401)
      }))

    it.effect("the assistant interface answers the same view for the tenant it names; an unknown tenant is 404", () =>
      Effect.gen(function* () {
        const { owner, seed } = yield* team
        const weeks = weeksOf(seed)
        const headers = { "x-api-key": ASSISTANT_KEY }
        const until = new Date().toISOString()
        const staff = yield* get(`/v1/internal/assistant/trends?client_id=${owner.clientId}&periods=${weeks.length}&until=${until}`, { headers })
        const portal = yield* get(`${TRENDS}?periods=${weeks.length}&until=${until}`, { session: owner.session })
        const { generated_at: _a, ...staffView } = staff
        const { generated_at: _b, ...portalView } = portal
        expect(staffView).toEqual(portalView)
        // both doors write the view as it is (lib/WireJson.ts): it is the declared answer, with no field of its own
        const declared = Schema.decodeUnknownSync(Trends, { onExcessProperty: "error" })
        for (const answer of [staff, portal]) expect(declared(answer)).toEqual(answer)
        for (const [i, week] of weeks.entries()) expectPeriod(staff.team.periods[i], seed.calls.filter((c) => mondayOf(c.meetingAt) === week), week)
        expect((yield* call("GET", `/v1/internal/assistant/trends?client_id=cli_nobody`, { headers })).status).toBe(404)
        expect((yield* call("GET", `/v1/internal/assistant/trends?client_id=${owner.clientId}&period=year`, { headers })).status).toBe(422)
        expect((yield* call("GET", `/v1/internal/assistant/trends?client_id=${owner.clientId}`)).status).toBe(401)
      }))

    it.effect("the daily brief's changes: the notable changes between the last 7 days and the 7 before, recomputed from the seed", () =>
      Effect.gen(function* () {
        const { owner, seed } = yield* team
        const brief = yield* get("/v1/client-portal/daily-brief", { session: owner.session })
        const today = Date.parse(`${brief.date}T00:00:00.000Z`)
        const inWindow = (from: number, to: number) => seed.calls.filter((c) => Date.parse(c.meetingAt) >= from && Date.parse(c.meetingAt) < to)
        const before = inWindow(today - 14 * DAY, today - 7 * DAY)
        const last = inWindow(today - 7 * DAY, today)
        const sentences: Array<string> = []
        const count = (label: string, f: (c: SeedCall) => number) => {
          const from = before.reduce((s, c) => s + f(c), 0)
          const to = last.reduce((s, c) => s + f(c), 0)
          if (Math.abs(to - from) >= 3 && (from === 0 || Math.abs(to - from) / from >= 0.5)) {
            sentences.push(`${label} ${to > from ? "up" : "down"} from ${from} to ${to} this week`)
          }
        }
        count("calls", () => 1)
        count("objections", (c) => countsOf(c).objections.length)
        for (const kind of KINDS) {
          count(kind === "competitor" ? "objections about a competitor" : `objections about ${kind}`, (c) => countsOf(c).objections.filter((k) => k === kind).length)
        }
        count("competitor mentions", (c) => Object.values(countsOf(c).competitors).reduce((s, n) => s + n, 0))
        for (const term of Object.keys(COMPETITORS)) count(`mentions of ${term}`, (c) => countsOf(c).competitors[term]!)
        count("pains stated", (c) => countsOf(c).pains)
        count("next steps said", (c) => countsOf(c).said)
        count("next steps with a date", (c) => countsOf(c).dated)
        count("next steps kept", (c) => countsOf(c).kept)
        count("next steps slipped", (c) => countsOf(c).slipped)
        const avg = (label: string, f: (c: SeedCall) => number | null | undefined) => {
          const xs = before.map(f).filter((x): x is number => x !== null && x !== undefined)
          const ys = last.map(f).filter((x): x is number => x !== null && x !== undefined)
          if (xs.length >= 3 && ys.length >= 3 && Math.abs(mean(ys)! - mean(xs)!) >= 10) {
            const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1))
            sentences.push(`${label} ${mean(ys)! > mean(xs)! ? "up" : "down"} from ${fmt(mean(xs)!)} to ${fmt(mean(ys)!)} this week`)
          }
        }
        avg("the average score", (c) => countsOf(c).overall)
        for (const d of DIMENSIONS) avg(`the average ${d.replace(/_/g, " ")} score`, (c) => countsOf(c).dimensions.get(d))
        expect([...brief.changes.map((c: any) => c.sentence)].sort()).toEqual(sentences.sort())
        expect(brief.changes.every((c: any) => c.notable)).toBe(true)
      }))

    it.effect("the daily brief says \"objections about price up from 3 to 9 this week\", with the calls behind it; a rep's brief has only theirs", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        yield* awayFromMidnight()
        const owner = yield* newTenant("Pricey")
        const now = Date.now()
        const todayStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate())
        const at = (daysAgo: number) => new Date(todayStart - daysAgo * DAY + 12 * 3_600_000).toISOString()
        const rep = "rita@pricey.test"
        // the 7 days before: 3 price objections in 2 calls; the last 7 days: 9 in 3 calls (one of the rep's)
        const before = [yield* insertAnalysed(owner.clientId, crafted(["price", "price"]), { at: at(10) }), yield* insertAnalysed(owner.clientId, crafted(["price"]), { at: at(9) })]
        const last = [
          yield* insertAnalysed(owner.clientId, crafted(["price", "price", "price"]), { at: at(5) }),
          yield* insertAnalysed(owner.clientId, crafted(["price", "price", "price"]), { at: at(3) }),
          yield* insertAnalysed(owner.clientId, crafted(["price", "price", "price"]), { at: at(1), closerEmail: rep })
        ]
        // today's call is not in the brief's days
        yield* insertAnalysed(owner.clientId, crafted(["price", "price", "price", "price"]), { at: new Date(now).toISOString() })
        const brief = yield* get("/v1/client-portal/daily-brief", { session: owner.session })
        const price = brief.changes.find((c: any) => c.metric === "objection_kind" && c.key === "price")
        expect(price).toMatchObject({ sentence: "objections about price up from 3 to 9 this week", from: 3, to: 9, direction: "up", notable: true })
        expect(price.to_call_ids).toEqual([...last].reverse())
        expect(price.from_call_ids).toEqual([...before].reverse())
        expect(brief.changes.find((c: any) => c.metric === "calls")).toBeUndefined() // 2 → 3: under 3
        // the rep: 0 → 3 price objections in their own calls
        yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql`INSERT INTO closers (closer_id, client_id, email, full_name, status, email_verified_at)
              VALUES (${`clo_rita_${now}`}, ${owner.clientId}, ${rep}, 'Rita', 'active', now())`).pipe(Effect.orDie)
        const session = yield* memberSession(smtp, owner.clientId, rep)
        const theirs = yield* get("/v1/client-portal/daily-brief", { session })
        expect(theirs.changes.map((c: any) => c.sentence)).toEqual(["objections up from 0 to 3 this week", "objections about price up from 0 to 3 this week"])
        expect(theirs.changes[1].to_call_ids).toEqual([last[2]])
      }))

    it.effect("the last day, cut at `until`: read from its stored row when no call took place later that day, else summed from its calls before `until`; the same answer", () =>
      Effect.gen(function* () {
        const owner = yield* newTenant("Cutoff")
        const day = Date.UTC(2026, 2, 10) // a Tuesday
        const at = (hours: number) => new Date(day + hours * 3_600_000).toISOString()
        const before = [
          yield* insertAnalysed(owner.clientId, crafted(["price", "price"]), { at: at(-20) }),
          yield* insertAnalysed(owner.clientId, crafted(["price"]), { at: at(8) }),
          yield* insertAnalysed(owner.clientId, crafted(["timing"]), { at: at(10) })
        ]
        const url = `${TRENDS}?periods=2&until=${at(12)}`
        // nothing later that day: the day's stored row
        const whole = yield* get(url, { session: owner.session })
        const week = whole.team.periods.at(-1)
        expect(week.period_start).toBe("2026-03-09")
        expect(week.calls).toEqual({ count: 3, calls: 3, call_ids: [...before].reverse() })
        expect(week.objections_by_kind.find((k: any) => k.kind === "price")).toEqual({ kind: "price", count: 3, calls: 2, call_ids: [before[1], before[0]] })
        // a call later that day, after `until`: the day is summed from its calls before `until`, as before
        yield* insertAnalysed(owner.clientId, crafted(["price", "price", "price"]), { at: at(15) })
        const cut = yield* get(url, { session: owner.session })
        expect({ ...cut, generated_at: whole.generated_at }).toEqual(whole)
        // and with `until` after it, it counts (the day's stored row again)
        const later = yield* get(`${TRENDS}?periods=2&until=${at(16)}`, { session: owner.session })
        expect(later.team.periods.at(-1).objections_by_kind.find((k: any) => k.kind === "price").count).toBe(6)
      }))

    it.effect("market intelligence: objections and competitors per week and industry across tenants; a segment of 2 tenants is withheld", () =>
      Effect.gen(function* () {
        const label = `freight ${Date.now()}`
        const thin = `dental ${Date.now()}`
        const now = Date.now()
        const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString()
        const tenants: Array<{ clientId: string; calls: Array<string> }> = []
        // three tenants of one industry, each naming Gong in its market profile and mentioning it in one call
        for (const [i, kinds] of [[["price", "timing"]], [["price"]], [["budget", "price"]]].entries()) {
          const owner = yield* newTenant(`Freight ${i}`)
          const id = yield* insertAnalysed(owner.clientId, crafted(kinds[0]!, "We also looked at Gong and gong.io before."), { at: at(1) })
          const profile = yield* call("PUT", "/v1/client-portal/market-profile", { session: owner.session, body: { industry: label, competitors: ["Gong"] } })
          expect(profile.status).toBe(200)
          yield* get("/v1/client-portal/trackers", { session: owner.session })
          tenants.push({ clientId: owner.clientId, calls: [id] })
        }
        // two tenants of another
        for (const i of [0, 1]) {
          const owner = yield* newTenant(`Dental ${i}`)
          yield* call("PUT", "/v1/client-portal/market-profile", { session: owner.session, body: { industry: thin } })
          yield* insertAnalysed(owner.clientId, crafted(["price"]), { at: at(1) })
        }
        const answer = yield* get(`/v1/internal/admin/market-intel/trends?period_type=week&periods=2&period_start=${at(1).slice(0, 10)}`, { headers: admin })
        const week = mondayOf(at(1))
        const segment = answer.segments.find((s: any) => s.industry === label)
        const cell = segment.periods.find((p: any) => p.period_start === week)
        expect(cell).toMatchObject({ calls: 3, tenants: 3, suppressed: null })
        expect(cell.objections.find((o: any) => o.kind === "price")).toEqual({ kind: "price", count: 3, calls: 3, tenants: 3, suppressed: null })
        // timing and budget each come from one tenant: withheld
        for (const kind of ["timing", "budget"]) {
          expect(cell.objections.find((o: any) => o.kind === kind)).toMatchObject({ count: null, calls: null, tenants: 1, suppressed: { code: "min_tenants" } })
        }
        expect(cell.objections.find((o: any) => o.kind === "need")).toEqual({ kind: "need", count: 0, calls: 0, tenants: 0, suppressed: null })
        // "Gong" twice in each call ("gong.io" is the word gong too), three tenants
        expect(cell.competitors).toEqual([{ competitor: "gong", count: 6, calls: 3, tenants: 3, suppressed: null }])
        const withheld = answer.segments.find((s: any) => s.industry === thin).periods.find((p: any) => p.period_start === week)
        expect(withheld).toMatchObject({ calls: null, tenants: 2, suppressed: { code: "min_tenants" }, objections: [], competitors: [] })
        const bad = yield* call("GET", "/v1/internal/admin/market-intel/trends?segment_by=region", { headers: admin })
        expect(bad.status).toBe(422)
        expect([401, 403]).toContain((yield* call("GET", "/v1/internal/admin/market-intel/trends", { headers: { "x-api-key": ASSISTANT_KEY } })).status)
      }))

    it.effect("market intelligence's trends from the stored aggregates: the figures computed, fresh until a call, its meeting's time or a mention changes", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const label = `courier ${Date.now()}`
        const now = Date.now()
        const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString()
        const day = at(1).slice(0, 10)
        const calls: Array<string> = []
        // three tenants of one industry naming Gong, each with a call mentioning it (twice) and one without
        for (const kinds of [["price", "timing"], ["price"], ["budget", "price"]]) {
          const owner = yield* newTenant("Courier")
          calls.push(yield* insertAnalysed(owner.clientId, crafted(kinds, "We also looked at Gong and gong.io before."), { at: at(1) }))
          yield* insertAnalysed(owner.clientId, crafted(["price"]), { at: at(1) })
          expect((yield* call("PUT", "/v1/client-portal/market-profile", { session: owner.session, body: { industry: label, competitors: ["Gong"] } })).status).toBe(200)
          yield* get("/v1/client-portal/trackers", { session: owner.session })
        }
        const week = mondayOf(at(1))
        const path = (by: string) => `/v1/internal/admin/market-intel/trends?period_type=week&periods=2&period_start=${day}&segment_by=${by}`
        const read = (by: string) =>
          Effect.map(get(path(by), { headers: admin }), (answer: any) =>
            answer.segments.filter((s: any) => s.industry === label).map((s: any) => ({ ...s, periods: s.periods.filter((p: any) => p.period_start === week) })))
        const computed = { industry: yield* read("industry"), icp: yield* read("icp") }
        expect(computed.industry[0].periods[0]).toMatchObject({ calls: 6, tenants: 3, suppressed: null })
        expect(computed.industry[0].periods[0].competitors).toEqual([{ competitor: "gong", count: 6, calls: 3, tenants: 3, suppressed: null }])
        expect(computed.industry[0].periods[0].objections.find((o: any) => o.kind === "price")).toMatchObject({ count: 6, calls: 6, tenants: 3 })

        const rebuild = () => Effect.map(call("POST", "/v1/internal/admin/market-intel/rebuild", { headers: admin, body: { period_types: ["week"], periods: 2, period_start: day } }), (r) => expect(r.status).toBe(200))
        yield* rebuild()
        const [cells] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM market_intel_trend_cells WHERE period_type = 'week' AND period_start = ${week}::date AND industry = ${label}`
        // per tenant: its calls row and its Gong row
        expect(cells!.n).toBe(6)
        expect(yield* read("industry")).toEqual(computed.industry)
        expect(yield* read("icp")).toEqual(computed.icp)
        // read from the store: a stored figure changed by hand is what the read answers
        yield* sql`UPDATE market_intel_trend_cells SET calls = calls + 100 WHERE industry = ${label} AND term IS NULL AND period_start = ${week}::date`
        expect((yield* read("industry"))[0].periods[0].calls).toBe(306)
        yield* sql`UPDATE market_intel_trend_cells SET calls = calls - 100 WHERE industry = ${label} AND term IS NULL AND period_start = ${week}::date`

        // a mention deleted: the week is stale, computed again (two tenants mention Gong: withheld)
        yield* sql`DELETE FROM tracker_mentions WHERE call_id = ${calls[0]!}`
        const fewer = (yield* read("industry"))[0].periods[0]
        expect(fewer).toMatchObject({ calls: 6, tenants: 3, competitors: [], competitors_withheld: 1 })

        // built again, then a call's meeting moved a week back: both weeks stale, the call counted in the earlier one
        yield* rebuild()
        expect((yield* read("industry"))[0].periods[0]).toEqual(fewer)
        yield* sql`UPDATE calls SET meeting_at = ${at(8)}::timestamptz WHERE call_id = ${calls[1]!}`
        const moved = yield* Effect.map(get(path("industry"), { headers: admin }), (answer: any) => answer.segments.find((s: any) => s.industry === label).periods)
        expect(moved.find((p: any) => p.period_start === week)).toMatchObject({ calls: 5, tenants: 3 })
        expect(moved.find((p: any) => p.period_start === mondayOf(at(8)))).toMatchObject({ calls: null, tenants: 1, suppressed: { code: "min_tenants" } })
        // and built again, the store agrees
        yield* rebuild()
        const rebuilt = yield* Effect.map(get(path("industry"), { headers: admin }), (answer: any) => answer.segments.find((s: any) => s.industry === label).periods)
        expect(rebuilt).toEqual(moved)
      }))

    // last: it stores the days of every call of the database written without them
    it.effect("the due days stored with the calls (migration 0027) are chrono's from each call's meeting, and the answer is the one read without them", () =>
      Effect.gen(function* () {
        const { owner, seed } = yield* team
        const sql = yield* SqlClient.SqlClient
        const ids = seed.calls.map((c) => c.callId)
        const until = new Date().toISOString()
        const weeks = weeksOf(seed)
        const paths = [`${TRENDS}?periods=${weeks.length}&until=${until}`, `${TRENDS}?period=month&periods=3&until=${until}`]
        const read = Effect.forEach(paths, (path) => Effect.map(get(path, { session: owner.session }), ({ generated_at: _, ...answer }) => answer))
        // the seed writes its results by SQL: no days stored, the dues read by chrono at read time
        const [unstored] = yield* sql<{ n: number }>`
          SELECT count(*)::int AS n FROM calls WHERE call_id IN ${sql.in(ids)} AND trend_dues IS NOT NULL AND trend_due_days IS NULL`
        expect(unstored!.n).toBeGreaterThan(0)
        const before = yield* read
        yield* storeMissingDueDays
        const rows = yield* sql<{ call_id: string; days: ReadonlyArray<string | null> | null }>`
          SELECT call_id, trend_due_days::text[] AS days FROM calls WHERE call_id IN ${sql.in(ids)}`
        const byId = new Map(seed.calls.map((c) => [c.callId, c]))
        let dated = 0
        for (const row of rows) {
          const c = byId.get(row.call_id)!
          const dues = ((c.result as any).next_steps as Array<{ due: string | null }>).flatMap((s) => (s.due === null || s.due.trim() === "" ? [] : [s.due]))
          const days = dues.map((due) => {
            const day = chrono.casual.parseDate(due, { instant: new Date(c.meetingAt), timezone: 0 }, { forwardDate: true })
            return day === null ? null : day.toISOString().slice(0, 10)
          })
          dated += days.filter((d) => d !== null).length
          expect(row.days, row.call_id).toEqual(dues.length === 0 ? null : days)
        }
        expect(dated).toBeGreaterThan(0)
        // read from the stored days: the same answer, to the call ids
        const after = yield* read
        expect(after).toEqual(before)
        expect((after[0] as any).team.periods.reduce((s: number, p: any) => s + p.next_steps.kept.count + p.next_steps.slipped.count, 0)).toBeGreaterThan(0)
      }))

    it.effect("the analysis stores its steps' due days as it stores the result (CallsRepo.complete), from the call's meeting", () =>
      Effect.gen(function* () {
        const owner = yield* newTenant("Duedays")
        const sql = yield* SqlClient.SqlClient
        const callId = `call_duedays_${Date.now()}`
        yield* sql`INSERT INTO calls (call_id, client_id, status, format, blob_key, size_bytes, sha256, meeting_at)
                   VALUES (${callId}, ${owner.clientId}, 'processing', 'wav', ${`blob/${callId}`}, 1, 'x', '2026-03-04T15:00:00Z')`
        const step = (due: string | null) => ({ quote: `we will talk ${due ?? "again"}`, owner: "closer", due })
        const result = {
          ...crafted([]),
          next_steps: [step("by Friday"), step("whenever"), step(null), step("  "), step("tomorrow"), step("next week")]
        } as unknown as AnalysisResult
        const repo = yield* Effect.provide(CallsRepo, CallsRepo.Default)
        yield* repo.complete(callId as CallId, result)
        const [row] = yield* sql<{ status: string; dues: ReadonlyArray<string>; days: ReadonlyArray<string | null> }>`
          SELECT status, trend_dues AS dues, trend_due_days::text[] AS days FROM calls WHERE call_id = ${callId}`
        expect(row!.status).toBe("completed")
        expect(row!.dues).toEqual(["by Friday", "whenever", "tomorrow", "next week"])
        expect(row!.days).toEqual(["2026-03-06", null, "2026-03-05", "2026-03-11"])
        // the deal timeline's reading of the same dues
        expect(row!.dues.map((due) => dueDateOf(due, "2026-03-04T15:00:00.000Z"))).toEqual(row!.days)
        // a re-analysis without dated steps clears them
        yield* repo.complete(callId as CallId, { ...crafted([]), next_steps: [step(null)] } as unknown as AnalysisResult)
        const [again] = yield* sql<{ dues: unknown; days: unknown }>`SELECT trend_dues AS dues, trend_due_days AS days FROM calls WHERE call_id = ${callId}`
        expect(again).toEqual({ dues: null, days: null })
      }).pipe(Effect.orDie))
  })
})
