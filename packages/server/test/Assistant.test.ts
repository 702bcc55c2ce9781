/**
 * The internal assistant interface (spec 4.9), end to end on the in-process server with its
 * analysis workers, on PGlite or on PostgreSQL with TEST_DATABASE_URL. Checked:
 *
 * - one implementation, two doors: for a tenant with an analysed call, seeded calls, closers and
 *   outcomes, each of the 8 views answers the body the portal or the workspace answers for the
 *   same tenant (the clock frozen for both requests, so `generated_at` and the periods counted
 *   from now are equal too); team-health is answered when `assistant.enabled` is false (the
 *   workspace's is null then);
 * - an unknown `client_id` is 404 on every operation; another tenant's call, and an unknown call,
 *   are 404;
 * - the assistant key: a wrong key 401, none 422 (the header is required), a tenant key 403, the
 *   admin key accepted;
 * - call-queue: the calls awaiting analysis oldest first, then the completed calls without an
 *   outcome latest first (decided calls, failed calls and another tenant's left out), counts,
 *   oldest queued, each item's fields; `limit` default 10, 200 accepted, 0 and 201 are 422.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer, vi } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { admin, get, setFlags, settle, upload } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { call, tenantWithUser } from "./utils/PortalRequests.js"
import { seedCloser, seedWeekCall } from "./utils/SeedCalls.js"
import { startSmtpServer } from "./utils/SmtpServer.js"
import { Smtp } from "./utils/SmtpServerLayer.js"
import { ASSISTANT_KEY, testServerLayer } from "./utils/TestServer.js"

const server = Layer.unwrapScoped(Effect.gen(function* () {
  const smtp = yield* startSmtpServer
  return Layer.mergeAll(
    testServerLayer({ smtpUrl: Option.some(Redacted.make(smtp.url)), signInLimitPerAddress: 1000 }, { workers: true }),
    Layer.succeed(Smtp, smtp)
  )
}))

const assistantKey = { "x-api-key": ASSISTANT_KEY }

/** A GET of the assistant interface under the assistant key (or the headers given). */
const staff = (path: string, headers: Record<string, string> = assistantKey) => call("GET", path, { headers })

/** `effect` with `Date` frozen at one instant (timers still run): both doors see the same now. */
const atFrozenNow = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const now = new Date()
      vi.useFakeTimers({ toFake: ["Date"] })
      vi.setSystemTime(now)
      return now
    }),
    (now) => Effect.map(effect, (a) => [a, now] as const),
    () => Effect.sync(() => vi.useRealTimers())
  )

const HOUR = 3_600_000
const DAY = 24 * HOUR

interface QueueSeed {
  readonly status: "queued" | "processing" | "completed" | "failed"
  readonly createdAgo: number
  readonly startedAgo?: number
  readonly completedAgo?: number
  readonly stage?: string
  readonly progress?: number
  readonly overall?: number
  readonly duration?: number
  readonly outcome?: "won" | "lost" | "open" | "no_decision"
  readonly closer?: string | null
  readonly external?: string | null
}

/** A call of the tenant straight into the database, its instants `…Ago` milliseconds before `now`. */
const seedQueueCall = (clientId: string, now: number, s: QueueSeed) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_q_${randomBytes(6).toString("hex")}`
    const iso = (ago: number | undefined) => (ago === undefined ? null : new Date(now - ago).toISOString())
    const result = s.status === "completed" ? JSON.stringify({ scorecard: { overall: s.overall ?? null, dimensions: [] } }) : null
    yield* sql`
      INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, stage, progress, format, blob_key, size_bytes,
                         sha256, created_at, started_at, completed_at, duration_s, result)
      VALUES (${callId}, ${clientId}, ${s.external === undefined ? `ext-${callId}` : s.external},
              ${s.closer === undefined ? "ada@acme.test" : s.closer}, ${s.status}, ${s.stage ?? "queued"}, ${s.progress ?? 0},
              'wav', ${`blob/${callId}`}, 1, 'x', ${iso(s.createdAgo)}, ${iso(s.startedAgo)}, ${iso(s.completedAgo)},
              ${s.duration ?? null}, ${result}::jsonb)`
    if (s.outcome !== undefined) {
      yield* sql`INSERT INTO outcome_truth (call_id, client_id, outcome, recorded_by)
                 VALUES (${callId}, ${clientId}, ${s.outcome}, 'usr_x')`
    }
    return callId
  }).pipe(Effect.orDie)

const OPERATIONS = [
  "account-overview",
  "onboarding-status",
  "operational-trust",
  "call-queue",
  "calls/call_nope",
  "review-pack",
  "roi-digest",
  "team-health"
] as const

describe("assistant interface", () => {
  layer(server, { excludeTestServices: true, timeout: 180_000 })("on the server with workers", (it) => {
    it.effect("each view is the body the portal or the workspace answers for the same tenant", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const acme = yield* tenantWithUser(3)
        const up = yield* upload(acme.apiKey, fixture("renewal-stereo.mp3"), { externalCallId: "crm-7", closerEmail: "ada@acme.test" })
        expect(up.status, JSON.stringify(up.body)).toBe(202)
        const callId = up.body.call_id as string
        expect((yield* settle(acme.apiKey, callId)).status).toBe("completed")
        yield* seedCloser(acme.clientId, "ada@acme.test", "Ada Archer")
        yield* seedCloser(acme.clientId, "bo@acme.test", "Bo Baker")
        const won = yield* seedWeekCall(acme.clientId, { closerEmail: "ada@acme.test", weeksAgo: 0, overall: 62, dims: { discovery: 40 }, talk: 0.55 })
        yield* seedWeekCall(acme.clientId, { closerEmail: "ada@acme.test", weeksAgo: 5, overall: 81 })
        const lost = yield* seedWeekCall(acme.clientId, { closerEmail: "bo@acme.test", weeksAgo: 1, overall: 48, dims: { listening: 30 } })
        yield* seedWeekCall(acme.clientId, { closerEmail: "bo@acme.test", weeksAgo: 0, status: "queued" })
        yield* sql`INSERT INTO outcome_truth (call_id, client_id, outcome, deal_value, recorded_by) VALUES
                     (${won}, ${acme.clientId}, 'won', 9000, 'usr_x'), (${lost}, ${acme.clientId}, 'lost', NULL, 'usr_x')`.pipe(Effect.orDie)
        const q = `client_id=${acme.clientId}`

        const [pairs, now] = yield* atFrozenNow(Effect.gen(function* () {
          const viaSession = (path: string) => call("GET", path, { session: acme.session })
          return {
            overview: [yield* staff(`/v1/internal/assistant/account-overview?${q}`), yield* viaSession("/v1/client-portal/account-cockpit")],
            onboarding: [
              yield* staff(`/v1/internal/assistant/onboarding-status?${q}`),
              yield* viaSession("/v1/client-portal/onboarding-activation")
            ],
            trust: [yield* staff(`/v1/internal/assistant/operational-trust?${q}`), yield* viaSession("/v1/client-portal/operational-trust")],
            call: [
              yield* staff(`/v1/internal/assistant/calls/${callId}?${q}`),
              yield* get(acme.apiKey, `/v1/teams/calls/${callId}`),
              yield* viaSession(`/v1/workspace/calls/${callId}`)
            ],
            reviewPack: [
              yield* staff(`/v1/internal/assistant/review-pack?${q}`),
              yield* viaSession("/v1/client-portal/customer-roi-review-pack")
            ],
            digest: [yield* staff(`/v1/internal/assistant/roi-digest?${q}`), yield* viaSession("/v1/client-portal/customer-roi-digest")],
            teamHealth: [yield* staff(`/v1/internal/assistant/team-health?${q}`), yield* viaSession("/v1/workspace/team-health")]
          }
        }))

        // operational trust's `since` is the database's now() minus 7 days, which the frozen clock does not reach:
        // compared apart, to the second
        const [staffSince, portalSince] = pairs.trust.map((r) => Date.parse(r.body.since))
        expect(Math.abs(staffSince! - portalSince!)).toBeLessThan(5_000)
        expect(Math.abs(now.getTime() - 7 * DAY - staffSince!)).toBeLessThan(5_000)
        const comparable = (view: string, body: any) => (view === "trust" ? { ...body, since: null } : body)

        for (const [view, replies] of Object.entries(pairs)) {
          const [assistant, ...others] = replies
          expect(assistant!.status, `${view}: ${JSON.stringify(assistant!.body).slice(0, 300)}`).toBe(200)
          for (const other of others) {
            expect(other.status, view).toBe(200)
            expect(comparable(view, assistant!.body), view).toEqual(comparable(view, other.body))
          }
          if ("generated_at" in assistant!.body) expect(assistant!.body.generated_at, view).toBe(now.toISOString())
        }

        // the bodies are the tenant's figures, not empty shells
        expect(pairs.overview[0]!.body).toMatchObject({ client_id: acme.clientId, company_name: "Acme", plan: "growth" })
        expect(pairs.overview[0]!.body.month.calls_by_status.completed).toBeGreaterThanOrEqual(1)
        expect(pairs.onboarding[0]!.body).toMatchObject({ client_id: acme.clientId, steps_total: 8 })
        expect(pairs.onboarding[0]!.body.steps.find((s: any) => s.key === "first_call_analysed").done).toBe(true)
        expect(pairs.trust[0]!.body.analyses_by_status.completed).toBeGreaterThanOrEqual(1)
        expect(pairs.call[0]!.body).toMatchObject({ call_id: callId, external_call_id: "crm-7", status: "completed", error: null })
        expect(pairs.call[0]!.body.scorecard.dimensions.length).toBeGreaterThan(0)
        expect(pairs.reviewPack[0]!.body.client_id).toBe(acme.clientId)
        expect(pairs.reviewPack[0]!.body.value.calls_analysed).toBeGreaterThanOrEqual(2)
        expect(pairs.digest[0]!.body.client_id).toBe(acme.clientId)
        expect(pairs.digest[0]!.body.highlights.length).toBeGreaterThan(0)
        const health = pairs.teamHealth[0]!.body
        expect(health.period_end).toBe(now.toISOString())
        expect(health.closers.map((c: any) => [c.full_name, c.calls_analysed])).toEqual([["Ada Archer", 3], ["Bo Baker", 1]])
        expect(health.team).toMatchObject({ closers: 2, calls_analysed: 4 })

        // the staff door answers team health with the tenant's assistant component off; the workspace answers null
        yield* setFlags(acme.clientId, { "assistant.enabled": false })
        const [[offStaff, offWorkspace]] = yield* atFrozenNow(Effect.all([
          staff(`/v1/internal/assistant/team-health?${q}`),
          call("GET", "/v1/workspace/team-health", { session: acme.session })
        ]))
        expect(offWorkspace.status).toBe(200)
        expect(offWorkspace.body).toBeNull()
        expect(offStaff.status).toBe(200)
        expect({ ...offStaff.body, generated_at: null, period_end: null }).toEqual({ ...health, generated_at: null, period_end: null })
        yield* setFlags(acme.clientId, { "assistant.enabled": true })
      }))

    it.effect("an unknown client_id is 404 on every operation; another tenant's call and an unknown call are 404", () =>
      Effect.gen(function* () {
        for (const op of OPERATIONS) {
          const reply = yield* staff(`/v1/internal/assistant/${op}?client_id=cli_nope`)
          expect(reply.status, op).toBe(404)
          expect(reply.body, op).toEqual({ _tag: "NotFound", message: "no client cli_nope" })
        }
        const acme = yield* tenantWithUser(0)
        const other = yield* tenantWithUser(0)
        const theirs = yield* seedQueueCall(other.clientId, Date.now(), { status: "queued", createdAgo: HOUR })
        const foreign = yield* staff(`/v1/internal/assistant/calls/${theirs}?client_id=${acme.clientId}`)
        expect(foreign.status).toBe(404)
        expect(foreign.body).toEqual({ _tag: "NotFound", message: `no call ${theirs}` })
        const unknown = yield* staff(`/v1/internal/assistant/calls/call_nope?client_id=${acme.clientId}`)
        expect(unknown.status).toBe(404)
        expect(unknown.body).toEqual({ _tag: "NotFound", message: "no call call_nope" })
        // the owner's door finds it: the 404 above is the tenant scope, not a missing row
        expect((yield* staff(`/v1/internal/assistant/calls/${theirs}?client_id=${other.clientId}`)).status).toBe(200)
      }))

    it.effect("the assistant key: wrong 401, missing 401 naming the key, a tenant key 403, the admin key accepted", () =>
      Effect.gen(function* () {
        const acme = yield* tenantWithUser(0)
        const q = `client_id=${acme.clientId}`
        for (const op of OPERATIONS) {
          const path = `/v1/internal/assistant/${op}?${q}`
          const wrong = yield* staff(path, { "x-api-key": "csa_not_a_key" })
          expect(wrong.status, op).toBe(401)
          expect(wrong.body._tag, op).toBe("Unauthorized")
          const missing = yield* staff(path, {})
          expect(missing.status, op).toBe(401)
          expect(missing.body.message, op).toBe(
            "missing credentials: send the assistant key (ASSISTANT_API_KEY) or the admin key in the X-API-Key header"
          )
          const tenantKey = yield* staff(path, { "x-api-key": acme.apiKey })
          expect(tenantKey.status, op).toBe(403)
          expect(tenantKey.body._tag, op).toBe("Forbidden")
        }
        const viaAdmin = yield* staff(`/v1/internal/assistant/onboarding-status?${q}`, admin)
        expect(viaAdmin.status).toBe(200)
        expect(viaAdmin.body.client_id).toBe(acme.clientId)
      }))

    it.effect("call-queue: awaiting analysis oldest first, then completed without an outcome latest first; counts; limit", () =>
      Effect.gen(function* () {
        const acme = yield* tenantWithUser(0)
        const other = yield* tenantWithUser(0)
        const now = Date.now()
        const seed = (s: QueueSeed) => seedQueueCall(acme.clientId, now, s)
        const queuedOld = yield* seed({ status: "queued", createdAgo: 3 * HOUR, closer: null, external: null })
        const running = yield* seed({
          status: "processing", createdAgo: 2 * HOUR, startedAgo: HOUR, stage: "transcribe", progress: 0.4, duration: 900
        })
        const queuedNew = yield* seed({ status: "queued", createdAgo: HOUR })
        // completed, no outcome: the latest finished first (a completed call reads stage `done`)
        const doneOld = yield* seed({
          status: "completed", createdAgo: 3 * DAY + HOUR, startedAgo: 3 * DAY + HOUR, completedAgo: 3 * DAY, overall: 70,
          duration: 600, progress: 1
        })
        const doneNew = yield* seed({
          status: "completed", createdAgo: DAY + HOUR, startedAgo: DAY + HOUR, completedAgo: DAY, stage: "done", progress: 1,
          overall: 55, duration: 300
        })
        const older: Array<string> = []
        for (let d = 10; d < 17; d++) older.push(yield* seed({ status: "completed", createdAgo: d * DAY + HOUR, completedAgo: d * DAY }))
        // left out: decided or open (a record exists), failed, another tenant's
        yield* seed({ status: "completed", createdAgo: 2 * DAY, completedAgo: 2 * DAY - HOUR, outcome: "won", overall: 90 })
        yield* seed({ status: "completed", createdAgo: HOUR, completedAgo: HOUR / 2, outcome: "open" })
        yield* seed({ status: "failed", createdAgo: 4 * HOUR, stage: "decode" })
        yield* seedQueueCall(other.clientId, now, { status: "queued", createdAgo: 10 * DAY })

        const reply = yield* staff(`/v1/internal/assistant/call-queue?client_id=${acme.clientId}`)
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        const body = reply.body
        expect(body.client_id).toBe(acme.clientId)
        expect(body.limit).toBe(10)
        expect(body.counts).toEqual({ queued: 2, processing: 1, completed: 11, failed: 1 })
        expect(body.oldest_queued_at).toBe(new Date(now - 3 * HOUR).toISOString())
        expect(Date.parse(body.generated_at)).not.toBeNaN()
        expect(body.calls.map((c: any) => c.call_id)).toEqual([queuedOld, running, queuedNew, doneNew, doneOld, ...older.slice(0, 5)])
        expect(body.calls[0]).toEqual({
          call_id: queuedOld, external_call_id: null, closer_email: null, status: "queued", stage: "queued", progress: 0,
          created_at: new Date(now - 3 * HOUR).toISOString(), started_at: null, completed_at: null, duration_s: null,
          overall_score: null
        })
        expect(body.calls[1]).toEqual({
          call_id: running, external_call_id: `ext-${running}`, closer_email: "ada@acme.test", status: "processing",
          stage: "transcribe", progress: 0.4, created_at: new Date(now - 2 * HOUR).toISOString(),
          started_at: new Date(now - HOUR).toISOString(), completed_at: null, duration_s: 900, overall_score: null
        })
        expect(body.calls[3]).toMatchObject({
          call_id: doneNew, status: "completed", stage: "done", progress: 1, completed_at: new Date(now - DAY).toISOString(),
          duration_s: 300, overall_score: 55
        })
        expect(body.calls[4]).toMatchObject({ call_id: doneOld, status: "completed", stage: "done", overall_score: 70 })

        const two = yield* staff(`/v1/internal/assistant/call-queue?client_id=${acme.clientId}&limit=2`)
        expect(two.body.limit).toBe(2)
        expect(two.body.calls.map((c: any) => c.call_id)).toEqual([queuedOld, running])
        expect(two.body.counts).toEqual(body.counts)
        const all = yield* staff(`/v1/internal/assistant/call-queue?client_id=${acme.clientId}&limit=200`)
        expect(all.status).toBe(200)
        expect(all.body.calls.map((c: any) => c.call_id)).toEqual([queuedOld, running, queuedNew, doneNew, doneOld, ...older])

        for (const limit of ["0", "201", "-1", "ten"]) {
          const bad = yield* staff(`/v1/internal/assistant/call-queue?client_id=${acme.clientId}&limit=${limit}`)
          expect(bad.status, limit).toBe(422)
          expect(bad.body.detail[0], limit).toMatchObject({ loc: ["query", "limit"] })
        }

        // another tenant sees only its own queue
        const theirs = yield* staff(`/v1/internal/assistant/call-queue?client_id=${other.clientId}`)
        expect(theirs.body.counts).toEqual({ queued: 1, processing: 0, completed: 0, failed: 0 })
        expect(theirs.body.calls).toHaveLength(1)
        expect(theirs.body.oldest_queued_at).toBe(new Date(now - 10 * DAY).toISOString())

        // an empty queue
        const empty = yield* tenantWithUser(0)
        const none = yield* staff(`/v1/internal/assistant/call-queue?client_id=${empty.clientId}`)
        expect(none.body).toMatchObject({
          client_id: empty.clientId, counts: { queued: 0, processing: 0, completed: 0, failed: 0 }, oldest_queued_at: null, calls: []
        })
      }))
  })
})
