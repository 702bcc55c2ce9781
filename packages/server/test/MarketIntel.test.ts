/**
 * Market intelligence on a data set built here, in SQL, so every figure is known: seven tenants
 * (one of them test data) in two industries, with ICPs and lead sources from their profiles and
 * from the outcomes, calls in ISO weeks 9, 10 and 11 of 2026 (one at 23:59:59 on the Sunday that
 * ends week 10), a test outcome, a call excluded by its hygiene marks later on. Each view's rates,
 * samples, Wilson intervals and withheld cells are checked against values worked out by hand
 * (z = 1.959964); the period parameters and their bounds; the admin key; the profiles and their
 * audit rows; and the stored aggregates: the same figures as computed, fresh until the data of a
 * period changes, idempotent, one rebuild at a time.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { normalise, trailing } from "../src/marketIntel/Periods.js"
import { rate, wilson } from "../src/marketIntel/Stats.js"
import { admin, createTenant } from "./utils/AudioRequests.js"
import { call } from "./utils/PortalRequests.js"
import { testServerLayer } from "./utils/TestServer.js"

// ---------------------------------------------------------------------------------------------
// The data set

const icp = (label: string) => ({ label, description: null, company_size: null, region: null })

interface Tenant {
  readonly id: string
  readonly name: string
  readonly industry: string | null
  readonly test?: boolean
  readonly market?: Record<string, unknown>
  readonly lead?: Record<string, unknown>
}

const TENANTS: ReadonlyArray<Tenant> = [
  {
    id: "cli_alpha",
    name: "Alpha",
    industry: null,
    market: { industry: " SaaS ", icps: [icp("Mid-market")], currency: "USD" },
    lead: { lead_sources: [{ label: "Webinar", channel: "inbound" }] }
  },
  {
    id: "cli_beta",
    name: "Beta",
    industry: null,
    market: { industry: "saas", icps: [icp("Mid-Market"), icp("Enterprise")], currency: "USD" },
    lead: { lead_sources: [{ label: "Webinar", channel: "inbound" }, { label: "Referral", channel: "referral" }] }
  },
  { id: "cli_gamma", name: "Gamma", industry: "SaaS" },
  {
    id: "cli_phi",
    name: "Phi",
    industry: null,
    market: { industry: "SaaS", icps: [icp("Mid-market")], currency: "USD" },
    lead: { lead_sources: [{ label: "webinar", channel: "events" }] }
  },
  {
    id: "cli_delta",
    name: "Delta",
    industry: null,
    market: { industry: "Fintech", icps: [icp("Banks")], currency: "USD" },
    lead: { lead_sources: [{ label: "Referral", channel: "partner" }] }
  },
  { id: "cli_eps", name: "Epsilon", industry: "Finance", market: { industry: "Fintech", icps: [icp("Banks")], currency: "EUR" } },
  {
    id: "cli_test",
    name: "Testco",
    industry: null,
    test: true,
    market: { industry: "SaaS", icps: [icp("Mid-market")], currency: "USD" },
    lead: { lead_sources: [{ label: "Webinar", channel: "inbound" }] }
  }
]

interface Outcome {
  readonly outcome: "won" | "lost" | "no_decision" | "open"
  readonly value?: number
  readonly currency?: string
  readonly closedAt?: string
  readonly icp?: string
  readonly lead?: string
  readonly test?: boolean
}

interface Call {
  readonly id: string
  readonly tenant: string
  readonly at: string
  readonly score: number | null
  readonly failed?: boolean
  readonly closer?: string | null
  readonly outcome?: Outcome
}

const CALLS: ReadonlyArray<Call> = [
  // week 9 (2026-02-23 to 03-01)
  { id: "call_a0", tenant: "cli_alpha", at: "2026-02-24T09:00:00Z", score: 60, outcome: { outcome: "won", value: 500 } },
  { id: "call_a00", tenant: "cli_alpha", at: "2026-02-25T09:00:00Z", score: 40, outcome: { outcome: "lost" } },
  // week 10 (2026-03-02 to 03-08)
  { id: "call_a1", tenant: "cli_alpha", at: "2026-03-02T09:00:00Z", score: 80, outcome: { outcome: "won", value: 1000, currency: "EUR" } },
  { id: "call_a2", tenant: "cli_alpha", at: "2026-03-03T09:00:00Z", score: 70, outcome: { outcome: "won", value: 2000 } },
  { id: "call_a3", tenant: "cli_alpha", at: "2026-03-04T09:00:00Z", score: 60, outcome: { outcome: "lost" } },
  { id: "call_a4", tenant: "cli_alpha", at: "2026-03-05T09:00:00Z", score: 50 },
  { id: "call_b1", tenant: "cli_beta", at: "2026-03-02T10:00:00Z", score: 90, outcome: { outcome: "won", value: 500, icp: "Mid-Market", lead: "Webinar" } },
  { id: "call_b2", tenant: "cli_beta", at: "2026-03-03T10:00:00Z", score: 40, outcome: { outcome: "lost", icp: "Enterprise", lead: "Referral" } },
  { id: "call_b3", tenant: "cli_beta", at: "2026-03-04T10:00:00Z", score: 30 },
  { id: "call_b4", tenant: "cli_beta", at: "2026-03-05T10:00:00Z", score: null, failed: true },
  { id: "call_g1", tenant: "cli_gamma", at: "2026-03-04T11:00:00Z", score: 65, outcome: { outcome: "lost" } },
  // the last second of week 10, with a test outcome and no score
  { id: "call_g2", tenant: "cli_gamma", at: "2026-03-08T23:59:59Z", score: null, outcome: { outcome: "won", value: 300, test: true } },
  { id: "call_f1", tenant: "cli_phi", at: "2026-03-03T12:00:00Z", score: 75, outcome: { outcome: "won", value: 800, closedAt: "2026-03-01T00:00:00Z" } },
  { id: "call_f2", tenant: "cli_phi", at: "2026-03-06T12:00:00Z", score: 55 },
  { id: "call_d1", tenant: "cli_delta", at: "2026-03-03T13:00:00Z", score: 85, outcome: { outcome: "won" } },
  { id: "call_d2", tenant: "cli_delta", at: "2026-03-04T13:00:00Z", score: 45, outcome: { outcome: "lost", lead: "Podcast" } },
  { id: "call_e1", tenant: "cli_eps", at: "2026-03-05T14:00:00Z", score: 35, closer: null, outcome: { outcome: "won", value: 700, currency: "EUR" } },
  { id: "call_t1", tenant: "cli_test", at: "2026-03-03T15:00:00Z", score: 90, outcome: { outcome: "won", value: 100 } },
  { id: "call_t2", tenant: "cli_test", at: "2026-03-03T16:00:00Z", score: 80, outcome: { outcome: "won", value: 100 } },
  { id: "call_t3", tenant: "cli_test", at: "2026-03-03T17:00:00Z", score: 70, outcome: { outcome: "lost" } },
  // the first second of week 11
  { id: "call_g3", tenant: "cli_gamma", at: "2026-03-09T00:00:00Z", score: 55 }
]

const seedOnce = (() => {
  let done = false
  return Effect.gen(function* () {
    if (done) return
    done = true
    const sql = yield* SqlClient.SqlClient
    for (const t of TENANTS) {
      yield* sql`INSERT INTO tenants (client_id, company_name, industry, plan, is_test)
                 VALUES (${t.id}, ${t.name}, ${t.industry}, 'growth', ${t.test ?? false})`
      if (t.market !== undefined) {
        const market = { sub_industry: null, regions: [], average_deal_size: null, sales_cycle_days: null, competitors: [], time_zone: null, ...t.market }
        yield* sql`INSERT INTO market_profiles (client_id, profile) VALUES (${t.id}, ${JSON.stringify(market)}::jsonb)`
      }
      if (t.lead !== undefined) {
        const lead = { qualification_framework: "MEDDPICC", ideal_customer_notes: null, disqualifiers: [], ...t.lead }
        yield* sql`INSERT INTO lead_context_profiles (client_id, profile) VALUES (${t.id}, ${JSON.stringify(lead)}::jsonb)`
      }
    }
    for (const c of CALLS) {
      const done = new Date(Date.parse(c.at) + 300_000).toISOString()
      const status = c.failed === true ? "failed" : "completed"
      const result = c.failed === true ? null : JSON.stringify({ scorecard: { overall: c.score, dimensions: [] } })
      yield* sql`INSERT INTO calls (call_id, client_id, closer_email, status, format, blob_key, size_bytes, sha256,
                                    created_at, started_at, completed_at, duration_s, result, error_code)
                 VALUES (${c.id}, ${c.tenant}, ${c.closer === undefined ? "rep@example.test" : c.closer}, ${status}, 'mp3',
                         ${`${c.tenant}/${c.id}.mp3`}, 1, 'x', ${c.at}, ${c.at}, ${done}, 600, ${result}::jsonb,
                         ${c.failed === true ? "decode_failed" : null})`
      const o = c.outcome
      if (o !== undefined) {
        yield* sql`INSERT INTO outcome_truth (call_id, client_id, outcome, deal_value, currency, closed_at, is_test_data, lead_source, icp_label, recorded_by)
                   VALUES (${c.id}, ${c.tenant}, ${o.outcome}, ${o.value ?? null}, ${o.currency ?? null}, ${o.closedAt ?? null},
                           ${o.test ?? false}, ${o.lead ?? null}, ${o.icp ?? null}, 'usr_seed')`
      }
    }
  })
})()

// ---------------------------------------------------------------------------------------------
// Requests

const MI = "/v1/internal/admin/market-intel"

const get = (path: string, expected = 200) =>
  Effect.gen(function* () {
    yield* seedOnce
    const reply = yield* call("GET", `${MI}${path}`, { headers: admin })
    expect(reply.status, `${path}: ${JSON.stringify(reply.body).slice(0, 400)}`).toBe(expected)
    return reply.body
  })

const send = (method: "PUT" | "POST" | "DELETE", path: string, body?: unknown) =>
  Effect.gen(function* () {
    yield* seedOnce
    return yield* call(method, `${MI}${path}`, { headers: admin, ...(body === undefined ? {} : { body }) })
  })

const W10 = { period_type: "week", period_start: "2026-03-02", period_end: "2026-03-09", label: "2026-W10" }
const W09 = { period_type: "week", period_start: "2026-02-23", period_end: "2026-03-02", label: "2026-W09" }

/** A rate shown, with its count, sample, tenants and interval. */
const shownRate = (count: number, n: number, tenants: number, value: number, low: number, high: number) => ({
  value, count, n, tenants, interval: { low, high }, suppressed: null
})
const tooFew = (n: number, tenants: number, message: string) => ({
  value: null, count: null, n, tenants, interval: null, suppressed: { code: "min_sample", message }
})
const tooFewTenants = (tenants: number) => ({
  value: null, count: null, n: null, tenants, interval: null,
  suppressed: { code: "min_tenants", message: `fed by ${tenants} tenant${tenants === 1 ? "" : "s"}: at least 3 are needed` }
})
const withheldCell = (tenants: number) => ({
  tenants,
  suppressed: { code: "min_tenants", message: `fed by ${tenants} tenant${tenants === 1 ? "" : "s"}: at least 3 are needed` },
  calls: null,
  completed_calls: null,
  outcomes: null
})

/** What a figure says apart from when and from where it was read. */
const figures = (body: any) => {
  const { aggregates_built_at: _a, generated_at: _g, source: _s, ...rest } = body
  return rest
}

// ---------------------------------------------------------------------------------------------

describe("market intelligence arithmetic", () => {
  it("Wilson 95 % intervals, at the edges too", () => {
    expect(wilson(0, 10)).toEqual({ low: 0, high: 0.2775 })
    expect(wilson(10, 10)).toEqual({ low: 0.7225, high: 1 })
    expect(wilson(1, 2)).toEqual({ low: 0.0945, high: 0.9055 })
    expect(wilson(50, 100)).toEqual({ low: 0.4038, high: 0.5962 })
    expect(rate(0, 5, 3, "decided outcomes")).toEqual({ value: 0, count: 0, n: 5, tenants: 3, interval: { low: 0, high: 0.4345 }, suppressed: null })
  })

  it("ISO weeks across year ends; months and quarters; trailing periods", () => {
    const now = new Date("2026-11-24T12:00:00Z")
    expect(normalise("week", "2020-12-31", now).label).toBe("2020-W53")
    expect(normalise("week", "2021-01-03", now)).toMatchObject({ period_start: "2020-12-28", label: "2020-W53" })
    expect(normalise("week", "2021-01-04", now)).toMatchObject({ period_start: "2021-01-04", label: "2021-W01" })
    expect(normalise("week", "2024-12-30", now).label).toBe("2025-W01")
    expect(normalise("week", undefined, now)).toMatchObject({ period_start: "2026-11-23", period_end: "2026-11-30", label: "2026-W48" })
    expect(normalise("month", "2024-02-29T23:30:00-05:00", now)).toMatchObject({ period_start: "2024-03-01", label: "2024-03" })
    expect(trailing(normalise("quarter", "2026-02-01", now), 3).map((p) => p.label)).toEqual(["2025-Q3", "2025-Q4", "2026-Q1"])
    expect(trailing(normalise("month", "2026-01-31", now), 2).map((p) => [p.period_start, p.period_end])).toEqual([
      ["2025-12-01", "2026-01-01"],
      ["2026-01-01", "2026-02-01"]
    ])
  })
})

describe("market intelligence", () => {
  layer(testServerLayer(), { excludeTestServices: true })("on a known data set", (it) => {
    it.effect("needs the admin key: a tenant key is refused (403), no key is 401 naming the admin key", () =>
      Effect.gen(function* () {
        yield* seedOnce
        const tenant = yield* createTenant(0)
        for (const path of ["/overview", "/profiles", "/rebuild"]) {
          const method = path === "/rebuild" ? "POST" : "GET"
          const asTenant = yield* call(method, `${MI}${path}`, { headers: { "x-api-key": tenant.api_key }, body: method === "POST" ? {} : undefined })
          expect(asTenant.status).toBe(403)
          const none = yield* call(method, `${MI}${path}`, { body: method === "POST" ? {} : undefined })
          expect(none.status).toBe(401)
          expect(none.body.message).toBe("missing credentials: send the admin key (ADMIN_API_KEY) in the X-API-Key header")
          const unknown = yield* call(method, `${MI}${path}`, { headers: { "x-api-key": "csk_nobody" }, body: method === "POST" ? {} : undefined })
          expect(unknown.status).toBe(401)
        }
        // the admin operations too
        expect((yield* call("GET", "/v1/internal/admin/status", { headers: { "x-api-key": tenant.api_key } })).status).toBe(403)
        expect((yield* call("GET", "/v1/internal/admin/doctor")).status).toBe(401)
      }))

    it.effect("periods: any day names its period (ISO weeks from Monday, UTC); bad values and bounds are 422", () =>
      Effect.gen(function* () {
        expect((yield* get("/overview?period_start=2026-03-05")).period).toEqual(W10)
        expect((yield* get("/overview?period_start=2026-03-08T23:59:59Z")).period).toEqual(W10)
        expect((yield* get("/overview?period_start=2026-03-09")).period).toMatchObject({ period_start: "2026-03-09", label: "2026-W11" })
        // 2026 starts on a Thursday: it has 53 ISO weeks, the last ending on 2027-01-03
        expect((yield* get("/overview?period_start=2027-01-01")).period).toEqual({
          period_type: "week", period_start: "2026-12-28", period_end: "2027-01-04", label: "2026-W53"
        })
        expect((yield* get("/overview?period_type=month&period_start=2026-03-31")).period).toEqual({
          period_type: "month", period_start: "2026-03-01", period_end: "2026-04-01", label: "2026-03"
        })
        expect((yield* get("/overview?period_type=quarter&period_start=2026-05-17")).period).toEqual({
          period_type: "quarter", period_start: "2026-04-01", period_end: "2026-07-01", label: "2026-Q2"
        })
        expect((yield* get("/overview?period_type=day&period_start=2026-03-08")).period).toEqual({
          period_type: "day", period_start: "2026-03-08", period_end: "2026-03-09", label: "2026-03-08"
        })
        // absent or empty: the current period
        const today = new Date()
        const monday = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - ((today.getUTCDay() + 6) % 7)))
        expect((yield* get("/overview")).period.period_start).toBe(monday.toISOString().slice(0, 10))
        expect((yield* get("/overview?period_start=")).period.period_start).toBe(monday.toISOString().slice(0, 10))
        // the trailing periods, oldest first
        expect((yield* get("/truth-adoption?period_start=2026-03-04&periods=3")).periods.map((p: any) => p.label)).toEqual([
          "2026-W08", "2026-W09", "2026-W10"
        ])

        for (const [query, loc] of [
          ["period_start=2026-02-30", "period_start"],
          ["period_start=yesterday", "period_start"],
          ["period_start=2026-13-01", "period_start"],
          ["period_type=year", "period_type"],
          ["periods=0", "periods"],
          ["periods=27", "periods"],
          ["periods=two", "periods"],
          ["include_test_data=maybe", "include_test_data"]
        ] as const) {
          const reply = yield* call("GET", `${MI}/lead-sources?${query}`, { headers: admin })
          expect(reply.status, query).toBe(422)
          expect(reply.body.detail[0].loc, query).toEqual(["query", loc])
        }
        expect((yield* get("/lead-sources?periods=1")).periods).toHaveLength(1)
        expect((yield* get("/lead-sources?periods=26")).periods).toHaveLength(26)
      }))

    it.effect("overview: every rate with its count, n, tenants and Wilson interval; test data left out; a cell of 1 tenant withheld", () =>
      Effect.gen(function* () {
        const body = yield* get("/overview?period_start=2026-03-04")
        expect(body.source).toBe("computed")
        expect(body.aggregates_built_at).toBeNull()
        // 6 tenants (Testco is test data), 15 calls of which 14 completed, 13 scored (sum 780)
        expect(body.totals).toEqual({
          tenants: 6,
          suppressed: null,
          calls: 15,
          completed_calls: 14,
          average_score: { value: 60, n: 13, tenants: 6, suppressed: null },
          // won 6, lost 4: the test outcome of call_g2 is left out
          win_rate: shownRate(6, 10, 6, 0.6, 0.3127, 0.8318),
          outcome_coverage: shownRate(10, 14, 6, 0.7143, 0.4535, 0.8828),
          outcomes: { won: 6, lost: 4, no_decision: 0, open: 0 }
        })
        // week 9: Alpha alone, so nothing of it is shown but its tenant count
        expect(body.previous).toMatchObject({ period: W09, ...withheldCell(1) })
        expect(body.previous.win_rate).toEqual(tooFewTenants(1))
        expect(body.previous.average_score).toEqual({ value: null, n: null, tenants: 1, suppressed: tooFewTenants(1).suppressed })
        expect(body.industries).toBe(2)
        expect(body.tenants_with_profile).toBe(5)
        expect(body.tenants_without_profile).toBe(1)
      }))

    it.effect("industries and the ICP drill-down: labels filed trimmed and in lower case; cells of fewer than 3 tenants withheld", () =>
      Effect.gen(function* () {
        const body = yield* get("/industries?period_start=2026-03-02")
        expect(body.industries.map((i: any) => i.industry_label)).toEqual(["saas", "fintech"])
        const [saas, fintech] = body.industries
        // Alpha (" SaaS "), Beta ("saas"), Gamma (signup "SaaS"), Phi ("SaaS")
        expect(saas).toMatchObject({
          tenants: 4,
          suppressed: null,
          calls: 12,
          completed_calls: 11,
          average_score: { value: 61.5, n: 10, tenants: 4, suppressed: null },
          win_rate: shownRate(4, 7, 4, 0.5714, 0.2505, 0.8418),
          outcome_coverage: shownRate(7, 11, 4, 0.6364, 0.3538, 0.8483),
          outcomes: { won: 4, lost: 3, no_decision: 0, open: 0 }
        })
        // Delta and Epsilon only
        expect(fintech).toMatchObject(withheldCell(2))
        expect(fintech.win_rate).toEqual(tooFewTenants(2))
        expect(fintech.outcome_coverage).toEqual(tooFewTenants(2))
        // mid-market: Alpha (its only ICP), Beta's call_b1 (named with the outcome), Phi (its only ICP)
        expect(saas.icps.map((i: any) => i.icp_label)).toEqual(["mid-market", "enterprise", "unassigned"])
        expect(saas.icps[0]).toEqual({
          icp_label: "mid-market",
          tenants: 3,
          suppressed: null,
          calls: 7,
          completed_calls: 7,
          average_score: { value: 68.6, n: 7, tenants: 3, suppressed: null },
          win_rate: shownRate(4, 5, 3, 0.8, 0.3755, 0.9638),
          outcome_coverage: shownRate(5, 7, 3, 0.7143, 0.3589, 0.9178),
          outcomes: { won: 4, lost: 1, no_decision: 0, open: 0 }
        })
        expect(saas.icps[1]).toMatchObject({ icp_label: "enterprise", ...withheldCell(1) })
        expect(saas.icps[2]).toMatchObject({ icp_label: "unassigned", ...withheldCell(2) })

        // the drill-down over weeks 9 and 10; the path's labels are filed the same way
        const icpBody = yield* get("/industries/%20SaaS/icps/Mid-Market?period_start=2026-03-02&periods=2")
        expect(icpBody.industry_label).toBe("saas")
        expect(icpBody.icp_label).toBe("mid-market")
        expect(icpBody.periods).toEqual([W09, W10])
        expect(icpBody.window).toEqual({ from: "2026-02-23", to: "2026-03-09" })
        expect(icpBody.current).toEqual(saas.icps[0] && (({ icp_label: _, ...m }) => m)(saas.icps[0]))
        expect(icpBody.series[0]).toMatchObject({ period: W09, ...withheldCell(1) })
        expect(icpBody.series[1]).toMatchObject({ period: W10, tenants: 3, calls: 7 })
        expect(icpBody.trailing).toMatchObject({
          tenants: 3,
          calls: 9,
          average_score: { value: 64.4, n: 9, tenants: 3, suppressed: null },
          win_rate: shownRate(5, 7, 3, 0.7143, 0.3589, 0.9178),
          outcome_coverage: shownRate(7, 9, 3, 0.7778, 0.4526, 0.9368)
        })
        const { industry_label: _l, icps: _i, ...saasMetrics } = saas
        expect(icpBody.industry_baseline).toEqual(saasMetrics)

        // a pair no profile lists and no call is filed under
        const missing = yield* call("GET", `${MI}/industries/saas/icps/startups?period_start=2026-03-02`, { headers: admin })
        expect(missing.status).toBe(404)
        // a pair a profile lists, without calls in the window: zeros, not 404
        expect((yield* get("/industries/fintech/icps/banks?period_start=2025-01-01&periods=1")).trailing).toMatchObject({ tenants: 0, calls: 0 })
      }))

    it.effect("lead sources: from the outcomes and the lead-context profiles; min_sample and min_tenants apart; test data on request", () =>
      Effect.gen(function* () {
        const body = yield* get("/lead-sources?period_start=2026-03-02&periods=1")
        expect(body.include_test_data).toBe(false)
        expect(body.lead_sources.map((l: any) => l.lead_source)).toEqual(["webinar", "unknown", "podcast", "referral"])
        const [webinar, unknown, podcast, referral] = body.lead_sources
        // the channel the profiles give it most often: inbound (Alpha, Beta) over events (Phi)
        expect(webinar).toMatchObject({
          channel: "inbound",
          tenants: 3,
          calls: 7,
          win_rate: shownRate(4, 5, 3, 0.8, 0.3755, 0.9638),
          outcome_coverage: shownRate(5, 7, 3, 0.7143, 0.3589, 0.9178)
        })
        expect(webinar.series).toHaveLength(1)
        expect(webinar.series[0]).toMatchObject({ period: W10, calls: 7 })
        // Beta's calls without a lead source, Gamma's, and Epsilon's (no lead-context profile)
        expect(unknown).toMatchObject({ tenants: 3, suppressed: null, calls: 5, completed_calls: 4, channel: null })
        expect(unknown.average_score).toEqual({
          value: null, n: 3, tenants: 3, suppressed: { code: "min_sample", message: "3 scored calls: at least 5 are needed" }
        })
        // 2 decided outcomes, from Gamma and Epsilon: withheld for the tenants, n hidden
        expect(unknown.win_rate).toEqual(tooFewTenants(2))
        // 4 completed calls from 3 tenants: withheld for the sample, n shown
        expect(unknown.outcome_coverage).toEqual(tooFew(4, 3, "4 completed calls: at least 5 are needed"))
        // Delta's call_d2 names "Podcast"; Referral: Beta's call_b2 and Delta's only lead source
        expect(podcast).toMatchObject({ channel: null, ...withheldCell(1) })
        expect(referral).toMatchObject({ channel: "partner", ...withheldCell(2) })

        const withTest = yield* get("/lead-sources?period_start=2026-03-02&periods=1&include_test_data=true")
        expect(withTest.include_test_data).toBe(true)
        const webinarAll = withTest.lead_sources.find((l: any) => l.lead_source === "webinar")
        // Testco's three calls (won, won, lost) join
        expect(webinarAll).toMatchObject({ tenants: 4, calls: 10, win_rate: shownRate(6, 8, 4, 0.75, 0.4093, 0.9285) })
        // call_g2's test outcome counts now: 3 of 4 completed calls with an outcome
        const unknownAll = withTest.lead_sources.find((l: any) => l.lead_source === "unknown")
        expect(unknownAll.outcomes).toEqual({ won: 2, lost: 1, no_decision: 0, open: 0 })
        expect(unknownAll.outcome_coverage).toEqual(tooFew(4, 3, "4 completed calls: at least 5 are needed"))
      }))

    it.effect("outcome truth: counts, rates and deal values per currency, never added across currencies", () =>
      Effect.gen(function* () {
        const body = yield* get("/outcome-truth?period_start=2026-03-02&periods=1")
        expect(body.totals).toMatchObject({
          tenants: 6,
          calls: 15,
          win_rate: shownRate(6, 10, 6, 0.6, 0.3127, 0.8318),
          outcomes: { won: 6, lost: 4, no_decision: 0, open: 0 }
        })
        // EUR: Alpha's call_a1 and Epsilon's call_e1 (2 tenants); USD: call_a2 (the profile's currency), call_b1, call_f1
        expect(body.totals.deal_values).toEqual([
          {
            currency: "EUR",
            won_value: null,
            average_won_value: { value: null, n: null, tenants: 2, suppressed: tooFewTenants(2).suppressed }
          },
          {
            currency: "USD",
            won_value: 3300,
            average_won_value: {
              value: null, n: 3, tenants: 3, suppressed: { code: "min_sample", message: "3 won deals with a value: at least 5 are needed" }
            }
          }
        ])
        expect(body.series).toHaveLength(1)
        expect(body.series[0]).toMatchObject({ period: W10, calls: 15, completed_calls: 14 })
        expect(body.by_industry.map((r: any) => r.industry_label)).toEqual(["saas", "fintech"])
        expect(body.by_industry[0].deal_values).toEqual([
          {
            currency: "EUR",
            won_value: null,
            average_won_value: { value: null, n: null, tenants: 1, suppressed: tooFewTenants(1).suppressed }
          },
          {
            currency: "USD",
            won_value: 3300,
            average_won_value: {
              value: null, n: 3, tenants: 3, suppressed: { code: "min_sample", message: "3 won deals with a value: at least 5 are needed" }
            }
          }
        ])
      }))

    it.effect("segment truth gap: the score-implied win rate minus the actual one per segment, and the reliability table", () =>
      Effect.gen(function* () {
        const body = yield* get("/segment-truth-gap?period_start=2026-03-02&periods=2")
        // 12 decided, scored calls in weeks 9 and 10; predicted: the mean of score ÷ 100 (7.45 ÷ 12)
        expect(body.overall).toEqual({
          segment_type: "all",
          segment_label: "all",
          industry_label: null,
          tenants: 6,
          suppressed: null,
          predicted_win_rate: { value: 0.6208, n: 12, tenants: 6, suppressed: null },
          actual_win_rate: shownRate(7, 12, 6, 0.5833, 0.3195, 0.8067),
          gap: 0.0375
        })
        const shown = body.segments.filter((s: any) => s.gap !== null)
        expect(shown.map((s: any) => [s.segment_type, s.segment_label, s.industry_label, s.gap])).toEqual([
          ["industry", "saas", null, 0.0889],
          ["icp", "mid-market", "saas", -0.0357],
          ["lead_source", "webinar", null, -0.0357]
        ])
        expect(shown[0].predicted_win_rate).toEqual({ value: 0.6444, n: 9, tenants: 4, suppressed: null })
        expect(shown[0].actual_win_rate).toEqual(shownRate(5, 9, 4, 0.5556, 0.2667, 0.8112))
        // the withheld segments come last, with their reasons
        const fintech = body.segments.find((s: any) => s.segment_label === "fintech")
        expect(fintech).toMatchObject({ tenants: 2, suppressed: tooFewTenants(2).suppressed, gap: null })
        expect(body.segments.slice(3).every((s: any) => s.gap === null)).toBe(true)

        // buckets of 20 score points: only 60–80 has 5 decided calls from 3 tenants (a0, a2, a3, g1, f1)
        expect(body.reliability.map((b: any) => [b.score_from, b.score_to])).toEqual([[0, 20], [20, 40], [40, 60], [60, 80], [80, 100]])
        expect(body.reliability[0].observed).toEqual(tooFew(0, 0, "no decided calls"))
        expect(body.reliability[1].observed).toEqual(tooFewTenants(1))
        expect(body.reliability[2].observed).toEqual(tooFew(3, 3, "3 decided calls: at least 5 are needed"))
        expect(body.reliability[3]).toEqual({
          score_from: 60,
          score_to: 80,
          predicted: { value: 0.66, n: 5, tenants: 3, suppressed: null },
          observed: shownRate(3, 5, 3, 0.6, 0.2307, 0.8824)
        })
        expect(body.reliability[4].observed).toEqual(tooFew(3, 3, "3 decided calls: at least 5 are needed"))
      }))

    it.effect("truth adoption: the share of completed calls with an outcome, overall and per tenant (lowest first)", () =>
      Effect.gen(function* () {
        const body = yield* get("/truth-adoption?period_start=2026-03-02&periods=2")
        // weeks 9 and 10: 16 completed calls, 12 with an outcome that counts
        expect(body.adoption).toEqual(shownRate(12, 16, 6, 0.75, 0.505, 0.8982))
        expect(body.series.map((s: any) => s.adoption.value)).toEqual([null, 0.7143])
        expect(body.series[0].adoption).toEqual(tooFewTenants(1))
        expect(body.by_tenant.map((t: any) => [t.company_name, t.completed_calls, t.adoption.value, t.adoption.n])).toEqual([
          ["Alpha", 6, 0.8333, 6],
          ["Beta", 3, null, 3],
          ["Delta", 2, null, 2],
          ["Gamma", 2, null, 2],
          ["Phi", 2, null, 2],
          ["Epsilon", 1, null, 1]
        ])
        // a tenant's own rate: only the sample rule applies
        expect(body.by_tenant[0].adoption).toEqual(shownRate(5, 6, 1, 0.8333, 0.4365, 0.9699))
        expect(body.by_tenant[0].industry_label).toBe("saas")
        expect(body.by_tenant[3].adoption).toEqual(tooFew(2, 1, "2 completed calls: at least 5 are needed"))
      }))

    it.effect("truth backlog priority: the calls whose outcome narrows the widest intervals most", () =>
      Effect.gen(function* () {
        const body = yield* get("/truth-backlog-priority?period_start=2026-03-02&periods=1")
        // a4, b3, f2 without an outcome, and g2 whose only outcome is test data
        expect(body.backlog_total).toBe(4)
        expect(body.limit).toBe(50)
        expect(body.calls.map((c: any) => [c.call_id, c.priority])).toEqual([
          ["call_a4", 0.0982],
          ["call_f2", 0.0982],
          ["call_b3", 0.0257],
          ["call_g2", 0.0257]
        ])
        expect(body.calls[0]).toMatchObject({
          company_name: "Alpha",
          industry_label: "saas",
          icp_label: "mid-market",
          lead_source: "webinar",
          overall_score: 50,
          reason: "icp \"mid-market\" has 5 decided outcomes in the window: one more narrows its 95 % interval from 0.5882 to 0.552"
        })
        expect(body.calls[0].segments).toEqual([
          { segment_type: "industry", segment_label: "saas", decided: 7, interval_width: 0.5913, width_after: 0.5656 },
          { segment_type: "icp", segment_label: "mid-market", decided: 5, interval_width: 0.5882, width_after: 0.552 },
          { segment_type: "lead_source", segment_label: "webinar", decided: 5, interval_width: 0.5882, width_after: 0.552 }
        ])
        // unassigned ICP and unknown lead source feed no segment worth narrowing
        expect(body.calls[2].segments.map((s: any) => s.segment_label)).toEqual(["saas"])

        // with test data, g2 has its outcome and Testco's calls all have one
        const withTest = yield* get("/truth-backlog-priority?period_start=2026-03-02&periods=1&include_test_data=true")
        expect(withTest.backlog_total).toBe(3)
        expect(withTest.calls.map((c: any) => c.call_id)).toEqual(["call_a4", "call_f2", "call_b3"])
      }))

    it.effect("data hygiene: missing and contradictory fields; a call at 23:59:59 on Sunday is in that week; marks set and audited", () =>
      Effect.gen(function* () {
        const body = yield* get("/data-hygiene?period_start=2026-03-02&periods=1")
        expect(body.source).toBe("computed")
        // 14 completed calls of week 10, call_g2 (Sunday 23:59:59) included, call_g3 (Monday 00:00:00) not
        expect(body.totals).toEqual({
          calls_checked: 14,
          issue_rate: shownRate(8, 14, 6, 0.5714, 0.3259, 0.7862),
          marked: 0,
          excluded: 0
        })
        expect(body.issues_by_field).toEqual([
          { field: "industry", missing: 0, contradictory: 1 },
          { field: "icp", missing: 3, contradictory: 0 },
          { field: "lead_source", missing: 4, contradictory: 1 },
          { field: "deal_value", missing: 1, contradictory: 0 },
          { field: "currency", missing: 0, contradictory: 1 },
          { field: "outcome", missing: 0, contradictory: 1 },
          { field: "score", missing: 1, contradictory: 0 },
          { field: "closer", missing: 1, contradictory: 0 }
        ])
        expect(body.calls.map((c: any) => c.call_id)).toEqual(["call_g2", "call_e1", "call_d2", "call_g1", "call_b3", "call_d1", "call_f1", "call_a1"])
        const issues = (id: string) => body.calls.find((c: any) => c.call_id === id).issues
        expect(issues("call_g2").map((i: any) => `${i.field}:${i.kind}`)).toEqual(["icp:missing", "lead_source:missing", "score:missing"])
        expect(issues("call_e1")).toEqual([
          { field: "industry", kind: "contradictory", detail: "the market profile says \"fintech\", the signup \"finance\"" },
          { field: "lead_source", kind: "missing", detail: "no lead source: none was recorded with the outcome, and the lead-context profile lists none or several" },
          { field: "closer", kind: "missing", detail: "no closer e-mail" }
        ])
        expect(issues("call_d2")).toEqual([
          { field: "lead_source", kind: "contradictory", detail: "the outcome names the lead source \"podcast\", which the lead-context profile does not list" }
        ])
        expect(issues("call_f1")).toEqual([{ field: "outcome", kind: "contradictory", detail: "the deal closed before the call was made" }])
        expect(issues("call_a1")).toEqual([{ field: "currency", kind: "contradictory", detail: "the outcome is in EUR, the market profile in USD" }])

        // the boundary by days: Sunday holds call_g2, Monday call_g3
        expect((yield* get("/data-hygiene?period_type=day&period_start=2026-03-08&periods=1")).totals.calls_checked).toBe(1)
        const monday = yield* get("/data-hygiene?period_type=day&period_start=2026-03-09&periods=2")
        expect(monday.series.map((s: any) => [s.period.period_start, s.calls_checked])).toEqual([["2026-03-08", 1], ["2026-03-09", 1]])
        expect((yield* get("/data-hygiene?period_start=2026-03-09&periods=1")).calls.map((c: any) => c.call_id)).toEqual(["call_g3"])

        // hygiene marks: validated, kept whole, audited in the call's tenant's log
        const bad = yield* send("PUT", "/calls/call_a4/hygiene", { exclude: "yes", icp_label: "" })
        expect(bad.status).toBe(422)
        expect(bad.body.detail.map((d: any) => d.loc)).toEqual([["body", "exclude"], ["body", "icp_label"]])
        expect((yield* send("PUT", "/calls/call_nope/hygiene", { note: "x" })).status).toBe(404)
        const marked = yield* send("PUT", "/calls/call_a4/hygiene", { note: "asked the rep", reviewer: "kim" })
        expect(marked.status).toBe(200)
        expect(marked.body).toMatchObject({
          call_id: "call_a4",
          client_id: "cli_alpha",
          marks: { note: "asked the rep", reviewer: "kim" },
          excluded_from_aggregates: false
        })
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ actor: string; actor_type: string; target_id: string; metadata: any }>`
          SELECT actor, actor_type, target_id, metadata FROM audit_logs WHERE client_id = 'cli_alpha' AND action = 'call.hygiene_marked'`
        expect(rows).toEqual([{ actor: "staff:admin", actor_type: "staff", target_id: "call_a4", metadata: { keys: ["note", "reviewer"], excluded: false } }])
        const after = yield* get("/data-hygiene?period_start=2026-03-02&periods=1")
        expect(after.totals).toMatchObject({ calls_checked: 14, marked: 1, excluded: 0 })
        expect(after.calls.find((c: any) => c.call_id === "call_a4")).toMatchObject({ issues: [], hygiene: { marks: { note: "asked the rep" } } })
        // a mark without `exclude` changes no figure
        expect((yield* get("/overview?period_start=2026-03-02")).totals.calls).toBe(15)
      }))

    it.effect("profiles: every tenant's, read, saved and deleted by staff, each change audited", () =>
      Effect.gen(function* () {
        const list = (yield* get("/profiles")).profiles
        const fixture = list.filter((p: any) => TENANTS.some((t) => t.id === p.client_id))
        expect(fixture.map((p: any) => p.company_name)).toEqual(["Alpha", "Beta", "Delta", "Epsilon", "Gamma", "Phi", "Testco"])
        expect(fixture.find((p: any) => p.client_id === "cli_gamma")).toMatchObject({
          industry: null, industry_label: "saas", icps: [], lead_sources: [], currency: null, source: null, updated_at: null
        })
        expect(yield* get("/profiles/cli_beta")).toMatchObject({
          industry: "saas",
          industry_label: "saas",
          icps: [icp("Mid-Market"), icp("Enterprise")],
          lead_sources: [{ label: "Webinar", channel: "inbound" }, { label: "Referral", channel: "referral" }],
          currency: "USD",
          source: "portal",
          is_test: false
        })
        expect((yield* send("PUT", "/profiles/cli_nobody", {})).status).toBe(404)

        // a tenant of its own, so the figures above stay as they are
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, industry, plan) VALUES ('cli_zeta', 'Zeta', 'Retail', 'trial')`
        const bad = yield* send("PUT", "/profiles/cli_zeta", { industry: 7, icps: [{ label: "" }] })
        expect(bad.status).toBe(422)
        expect(bad.body.detail.map((d: any) => d.loc)).toEqual([["body", "industry"], ["body", "icps", 0, "label"]])
        const saved = yield* send("PUT", "/profiles/cli_zeta", {
          industry: "E-commerce",
          icps: [{ label: "Shops", region: "EU" }],
          average_deal_size: 1200,
          lead_sources: [{ label: "Ads", channel: "paid" }],
          tier: "gold"
        })
        expect(saved.status).toBe(200)
        expect(saved.body).toMatchObject({
          client_id: "cli_zeta",
          company_name: "Zeta",
          industry: "E-commerce",
          industry_label: "e-commerce",
          icps: [{ label: "Shops", description: null, company_size: null, region: "EU" }],
          average_deal_size: 1200,
          currency: "USD",
          lead_sources: [{ label: "Ads", channel: "paid" }],
          extra: { tier: "gold" },
          source: "admin"
        })
        expect(yield* get("/profiles/cli_zeta")).toEqual(saved.body)
        // the portal reads what staff saved
        const market = yield* sql<{ profile: any }>`SELECT profile FROM market_profiles WHERE client_id = 'cli_zeta'`
        expect(market[0]!.profile).toMatchObject({ industry: "E-commerce", sub_industry: null, regions: [], extra: { tier: "gold" } })

        const deleted = yield* send("DELETE", "/profiles/cli_zeta")
        expect(deleted.body).toEqual({ client_id: "cli_zeta", deleted: true })
        expect((yield* send("DELETE", "/profiles/cli_zeta")).body).toEqual({ client_id: "cli_zeta", deleted: false })
        expect(yield* get("/profiles/cli_zeta")).toMatchObject({ industry: null, industry_label: "retail", source: null, updated_at: null })
        // the lead sources live in the lead-context profile: deleting the market profile keeps them
        expect((yield* get("/profiles/cli_zeta")).lead_sources).toEqual([{ label: "Ads", channel: "paid" }])

        const audit = yield* sql<{ action: string; actor: string; actor_type: string; metadata: any }>`
          SELECT action, actor, actor_type, metadata FROM audit_logs WHERE client_id = 'cli_zeta' ORDER BY at, log_id`
        expect(audit).toEqual([
          {
            action: "market_profile.saved",
            actor: "staff:admin",
            actor_type: "staff",
            metadata: {
              fields: ["industry", "icps", "average_deal_size", "lead_sources", "tier"],
              via: "market_intel",
              lead_sources_replaced: true
            }
          },
          { action: "market_profile.deleted", actor: "staff:admin", actor_type: "staff", metadata: { via: "market_intel" } }
        ])
      }))

    it.effect("stored aggregates: the same figures as computed, fresh until a period's data changes; idempotent; one rebuild at a time", () =>
      Effect.gen(function* () {
        const reads = [
          "/overview?period_start=2026-03-02",
          "/industries?period_start=2026-03-02",
          "/industries/saas/icps/mid-market?period_start=2026-03-02&periods=3",
          "/lead-sources?period_start=2026-03-02&periods=3&include_test_data=true",
          "/outcome-truth?period_start=2026-03-02&periods=3",
          "/segment-truth-gap?period_start=2026-03-02&periods=3",
          "/truth-adoption?period_start=2026-03-02&periods=3",
          "/truth-backlog-priority?period_start=2026-03-02&periods=3",
          "/data-hygiene?period_start=2026-03-02&periods=3",
          "/data-hygiene?period_type=month&period_start=2026-03-02&periods=3",
          "/overview?period_type=month&period_start=2026-03-02"
        ]
        const computed: Array<unknown> = []
        for (const path of reads) {
          const body = yield* get(path)
          expect(body.source, path).toBe("computed")
          computed.push(figures(body))
        }

        const rebuilt = yield* send("POST", "/rebuild", { period_types: ["week", "month"], periods: 4, period_start: "2026-03-10" })
        expect(rebuilt.status).toBe(200)
        expect(rebuilt.body).toMatchObject({
          requested: { period_types: ["week", "month"], periods: 4, period_start: "2026-03-10" },
          period_types: ["week", "month"],
          periods_rebuilt: 8
        })
        expect(rebuilt.body.rebuilt.map((r: any) => [r.period_type, r.from, r.to, r.periods])).toEqual([
          ["week", "2026-02-16", "2026-03-16", 4],
          ["month", "2025-12-01", "2026-04-01", 4]
        ])
        expect(rebuilt.body.duration_ms).toBeGreaterThanOrEqual(0)
        expect(Date.parse(rebuilt.body.completed_at)).toBeGreaterThanOrEqual(Date.parse(rebuilt.body.started_at))

        for (const [i, path] of reads.entries()) {
          const body = yield* get(path)
          expect(body.source, path).toBe("stored")
          expect(body.aggregates_built_at, path).not.toBeNull()
          expect(figures(body), path).toEqual(computed[i])
        }

        // idempotent: the same rows again
        const again = yield* send("POST", "/rebuild", { period_types: ["week", "month"], periods: 4, period_start: "2026-03-10" })
        expect(again.body.rows_written).toBe(rebuilt.body.rows_written)
        expect(again.body.rebuilt.map((r: any) => r.rows)).toEqual(rebuilt.body.rebuilt.map((r: any) => r.rows))
        for (const [i, path] of reads.entries()) expect(figures(yield* get(path)), path).toEqual(computed[i])

        // excluding a call of week 10 makes that week (and March) stale: computed again, with the call left out
        expect((yield* send("PUT", "/calls/call_a1/hygiene", { exclude: true })).status).toBe(200)
        const stale = yield* get("/overview?period_start=2026-03-02")
        expect(stale.source).toBe("mixed") // week 9 still stored
        expect(stale.totals).toMatchObject({ calls: 14, completed_calls: 13, outcomes: { won: 5, lost: 4, no_decision: 0, open: 0 } })
        expect(stale.totals.win_rate).toEqual(shownRate(5, 9, 6, 0.5556, 0.2667, 0.8112))
        expect((yield* get("/overview?period_start=2026-02-23")).source).toBe("stored")
        expect((yield* get("/overview?period_type=month&period_start=2026-03-02")).source).toBe("mixed")
        // a profile change may refile any call: every stored period is stale
        yield* (yield* SqlClient.SqlClient)`UPDATE lead_context_profiles SET updated_at = now() WHERE client_id = 'cli_delta'`
        expect((yield* get("/overview?period_start=2026-02-23")).source).toBe("computed")

        const fresh = yield* send("POST", "/rebuild", { period_types: ["week"], periods: 4, period_start: "2026-03-10" })
        expect(fresh.status).toBe(200)
        // the stale months were forgotten (read computed until rebuilt), with the changes they gathered
        const left = yield* (yield* SqlClient.SqlClient)<{ type: string; n: number }>`
          SELECT period_type AS type, count(*)::int AS n FROM market_intel_builds GROUP BY 1
          UNION ALL SELECT 'changes', count(*)::int FROM market_intel_changes`
        expect(left).toEqual(expect.arrayContaining([{ type: "week", n: 4 }, { type: "changes", n: 0 }]))
        expect(left.find((r) => r.type === "month")).toBeUndefined()
        expect((yield* get("/overview?period_type=month&period_start=2026-03-02")).source).toBe("computed")
        const stored = yield* get("/overview?period_start=2026-03-02")
        expect(stored.source).toBe("stored")
        expect(figures(stored)).toEqual(figures(stale))
        // the hygiene view lists the excluded call with its mark
        const hygiene = yield* get("/data-hygiene?period_start=2026-03-02&periods=1")
        expect(hygiene.totals).toMatchObject({ marked: 2, excluded: 1 })

        // one at a time: while another process holds the rebuild, 409; a holder older than an hour is taken over
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE market_intel_rebuild_lock SET holder = 'rbd_other', running_since = now() - interval '5 minutes'`
        const busy = yield* send("POST", "/rebuild", { period_types: ["day"], periods: 1 })
        expect(busy.status).toBe(409)
        expect(busy.body.message).toMatch(/^a rebuild is running since \d{4}-\d{2}-\d{2}T.*: one at a time$/)
        yield* sql`UPDATE market_intel_rebuild_lock SET running_since = now() - interval '2 hours'`
        expect((yield* send("POST", "/rebuild", { period_types: ["day"], periods: 1 })).status).toBe(200)
        const lock = yield* sql<{ holder: string | null }>`SELECT holder FROM market_intel_rebuild_lock`
        expect(lock[0]!.holder).toBeNull()
        // two at once: both answer, at most one rebuilds at a time
        const both = yield* Effect.all([send("POST", "/rebuild", { periods: 2 }), send("POST", "/rebuild", { periods: 2 })], { concurrency: 2 })
        expect(both.map((r) => r.status).sort()).toEqual(expect.arrayContaining([200]))
        for (const r of both) expect([200, 409]).toContain(r.status)

        // the body is checked
        const badBody = yield* send("POST", "/rebuild", { period_types: ["year"], periods: 27, since: "x" })
        expect(badBody.status).toBe(422)
        expect(badBody.body.detail).toEqual([
          { loc: ["body", "since"], msg: "is unexpected, expected: \"period_types\" | \"periods\" | \"period_start\"", type: "extra_forbidden" },
          { loc: ["body", "period_types", 0], msg: "Expected \"day\" | \"week\" | \"month\" | \"quarter\", actual \"year\"", type: "value_error" },
          { loc: ["body", "periods"], msg: "Expected a number between 1 and 26, actual 27", type: "value_error" }
        ])
      }))

    it.effect("data hygiene from the stored aggregates: the computed figures; a mark, an outcome, a closer's e-mail make their period computed again", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const path = "/data-hygiene?period_start=2026-03-09&periods=3" // weeks 9, 10 and 11
        const rebuild = Effect.gen(function* () {
          const reply = yield* send("POST", "/rebuild", { period_types: ["week"], periods: 4, period_start: "2026-03-10" })
          expect(reply.status).toBe(200)
          const body = yield* get(path)
          expect(body.source).toBe("stored")
          expect(body.aggregates_built_at).not.toBeNull()
          return body
        })
        // every period computed: a profile change makes every stored period stale
        const computed = Effect.gen(function* () {
          yield* sql`UPDATE lead_context_profiles SET updated_at = now() WHERE client_id = 'cli_delta'`
          const body = yield* get(path)
          expect(body.source).toBe("computed")
          expect(body.aggregates_built_at).toBeNull()
          return body
        })
        const byField = (body: any, field: string) => body.issues_by_field.find((f: any) => f.field === field)
        // each week's calls checked, and with an issue (withheld in a week of fewer than 3 tenants)
        const checkedOf = (body: any) => body.series.map((s: any) => [s.period.period_start, s.calls_checked, s.issue_rate.count])

        // stored: the figures computed, number for number (totals, series, list)
        const stored = yield* rebuild
        const fromCalls = yield* computed
        expect(figures(stored)).toEqual(figures(fromCalls))
        expect(checkedOf(stored)).toEqual([["2026-02-23", 2, null], ["2026-03-02", 14, 8], ["2026-03-09", 1, null]])
        expect(stored.totals).toMatchObject({ calls_checked: 17, marked: 2, excluded: 1 })

        // a hygiene mark on a call of week 9: that week computed again, weeks 10 and 11 still stored
        yield* rebuild
        expect((yield* send("PUT", "/calls/call_a0/hygiene", { note: "looked at" })).status).toBe(200)
        const marked = yield* get(path)
        expect(marked.source).toBe("mixed")
        expect(marked.totals).toMatchObject({ calls_checked: 17, marked: 3, excluded: 1 })
        expect(marked.calls.find((c: any) => c.call_id === "call_a0")).toMatchObject({ issues: [], hygiene: { marks: { note: "looked at" } } })
        expect(figures(marked)).toEqual(figures(yield* computed))

        // an outcome recorded for a call of week 11 (won, without a deal value): week 11 computed again
        yield* rebuild
        yield* sql`INSERT INTO outcome_truth (call_id, client_id, outcome, recorded_by) VALUES ('call_g3', 'cli_gamma', 'won', 'usr_seed')`
        const outcome = yield* get(path)
        expect(outcome.source).toBe("mixed")
        expect(byField(outcome, "deal_value")).toEqual({ field: "deal_value", missing: byField(stored, "deal_value").missing + 1, contradictory: 0 })
        expect(figures(outcome)).toEqual(figures(yield* computed))

        // a call's closer e-mail cleared (no operation changes it: directly in SQL): week 10 computed again
        yield* rebuild
        yield* sql`UPDATE calls SET closer_email = NULL WHERE call_id = 'call_a4'`
        const closer = yield* get(path)
        expect(closer.source).toBe("mixed")
        expect(byField(closer, "closer")).toEqual({ field: "closer", missing: byField(stored, "closer").missing + 1, contradictory: 0 })
        expect(checkedOf(closer)).toEqual([["2026-02-23", 2, null], ["2026-03-02", 14, 9], ["2026-03-09", 1, null]])
        expect(closer.calls.find((c: any) => c.call_id === "call_a4").issues).toEqual([{ field: "closer", kind: "missing", detail: "no closer e-mail" }])
        expect(figures(closer)).toEqual(figures(yield* computed))
        // and stored again, the same
        expect(figures(yield* rebuild)).toEqual(figures(closer))
        yield* sql`UPDATE calls SET closer_email = 'rep@example.test' WHERE call_id = 'call_a4'`
      }))

    it.effect("data hygiene's list: the newest 100 calls with an issue across the window's periods, read newest periods first", () =>
      Effect.gen(function* () {
        yield* seedOnce
        const sql = yield* SqlClient.SqlClient
        // a tenant of its own, in four weeks of 2025 no other test reads: 130 calls, every one with
        // an issue (no closer; no ICP or lead source listed); 60, 30, 30 and 10 calls in the weeks
        // of June 2, 9, 16 and 23, two of them at the same instant in each week
        yield* sql`INSERT INTO tenants (client_id, company_name, industry, plan) VALUES ('cli_many', 'Many Co', 'software', 'growth')`
        const weeks: Array<[string, number]> = [["2025-06-02", 60], ["2025-06-09", 30], ["2025-06-16", 30], ["2025-06-23", 10]]
        const seeded: Array<{ id: string; at: string }> = []
        for (const [monday, n] of weeks) {
          for (let i = 0; i < n; i++) {
            const at = new Date(Date.parse(`${monday}T00:00:00Z`) + Math.max(i, 1) * 3_600_000).toISOString()
            seeded.push({ id: `call_many_${monday.slice(5)}_${String(i).padStart(2, "0")}`, at })
          }
        }
        for (const c of seeded) {
          yield* sql`INSERT INTO calls (call_id, client_id, status, format, blob_key, size_bytes, sha256, created_at, started_at, completed_at, duration_s, result)
                     VALUES (${c.id}, 'cli_many', 'completed', 'mp3', 'x', 1, 'x', ${c.at}, ${c.at}, ${c.at}, 600,
                             ${JSON.stringify({ scorecard: { overall: 60, dimensions: [] } })}::jsonb)`
        }
        const newest = (from: string) =>
          seeded.filter((c) => c.at >= from)
            .sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? 1 : -1))
            .slice(0, 100).map((c) => c.id)
        // four weeks, read as the last (10 calls), the two before (60), the first (the newest 30 of its 60)
        const four = yield* get("/data-hygiene?period_start=2025-06-23&periods=4")
        expect(four.totals.calls_checked).toBe(130)
        expect(four.calls.map((c: any) => c.call_id)).toEqual(newest("2025-06-02"))
        expect(four.calls.at(-1).call_id).toBe("call_many_06-02_30")
        expect(four.calls.every((c: any) => c.issues.some((i: any) => i.field === "closer"))).toBe(true)
        // two weeks: fewer than 100 in all, every one listed
        const two = yield* get("/data-hygiene?period_start=2025-06-23&periods=2")
        expect(two.calls.map((c: any) => c.call_id)).toEqual(newest("2025-06-16"))
        expect(two.calls).toHaveLength(40)
        // by months, one period: the same 100
        expect((yield* get("/data-hygiene?period_type=month&period_start=2025-06-01&periods=1")).calls.map((c: any) => c.call_id))
          .toEqual(newest("2025-06-02"))
        yield* sql`DELETE FROM calls WHERE client_id = 'cli_many'`
        yield* sql`DELETE FROM tenants WHERE client_id = 'cli_many'`
      }))

    it.effect("renewal-expansion radar: usage trend, activation, value and the signals they raise", () =>
      Effect.gen(function* () {
        yield* seedOnce
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES ('cli_radar', 'Radar Co', 'trial')`
        const now = new Date()
        const monthStart = (k: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1, 12))
        // last month 2 calls, the month before 5: usage down; this month 9 of 10 ingests: near the limit
        const seeds: Array<[Date, number, string | null]> = [
          ...Array.from({ length: 5 }, (_, i) => [new Date(monthStart(-2).getTime() + i * 3_600_000), 60, null] as [Date, number, string | null]),
          ...Array.from({ length: 2 }, (_, i) => [new Date(monthStart(-1).getTime() + i * 3_600_000), 70, null] as [Date, number, string | null])
        ]
        for (const [i, [at, score]] of seeds.entries()) {
          yield* sql`INSERT INTO calls (call_id, client_id, status, format, blob_key, size_bytes, sha256, created_at, started_at, completed_at, duration_s, result)
                     VALUES (${`call_radar_${i}`}, 'cli_radar', 'completed', 'mp3', 'x', 1, 'x', ${at.toISOString()}, ${at.toISOString()},
                             ${at.toISOString()}, 1800, ${JSON.stringify({ scorecard: { overall: score } })}::jsonb)`
        }
        const thisMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)
        for (let i = 0; i < 9; i++) {
          const at = new Date(thisMonth + ((now.getTime() - thisMonth) * (i + 1)) / 11).toISOString()
          yield* sql`INSERT INTO calls (call_id, client_id, status, format, blob_key, size_bytes, sha256, created_at, started_at, completed_at, duration_s, result)
                     VALUES (${`call_radar_now_${i}`}, 'cli_radar', 'completed', 'mp3', 'x', 1, 'x', ${at}, ${at}, ${at}, 1800,
                             ${JSON.stringify({ scorecard: { overall: 80 } })}::jsonb)`
        }
        const body = yield* get("/clients/cli_radar/renewal-expansion-radar")
        expect(body.client_id).toBe("cli_radar")
        expect(body.plan).toBe("trial")
        expect(body.period.period_type).toBe("month")
        expect(body.usage_trend.months).toHaveLength(6)
        expect(body.usage_trend.months.slice(-3).map((m: any) => [m.ingests_used, m.ingests_included])).toEqual([[5, 10], [2, 10], [9, 10]])
        expect(body.usage_trend.direction).toBe("down")
        expect(body.activation).toEqual({ activation_pct: 13, steps_done: 1, steps_total: 8, next_step: "profile_saved" })
        expect(body.value.calls_analysed).toBe(16)
        expect(body.value.hours_analysed).toBe(8)
        // the tenant's own figures: the sample rule only
        expect(body.value.average_score).toEqual({ value: 72.5, n: 16, tenants: 1, suppressed: null })
        expect(body.value.win_rate).toEqual(tooFew(0, 0, "no decided outcomes"))
        expect(body.signals.map((s: any) => `${s.kind}:${s.code}:${s.severity}`)).toEqual([
          "risk:usage_declining:warning",
          "risk:no_credits:critical",
          "risk:low_activation:warning",
          "risk:no_outcome_truth:warning",
          "expansion:near_ingest_limit:info"
        ])
        expect(body.signals[0].message).toBe("2 calls analysed last month against 5 the month before")
        expect(body.renewal_risk).toBe("high")
        expect(body.expansion_potential).toBe("medium")
        expect((yield* call("GET", `${MI}/clients/cli_nobody/renewal-expansion-radar`, { headers: admin })).status).toBe(404)
      }))
  })
})
