/**
 * The workspace's read-only views (spec 4.8): `calls/{call_id}` and `team-health`, end to end on
 * the in-process server with its analysis workers, on PGlite or on PostgreSQL with
 * TEST_DATABASE_URL. Checked: the call view is the body of `GET /v1/teams/calls/{call_id}` (one
 * function), another tenant's call and an unknown one are 404, no session is 401; team-health's
 * figures per closer and for the team from seeded calls (scores, change, talk ratio, weakest
 * dimension, health), another tenant's calls left out, null (200) when `assistant.enabled` is
 * false; deal-intelligence's deals from seeded calls and outcome truth (which calls are open
 * deals, stage, value, risk, signals, next step, order), another tenant's deals left out, null
 * when `assistant.enabled` is false. The meeting-prep brief is checked in workspace-meeting-prep.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { get, setFlags, settle, upload } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { call, tenantWithUser } from "./utils/PortalRequests.js"
import { startSmtpServer } from "./utils/SmtpServer.js"
import { Smtp } from "./utils/SmtpServerLayer.js"
import { testServerLayer } from "./utils/TestServer.js"
import { seedCloser, seedWeekCall } from "./utils/SeedCalls.js"

const server = Layer.unwrapScoped(Effect.gen(function* () {
  const smtp = yield* startSmtpServer
  return Layer.mergeAll(
    testServerLayer({ smtpUrl: Option.some(Redacted.make(smtp.url)), signInLimitPerAddress: 1000 }, { workers: true }),
    Layer.succeed(Smtp, smtp)
  )
}))

let seq = 0

/**
 * A completed call of the tenant, completed on the Tuesday of the week `weeksAgo` Monday weeks
 * ago (UTC), with that overall score, dimension scores and rep talk ratio.
 */
const seedCall = seedWeekCall

/**
 * A completed call of the tenant `daysAgo` days ago with an analysis carrying these objections and
 * next steps (and a transcript unless `transcript` is false), and its outcome truth when given.
 */
const seedDeal = (clientId: string, options: {
  readonly daysAgo: number
  readonly overall?: number
  readonly objections?: ReadonlyArray<readonly [string, string]>
  readonly nextSteps?: ReadonlyArray<readonly [string, string | null]>
  readonly transcript?: boolean
  readonly outcome?: { readonly outcome: string; readonly stage?: string; readonly value?: number; readonly currency?: string }
}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_deal_${Date.now()}_${seq++}`
    const result = JSON.stringify({
      scorecard: { overall: options.overall ?? null, dimensions: [] },
      ...(options.transcript === false ? {} : { transcript: [] }),
      objections: (options.objections ?? []).map(([kind, response], i) => ({ kind, at: i, quote: `${kind} ${i}`, response, response_pause_s: null })),
      next_steps: (options.nextSteps ?? []).map(([quote, due], i) => ({ at: 100 + i, quote, owner: null, due }))
    })
    yield* sql`
      INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256,
                         created_at, completed_at, result)
      VALUES (${callId}, ${clientId}, ${`ext-${callId}`}, 'ada@acme.test', 'completed', 'wav', ${`blob/${callId}`}, 1, 'x',
              now() - make_interval(days => ${options.daysAgo}) - interval '1 hour', now() - make_interval(days => ${options.daysAgo}),
              ${result}::jsonb)`
    const o = options.outcome
    if (o !== undefined) {
      yield* sql`INSERT INTO outcome_truth (call_id, client_id, outcome, stage, deal_value, currency)
                 VALUES (${callId}, ${clientId}, ${o.outcome}, ${o.stage ?? null}, ${o.value ?? null}, ${o.currency ?? null})`
    }
    return callId
  }).pipe(Effect.orDie)

/** Monday 00:00 UTC `weeksAgo` weeks before this one, as ISO-8601. */
const mondayOf = (weeksAgo: number) => {
  const now = new Date()
  const day = (now.getUTCDay() + 6) % 7
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day - 7 * weeksAgo)).toISOString()
}

describe("workspace views: call details, team health and deal intelligence", () => {
  layer(server, { excludeTestServices: true, timeout: 120_000 })("on the server with workers", (it) => {
    it.effect("calls/{call_id} is the body of GET /v1/teams/calls/{call_id}; another tenant's call is 404", () =>
      Effect.gen(function* () {
        const acme = yield* tenantWithUser(3)
        const other = yield* tenantWithUser(3)
        const up = yield* upload(acme.apiKey, fixture("renewal-stereo.mp3"), { externalCallId: "crm-42", closerEmail: "ada@acme.test" })
        expect(up.status, JSON.stringify(up.body)).toBe(202)
        const callId = up.body.call_id as string
        expect((yield* settle(acme.apiKey, callId)).status).toBe("completed")

        const viaWorkspace = yield* call("GET", `/v1/workspace/calls/${callId}`, { session: acme.session })
        const viaApi = yield* get(acme.apiKey, `/v1/teams/calls/${callId}`)
        expect(viaWorkspace.status).toBe(200)
        expect(viaWorkspace.body).toEqual(viaApi.body)
        expect(viaWorkspace.body).toMatchObject({
          call_id: callId,
          external_call_id: "crm-42",
          closer_email: "ada@acme.test",
          status: "completed",
          error: null
        })
        expect(viaWorkspace.body.scorecard.dimensions.length).toBeGreaterThan(0)
        expect(viaWorkspace.body.speaker_turns.length).toBeGreaterThan(0)
        expect(viaWorkspace.body.metrics).not.toBeNull()

        const foreign = yield* call("GET", `/v1/workspace/calls/${callId}`, { session: other.session })
        expect(foreign.status).toBe(404)
        expect(foreign.body).toEqual({ _tag: "NotFound", message: `no call ${callId}` })
        expect((yield* call("GET", "/v1/workspace/calls/call_nope", { session: acme.session })).status).toBe(404)
        expect((yield* call("GET", `/v1/workspace/calls/${callId}`)).status).toBe(401)
      }))

    it.effect("team-health: per closer activity, scores, change, talk ratio, weakest dimension and health; the team; tenant isolation", () =>
      Effect.gen(function* () {
        const acme = yield* tenantWithUser(0)
        const other = yield* tenantWithUser(0)
        const adaId = yield* seedCloser(acme.clientId, "Ada@acme.test", "Ada Archer")
        const boId = yield* seedCloser(acme.clientId, "bo@acme.test", "Bo Baker")
        const cyId = yield* seedCloser(acme.clientId, "cy@acme.test", "Cy Cole")
        yield* seedCloser(acme.clientId, "rex@acme.test", "Rex Removed", "removed")
        // Ada: last 4 weeks 60 and 70, the 4 before 80: -15 points, at risk
        yield* seedCall(acme.clientId, { closerEmail: "ada@acme.test", weeksAgo: 0, overall: 60, dims: { discovery: 40, listening: 80 }, talk: 0.5 })
        yield* seedCall(acme.clientId, { closerEmail: "ADA@acme.test", weeksAgo: 1, overall: 70, dims: { discovery: 50 }, talk: 0.7 })
        yield* seedCall(acme.clientId, { closerEmail: "ada@acme.test", weeksAgo: 5, overall: 80, dims: { listening: 10 } })
        // outside the 8 weeks
        yield* seedCall(acme.clientId, { closerEmail: "ada@acme.test", weeksAgo: 9, overall: 10, talk: 0.9 })
        // Bo: 90 now, 80 six weeks ago: +10, healthy
        yield* seedCall(acme.clientId, { closerEmail: "bo@acme.test", weeksAgo: 0, overall: 90, dims: { next_steps: 85, listening: 95 } })
        yield* seedCall(acme.clientId, { closerEmail: "bo@acme.test", weeksAgo: 6, overall: 80 })
        // not the team's: a removed closer, and another tenant's call of Ada's address
        yield* seedCall(acme.clientId, { closerEmail: "rex@acme.test", weeksAgo: 0, overall: 5, talk: 0.1 })
        yield* seedCloser(other.clientId, "ada@acme.test", "Ada Elsewhere")
        yield* seedCall(other.clientId, { closerEmail: "ada@acme.test", weeksAgo: 0, overall: 1, talk: 0.99 })

        const reply = yield* call("GET", "/v1/workspace/team-health", { session: acme.session })
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        const h = reply.body
        expect(h.client_id).toBe(acme.clientId)
        expect(h.period_start).toBe(mondayOf(7))
        expect(h.period_end).toBe(h.generated_at)
        expect(h.team).toEqual({ closers: 3, calls_analysed: 5, average_score: 76, score_change: -6.7, talk_ratio: 0.6 })
        expect(h.closers).toEqual([
          {
            closer_id: adaId, email: "Ada@acme.test", full_name: "Ada Archer", calls_analysed: 3, average_score: 70,
            score_change: -15, talk_ratio: 0.6, weakest_dimension: "discovery", health: "at_risk"
          },
          {
            closer_id: boId, email: "bo@acme.test", full_name: "Bo Baker", calls_analysed: 2, average_score: 85,
            score_change: 10, talk_ratio: null, weakest_dimension: "next_steps", health: "healthy"
          },
          {
            closer_id: cyId, email: "cy@acme.test", full_name: "Cy Cole", calls_analysed: 0, average_score: null,
            score_change: null, talk_ratio: null, weakest_dimension: null, health: "watch"
          }
        ])

        const theirs = yield* call("GET", "/v1/workspace/team-health", { session: other.session })
        expect(theirs.body.team).toEqual({ closers: 1, calls_analysed: 1, average_score: 1, score_change: null, talk_ratio: 0.99 })
        expect(theirs.body.closers.map((c: any) => [c.full_name, c.health])).toEqual([["Ada Elsewhere", "at_risk"]])

        yield* setFlags(acme.clientId, { "assistant.enabled": false })
        const off = yield* call("GET", "/v1/workspace/team-health", { session: acme.session })
        expect(off.status).toBe(200)
        expect(off.body).toBeNull()
        yield* setFlags(acme.clientId, { "assistant.enabled": true })
        expect((yield* call("GET", "/v1/workspace/team-health", { session: acme.session })).body.team.calls_analysed).toBe(5)

        expect((yield* call("GET", "/v1/workspace/team-health")).status).toBe(401)
      }))

    it.effect("deal-intelligence: the open deals with stage, value, risk, signals and next step, riskiest first; tenant isolation", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const acme = yield* tenantWithUser(0)
        const other = yield* tenantWithUser(0)
        yield* sql`INSERT INTO market_profiles (client_id, profile) VALUES (${acme.clientId}, ${JSON.stringify({ sales_cycle_days: 14 })}::jsonb)`.pipe(Effect.orDie)
        const pastCycle = yield* seedDeal(acme.clientId, {
          daysAgo: 20, overall: 70, objections: [["price", "question_back"]], nextSteps: [["send the proposal", "Friday"]],
          outcome: { outcome: "open", stage: "proposal", value: 5000, currency: "EUR" }
        })
        const noStep = yield* seedDeal(acme.clientId, {
          daysAgo: 2, overall: 65, objections: [["price", "other"], ["timing", "pause"], ["price", "other"]]
        })
        const lowScore = yield* seedDeal(acme.clientId, {
          daysAgo: 1, overall: 42, nextSteps: [["talk soon", null], ["demo for the CFO", "next Tuesday"]],
          outcome: { outcome: "open", stage: "discovery", value: 12000, currency: "USD" }
        })
        const undated = yield* seedDeal(acme.clientId, { daysAgo: 3, overall: 80, nextSteps: [["call back", null]] })
        // an upload that gave no external id
        yield* sql`UPDATE calls SET external_call_id = NULL WHERE call_id = ${undated}`.pipe(Effect.orDie)
        // not open deals: decided, too old, no transcript; and another tenant's
        yield* seedDeal(acme.clientId, { daysAgo: 2, outcome: { outcome: "won", value: 99999 } })
        yield* seedDeal(acme.clientId, { daysAgo: 40 })
        yield* seedDeal(acme.clientId, { daysAgo: 2, transcript: false })
        const theirs = yield* seedDeal(other.clientId, { daysAgo: 2, overall: 90, nextSteps: [["sign", "Monday"]] })

        const reply = yield* call("GET", "/v1/workspace/deal-intelligence", { session: acme.session })
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        expect(reply.body.client_id).toBe(acme.clientId)
        expect(Date.parse(reply.body.generated_at)).not.toBeNaN()
        // a call of no deal is a deal of its own: its fields as they always were (docs/deals.md adds the timeline)
        const ONE_CALL_FIELDS = ["call_id", "external_call_id", "closer_email", "stage", "outcome", "deal_value", "currency", "risk", "signals", "next_step"]
        expect(reply.body.deals.map((d: any) => Object.fromEntries(ONE_CALL_FIELDS.map((k) => [k, d[k]])))).toEqual([
          {
            call_id: pastCycle, external_call_id: `ext-${pastCycle}`, closer_email: "ada@acme.test", stage: "proposal", outcome: "open", deal_value: 5000, currency: "EUR",
            risk: "high",
            signals: ["open for 20 days, longer than the sales cycle of 14 days", "price objection answered with a question back"],
            next_step: "send the proposal (due Friday)"
          },
          {
            call_id: noStep, external_call_id: `ext-${noStep}`, closer_email: "ada@acme.test", stage: null, outcome: null, deal_value: null, currency: null,
            risk: "high",
            signals: ["no next step was agreed on the call", "price objection unanswered", "timing objection answered after a pause"],
            next_step: null
          },
          {
            call_id: lowScore, external_call_id: `ext-${lowScore}`, closer_email: "ada@acme.test", stage: "discovery", outcome: "open", deal_value: 12000, currency: "USD",
            risk: "medium", signals: ["scored 42, below 50"], next_step: "demo for the CFO (due next Tuesday)"
          },
          {
            call_id: undated, external_call_id: null, closer_email: "ada@acme.test", stage: null, outcome: null, deal_value: null, currency: null,
            risk: "low", signals: ["no date on the next steps"], next_step: "call back"
          }
        ])
        for (const d of reply.body.deals) {
          expect(d).toMatchObject({ deal_id: null, external_deal_id: null, account: null, stakeholders: [], risk_reasons: [] })
          expect(d.calls.map((c: any) => c.call_id)).toEqual([d.call_id])
        }

        const mine = yield* call("GET", "/v1/workspace/deal-intelligence", { session: other.session })
        expect(mine.body.deals.map((d: any) => [d.call_id, d.external_call_id, d.risk, d.signals, d.next_step])).toEqual([
          [theirs, `ext-${theirs}`, "low", [], "sign (due Monday)"]
        ])
        for (const ours of [pastCycle, noStep, lowScore]) expect(JSON.stringify(mine.body)).not.toContain(`"ext-${ours}"`)

        yield* setFlags(acme.clientId, { "assistant.enabled": false })
        const off = yield* call("GET", "/v1/workspace/deal-intelligence", { session: acme.session })
        expect(off.status).toBe(200)
        expect(off.body).toBeNull()
        yield* setFlags(acme.clientId, { "assistant.enabled": true })
        expect((yield* call("GET", "/v1/workspace/deal-intelligence", { session: acme.session })).body.deals).toHaveLength(4)

        expect((yield* call("GET", "/v1/workspace/deal-intelligence")).status).toBe(401)
      }))

    it.effect("deal-intelligence: with more deals than it lists, the ones listed are the first in its order (risk, value, newest)", () =>
      Effect.gen(function* () {
        const acme = yield* tenantWithUser(0)
        // calls of no deal (each a deal of its own), more than DEALS_LIMIT (50): high risk but no value
        // and oldest; medium (a low score) with values; low with values; low without, newest
        // (each seeded at its own now(): of two calls of the same day, the one seeded later is the newer)
        const seeded: Array<{ id: string; risk: number; value: number | null; daysAgo: number }> = []
        for (let k = 0; k < 8; k++) {
          const id = yield* seedDeal(acme.clientId, { daysAgo: 20 + k, overall: 70, objections: [["price", "other"]] })
          seeded.push({ id, risk: 0, value: null, daysAgo: 20 + k })
        }
        for (let k = 0; k < 8; k++) {
          const value = 1000 * (k + 1)
          const id = yield* seedDeal(acme.clientId, {
            daysAgo: 10 + k, overall: 40, nextSteps: [["send the deck", null]], outcome: { outcome: "open", value }
          })
          seeded.push({ id, risk: 1, value, daysAgo: 10 + k })
        }
        for (let k = 0; k < 6; k++) {
          const value = 500 * (k + 1)
          const id = yield* seedDeal(acme.clientId, {
            daysAgo: 5 + k, overall: 80, nextSteps: [["call back", "Friday"]], outcome: { outcome: "open", value }
          })
          seeded.push({ id, risk: 2, value, daysAgo: 5 + k })
        }
        for (let k = 0; k < 40; k++) {
          const id = yield* seedDeal(acme.clientId, { daysAgo: k % 5, overall: 80, nextSteps: [["call back", null]] })
          seeded.push({ id, risk: 2, value: null, daysAgo: k % 5 })
        }
        const expected = [...seeded]
          .sort((a, b) =>
            a.risk - b.risk || (b.value ?? -Infinity) - (a.value ?? -Infinity) || a.daysAgo - b.daysAgo || seeded.indexOf(b) - seeded.indexOf(a)
          )
          .slice(0, 50)

        const reply = yield* call("GET", "/v1/workspace/deal-intelligence", { session: acme.session })
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        expect(reply.body.deals.map((d: any) => d.call_id)).toEqual(expected.map((x) => x.id))
        expect(reply.body.deals.map((d: any) => d.risk)).toEqual(expected.map((x) => ["high", "medium", "low"][x.risk]))
        // the 12 left out are the oldest of the last kind
        const shown = new Set(expected.map((x) => x.id))
        expect(seeded.filter((x) => !shown.has(x.id)).every((x) => x.risk === 2 && x.value === null && x.daysAgo >= 3)).toBe(true)
      }))
  })
})
