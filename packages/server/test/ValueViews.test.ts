/**
 * The value views (customer value, ROI digest, review pack, daily brief) on tenants with known
 * calls, scores, evidence, objections, next steps and outcomes, seeded in SQL so that every
 * figure is known: the exact values each view must answer, the ROI's arithmetic and its refusals
 * (too few outcomes, no baseline), the brief's day in the team's time zone, its actions each opened
 * (the app's page, 200) and done (the declared operation, with the session), and another tenant
 * seeing none of it.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { call, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"

const DAY = 86_400_000

interface Seed {
  readonly completedAt: Date
  readonly durationS?: number
  readonly overall?: number | null
  readonly closer?: string | null
  readonly dimensions?: Record<string, number | null>
  readonly effects?: ReadonlyArray<number>
  readonly objections?: ReadonlyArray<{ kind: string; at: number; quote: string; response: string }>
  readonly nextSteps?: number
  readonly outcome?: { outcome: "won" | "lost" | "open" | "no_decision"; value?: number; test?: boolean }
  readonly status?: "completed" | "failed" | "queued"
  readonly createdAt?: Date
  /** The upload's own id of the call (none by default). */
  readonly externalId?: string
}

/** A completed call with the given analysis, straight into the database; its id. */
const seed = (clientId: string, s: Seed) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_${randomBytes(8).toString("hex")}`
    const dims = Object.entries(s.dimensions ?? {}).map(([dimension, score]) => ({
      dimension, score, assessed: score !== null, weight: 1, reason: null
    }))
    const result = {
      // what a stored analysis always has, so that its report renders
      method_version: "callsight-test",
      duration_s: s.durationS ?? 600,
      channels: 1,
      diarization: "clustering",
      speakers: [],
      speaker_turns: [],
      metrics: {},
      scorecard: { overall: s.overall === undefined ? 70 : s.overall, dimensions: dims },
      evidence: (s.effects ?? []).map((effect, i) => ({ dimension: "discovery", start: i, end: i + 1, speaker: null, quote: null, effect })),
      objections: (s.objections ?? []).map((o) => ({ ...o, response_pause_s: null })),
      next_steps: Array.from({ length: s.nextSteps ?? 0 }, (_, i) => ({ at: i, quote: "let's meet on Friday", owner: null, due: "Friday" })),
      transcript: []
    }
    const status = s.status ?? "completed"
    const created = s.createdAt ?? new Date(s.completedAt.getTime() - 60_000)
    yield* sql`INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256,
                                  created_at, started_at, completed_at, duration_s, result)
               VALUES (${callId}, ${clientId}, ${s.externalId ?? null}, ${s.closer === undefined ? "ann@acme.test" : s.closer}, ${status}, 'mp3',
                       ${`${clientId}/${callId}.mp3`}, 1, 'x', ${created.toISOString()}, ${created.toISOString()},
                       ${status === "queued" ? null : s.completedAt.toISOString()}, ${s.durationS ?? 600},
                       ${status === "completed" ? JSON.stringify(result) : null}::jsonb)`
    if (s.outcome !== undefined) {
      yield* sql`INSERT INTO outcome_truth (call_id, client_id, outcome, deal_value, is_test_data, recorded_by)
                 VALUES (${callId}, ${clientId}, ${s.outcome.outcome}, ${s.outcome.value ?? null}, ${s.outcome.test ?? false}, 'usr_x')`
    }
    return callId
  })

const daysAgo = (days: number) => new Date(Date.now() - days * DAY)

const setPlan = (clientId: string, plan: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE tenants SET plan = ${plan} WHERE client_id = ${clientId}`)

const get = (session: string, view: string) =>
  Effect.map(call("GET", `/v1/client-portal/${view}`, { session }), (r) => {
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    return r.body
  })

describe("value views", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("on known calls", (it) => {
    it.effect("customer value: calls, hours, coaching moments, score change, win rate with n; the ROI's arithmetic and what it cannot compute", () =>
      Effect.gen(function* () {
        const t = yield* newTenant()
        yield* setPlan(t.clientId, "growth")
        yield* seed(t.clientId, { completedAt: daysAgo(10), durationS: 1800, overall: 80, effects: [5, -3, -2], outcome: { outcome: "won", value: 10_000 } })
        yield* seed(t.clientId, { completedAt: daysAgo(20), durationS: 1200, overall: 60, effects: [-4], outcome: { outcome: "lost" } })
        // test data and the previous period do not count
        yield* seed(t.clientId, { completedAt: daysAgo(25), durationS: 0, overall: null, outcome: { outcome: "won", value: 1, test: true } })
        yield* seed(t.clientId, { completedAt: daysAgo(100), durationS: 600, overall: 50, effects: [-1] })

        const body = yield* get(t.session, "customer-value")
        expect(body.value).toMatchObject({
          calls_analysed: 3,
          hours_analysed: 0.8, // 3000 s
          coaching_moments: 3,
          average_score: 70,
          score_change: 20,
          outcomes_recorded: 2,
          deals_won: 1,
          deals_lost: 1,
          win_rate: 0.5,
          win_rate_sample: 2
        })
        expect(body.value.score_trend.length).toBeGreaterThanOrEqual(13)
        expect(body.value.score_trend.reduce((n: number, w: any) => n + w.calls, 0)).toBe(3)
        expect(Date.parse(body.period_end) - Date.parse(body.period_start)).toBe(90 * DAY)

        expect(body.roi).toMatchObject({
          currency: "USD",
          manager_hours_saved: 1.5, // 3 calls × 30 minutes
          manager_time_value: 90, // × 60 an hour
          win_rate_change: null,
          average_deal_size: 10_000, // no profile value: the won deals' mean
          win_rate_value: null,
          plan_cost: 897, // growth, 299 a month, 3 months
          net_value: -807,
          roi_multiple: -0.9
        })
        expect(body.roi.unavailable.map((u: any) => u.figure)).toEqual(["win_rate_change", "win_rate_value"])
        expect(body.roi.unavailable[0].reason).toBe("0 decided outcomes in the first month: at least 10 are needed")
        expect(body.roi.assumptions.find((a: any) => a.key === "average_deal_size")).toMatchObject({ value: 10_000, source: "outcome_truth" })
        expect(body.roi.assumptions.find((a: any) => a.key === "plan_monthly_price")).toMatchObject({ value: 299, source: "plan", unit: "USD/month" })

        // another tenant sees nothing of it
        const other = yield* newTenant()
        const empty = yield* get(other.session, "customer-value")
        expect(empty.value).toMatchObject({ calls_analysed: 0, hours_analysed: 0, coaching_moments: 0, average_score: null, win_rate: null, win_rate_sample: 0 })
        expect(empty.roi).toMatchObject({ plan_cost: 0, roi_multiple: null, average_deal_size: null })
        expect(empty.roi.unavailable.map((u: any) => u.figure)).toEqual(["win_rate_change", "average_deal_size", "win_rate_value", "roi_multiple"])
      }))

    it.effect("the win-rate change since the first month × deals × the profile's deal size, with 10 outcomes on each side", () =>
      Effect.gen(function* () {
        const t = yield* newTenant()
        yield* setPlan(t.clientId, "starter")
        const profile = yield* call("PUT", "/v1/client-portal/market-profile", { session: t.session, body: { average_deal_size: 5000, currency: "USD" } })
        expect(profile.status).toBe(200)
        // the first month (from 80 days ago): 4 won, 6 lost → 40 %
        for (let i = 0; i < 10; i++) {
          yield* seed(t.clientId, { completedAt: daysAgo(80 - i), outcome: { outcome: i < 4 ? "won" : "lost" } })
        }
        // since: 7 won, 3 lost → 70 %
        for (let i = 0; i < 10; i++) {
          yield* seed(t.clientId, { completedAt: daysAgo(40 - i), outcome: { outcome: i < 7 ? "won" : "lost" } })
        }
        const { roi, value } = yield* get(t.session, "customer-value")
        expect(value).toMatchObject({ calls_analysed: 20, win_rate: 0.55, win_rate_sample: 20 })
        expect(roi).toMatchObject({
          manager_hours_saved: 10,
          manager_time_value: 600,
          win_rate_change: 0.3,
          average_deal_size: 5000,
          win_rate_value: 15_000, // 0.3 × 10 deals × 5000
          plan_cost: 297,
          net_value: 15_303,
          roi_multiple: 51.53
        })
        expect(roi.unavailable).toEqual([])
        expect(roi.assumptions.find((a: any) => a.key === "average_deal_size")).toMatchObject({ source: "market_profile" })
        expect(roi.assumptions.find((a: any) => a.key === "decided_deals")).toMatchObject({ value: 10 })

        const digest = yield* get(t.session, "customer-roi-digest")
        expect(digest.headline).toBe("20 calls (3.3 hours) analysed in the last 90 days, average score 70.")
        expect(digest.highlights).toContain("Win rate up 30 points since the first month.")
        expect(digest.highlights).toContain("Net value 15303 USD for a plan cost of 297 USD: 51.53× the cost.")
        expect(digest.roi).toEqual({ ...roi })

        // another currency: no net value, said why
        yield* call("PUT", "/v1/client-portal/market-profile", { session: t.session, body: { average_deal_size: 5000, currency: "EUR" } })
        const euros = (yield* get(t.session, "customer-value")).roi
        expect(euros).toMatchObject({ currency: "EUR", net_value: null, roi_multiple: null })
        expect(euros.unavailable).toEqual([{ figure: "net_value", reason: "the plan's price is in USD and the market profile's currency is EUR" }])
      }))

    it.effect("the review pack: the digest, each closer's progress and weakest dimension, the calls worth reviewing", () =>
      Effect.gen(function* () {
        const t = yield* newTenant()
        const ann = "ann@acme.test"
        const bob = "Bob@Acme.test"
        yield* call("POST", "/v1/client-portal/closers", { session: t.session, body: { email: "ann@acme.test", full_name: "Ann Closer" } })
        yield* seed(t.clientId, { completedAt: daysAgo(5), closer: ann, overall: 90, dimensions: { discovery: 95, listening: 60, value: 80 }, outcome: { outcome: "won" } })
        yield* seed(t.clientId, { completedAt: daysAgo(6), closer: ann, overall: 70, dimensions: { discovery: 75, listening: 70, value: null } })
        yield* seed(t.clientId, { completedAt: daysAgo(120), closer: ann, overall: 60 })
        const low = yield* seed(t.clientId, { completedAt: daysAgo(7), closer: bob, overall: 30, dimensions: { discovery: 20, next_steps: 10 }, outcome: { outcome: "lost" } })
        yield* seed(t.clientId, { completedAt: daysAgo(8), closer: "bob@acme.test", overall: 50, dimensions: { discovery: 40, next_steps: 30 } })

        const pack = yield* get(t.session, "customer-roi-review-pack")
        expect(pack.headline).toMatch(/^4 calls/)
        expect(pack.closers).toEqual([
          {
            closer_id: null,
            email: "bob@acme.test",
            full_name: null,
            calls_analysed: 2,
            average_score: 40,
            score_change: null,
            weakest_dimension: "next_steps",
            win_rate: 0,
            win_rate_sample: 1
          },
          {
            closer_id: expect.stringMatching(/^clo_/),
            email: ann,
            full_name: "Ann Closer",
            calls_analysed: 2,
            average_score: 80,
            score_change: 20,
            weakest_dimension: "listening", // 65 on average
            win_rate: 1,
            win_rate_sample: 1
          }
        ])
        expect(pack.calls_to_review[0]).toMatchObject({
          call_id: low,
          overall_score: 30,
          outcome: "lost",
          reason: "one of the lowest scores of the last 90 days (score 30); lost deal"
        })
        expect(pack.calls_to_review.map((c: any) => c.overall_score)).toEqual([30, 50, 70, 90])
      }))

    it.effect("the daily brief: yesterday in the team's time zone, its calls by their external ids, notable moments, deals at risk, and suggested actions that can all be done", () =>
      Effect.gen(function* () {
        const t = yield* newTenant()
        // Tokyo is UTC+9 all year: its today starts at 15:00 UTC the day before
        const saved = yield* call("PUT", "/v1/client-portal/market-profile", { session: t.session, body: { time_zone: "Asia/Tokyo", sales_cycle_days: 14 } })
        expect(saved.status).toBe(200)
        expect(saved.body.time_zone).toBe("Asia/Tokyo")
        const tokyoNow = new Date(Date.now() + 9 * 3600_000)
        const todayStart = new Date(Date.UTC(tokyoNow.getUTCFullYear(), tokyoNow.getUTCMonth(), tokyoNow.getUTCDate()) - 9 * 3600_000)
        const yesterday = (hours: number) => new Date(todayStart.getTime() - DAY + hours * 3600_000)

        const best = yield* seed(t.clientId, { createdAt: yesterday(1), completedAt: yesterday(2), closer: "ann@acme.test", overall: 88, nextSteps: 1, externalId: "crm-best" })
        const worst = yield* seed(t.clientId, {
          externalId: "crm-worst",
          createdAt: yesterday(3),
          completedAt: yesterday(4),
          closer: "bob@acme.test",
          overall: 41,
          objections: [
            { kind: "price", at: 312.5, quote: "That is more than we budgeted for.", response: "other" },
            { kind: "timing", at: 400, quote: "Not this quarter.", response: "question_back" }
          ]
        })
        const failed = yield* seed(t.clientId, { createdAt: yesterday(5), completedAt: yesterday(6), status: "failed" })
        // outside yesterday: not in the brief's calls
        yield* seed(t.clientId, { createdAt: new Date(todayStart.getTime() + 60_000), completedAt: new Date(todayStart.getTime() + 120_000), overall: 10, nextSteps: 1 })
        yield* seed(t.clientId, { createdAt: yesterday(-1), completedAt: yesterday(-0.5), overall: 99, nextSteps: 1 })
        // an open deal past the 14-day sales cycle, with its next step agreed
        const stale = yield* seed(t.clientId, { completedAt: daysAgo(20), closer: "cy@acme.test", nextSteps: 1, outcome: { outcome: "open" } })
        // decided deals are not at risk
        yield* seed(t.clientId, { completedAt: daysAgo(3), outcome: { outcome: "won" } })
        // a call of 10 days ago without an outcome: record it
        const due = yield* seed(t.clientId, { completedAt: daysAgo(10), closer: "dee@acme.test", nextSteps: 1 })
        // a closer who has not confirmed their e-mail: the managers are asked to send the link again
        const pending = yield* call("POST", "/v1/client-portal/closers", { session: t.session, body: { email: "eve@acme.test", full_name: "Eve Pending" } })
        expect(pending.status).toBe(200)

        const brief = yield* get(t.session, "daily-brief")
        expect(brief.date).toBe(tokyoNow.toISOString().slice(0, 10))
        expect(brief.calls.map((c: any) => c.call_id)).toEqual([best, worst, failed])
        // each call named with the upload's own id, null where the upload gave none
        expect(brief.calls.map((c: any) => c.external_call_id)).toEqual(["crm-best", "crm-worst", null])
        expect(brief.calls_analysed).toBe(2)
        expect(brief.average_score).toBe(64.5)
        expect(brief.notable_moments).toEqual([
          { call_id: best, external_call_id: "crm-best", closer_email: "ann@acme.test", at: 0, kind: "best_score", quote: "score 88" },
          { call_id: worst, external_call_id: "crm-worst", closer_email: "bob@acme.test", at: 0, kind: "lowest_score", quote: "score 41" },
          {
            call_id: worst,
            external_call_id: "crm-worst",
            closer_email: "bob@acme.test",
            at: 312.5,
            kind: "objection_unexplored",
            quote: "That is more than we budgeted for."
          }
        ])
        const risks = Object.fromEntries(brief.deals_at_risk.map((d: any) => [d.call_id, d]))
        expect(risks[worst]).toMatchObject({ external_call_id: "crm-worst", risk: "high", reasons: ["no next step was agreed on the call", "1 objection not explored"] })
        expect(risks[stale]).toMatchObject({ external_call_id: null, risk: "high", reasons: ["open for 20 days, longer than the sales cycle of 14 days"] })
        expect(risks[best]).toBeUndefined()
        expect(brief.deals_at_risk.every((d: any) => d.risk === "high" || d.risk === "medium")).toBe(true)

        const [first] = brief.suggested_actions
        // each action: the app's page where a person does it, and the operation that does it
        expect(first).toEqual({
          action: "review_call",
          call_id: worst,
          closer_id: null,
          label: "Review the call of bob@acme.test: the lowest score yesterday (41)",
          url: `http://localhost:8080/app/calls/${worst}`,
          operation: { method: "GET", path: `/v1/client-portal/calls/${worst}/report` }
        })
        expect(brief.suggested_actions.filter((a: any) => a.action === "follow_up").map((a: any) => a.call_id).sort()).toEqual(
          brief.deals_at_risk.filter((d: any) => d.risk === "high").slice(0, 3).map((d: any) => d.call_id).sort()
        )
        expect(brief.suggested_actions.find((a: any) => a.action === "record_outcome" && a.call_id === stale)).toBeUndefined()
        expect(brief.suggested_actions.find((a: any) => a.action === "record_outcome")).toEqual({
          action: "record_outcome",
          label: `Record the outcome of the call of ${daysAgo(10).toISOString().slice(0, 10)} (dee@acme.test)`,
          call_id: due,
          closer_id: null,
          url: `http://localhost:8080/app/calls/${due}`,
          operation: { method: "PUT", path: `/v1/client-portal/calls/${due}/outcome-truth` }
        })
        expect(brief.suggested_actions.filter((a: any) => a.action === "verify_closer")).toEqual([{
          action: "verify_closer",
          label: "Ask eve@acme.test to confirm their e-mail (or send the link again)",
          call_id: null,
          closer_id: pending.body.closer_id,
          url: "http://localhost:8080/app/team",
          operation: { method: "POST", path: `/v1/client-portal/closers/${pending.body.closer_id}/send-verification` }
        }])

        // every action can be done: its link opens the web app (GET 200, the app's page, whose route it names), and the
        // declared method on the declared path succeeds with the same session (record_outcome with an outcome)
        const kinds = new Set<string>()
        for (const a of brief.suggested_actions) {
          kinds.add(a.action)
          expect(a.url).toMatch(/^http:\/\/localhost:8080\/app\/(calls\/call_[0-9a-f]+|team)$/)
          const page = yield* call("GET", a.url.slice("http://localhost:8080".length), { session: t.session })
          expect(page.status, a.url).toBe(200)
          expect(page.headers["content-type"]).toContain("text/html")
          const done = yield* call(a.operation.method, a.operation.path, {
            session: t.session,
            ...(a.operation.method === "PUT" ? { body: { outcome: "open" } } : {})
          })
          expect(done.status, `${a.action}: ${a.operation.method} ${a.operation.path} ${JSON.stringify(done.body).slice(0, 300)}`).toBe(200)
        }
        expect([...kinds].sort()).toEqual(["follow_up", "record_outcome", "review_call", "verify_closer"])
        expect((yield* call("GET", `/v1/client-portal/calls/${due}/outcome-truth`, { session: t.session })).body).toMatchObject({ outcome: "open" })

        // the report the brief links to is behind the session: 409 until it completed, another tenant's 404
        // (a completed call's report is tested with a real analysis in Portal.test.ts)
        const report = yield* call("GET", `/v1/client-portal/calls/${failed}/report`, { session: t.session })
        expect(report.status).toBe(409)
        expect((yield* call("GET", `/v1/client-portal/calls/${worst}/report`)).status).toBe(401)
        const other = yield* newTenant()
        expect((yield* call("GET", `/v1/client-portal/calls/${worst}/report`, { session: other.session })).status).toBe(404)
        const otherBrief = yield* get(other.session, "daily-brief")
        expect(otherBrief).toMatchObject({ calls: [], calls_analysed: 0, average_score: null, notable_moments: [], deals_at_risk: [], suggested_actions: [] })
        for (const ours of ["crm-best", "crm-worst", worst, pending.body.closer_id]) expect(JSON.stringify(otherBrief)).not.toContain(ours)
      }))

    it.effect("a time zone the runtime does not know is 422; the views need a session", () =>
      Effect.gen(function* () {
        const t = yield* newTenant()
        const bad = yield* call("PUT", "/v1/client-portal/market-profile", { session: t.session, body: { time_zone: "Mars/Olympus" } })
        expect(bad.status).toBe(422)
        expect(JSON.stringify(bad.body.detail)).toContain("IANA time zone")
        for (const view of ["customer-value", "customer-roi-digest", "customer-roi-review-pack", "daily-brief"]) {
          expect((yield* call("GET", `/v1/client-portal/${view}`)).status).toBe(401)
        }
      }))
  })
})
