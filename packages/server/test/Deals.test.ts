/**
 * Deals and accounts (issue 38, item 1; docs/deals.md) with the real server on PostgreSQL:
 * uploads with `account`, `deal_id`, `attendees` and `meeting_at` grouped into accounts and deals
 * by the rule (the same deal id one deal; the same attendee domain one account and its open deal; a
 * new deal after the old one is decided; free-mail and the tenant's own addresses ignored), a
 * recorder call joining its account and deal by its calendar event's attendees, a period view
 * counting a call in the week of its meeting, deal intelligence's timeline over the shared team
 * seed checked against figures recomputed here from the stored analyses, the trackers' per-deal
 * counts, another tenant 404 and bad input 422.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import * as chrono from "chrono-node"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig, type AppConfigShape } from "../src/config.js"
import { MeetingCalendarsLive } from "../src/integrations/MeetingCalendarsLive.js"
import { Recorder } from "../src/recorder/Recorder.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { connectCalendar as connectTo, type MeetingProviders, startMeetingProviders } from "./utils/MeetingProviders.js"
import { call, freshEmail, memberSession, newTenant, tenantWithUser } from "./utils/PortalRequests.js"
import { type RecallServer, startRecallServer } from "./utils/RecallServer.js"
import { completeUploaded, seedCloser } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"
import { seedTeamWeeks, TEAM_DOMAIN } from "./utils/TeamWeeks.js"

const AUDIO = fixture("demo-objection.mp3")
const DAY = 86_400_000

const uploadWith = (apiKey: string, fields: ReadonlyArray<readonly [string, string]>, idempotencyKey?: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const form = new FormData()
    form.append("audio", new Blob([AUDIO]), "call.mp3")
    for (const [key, value] of fields) form.append(key, value)
    const response = yield* client.execute(
      HttpClientRequest.post("/v1/teams/audio").pipe(
        HttpClientRequest.setHeaders(idempotencyKey === undefined ? { "x-api-key": apiKey } : { "x-api-key": apiKey, "idempotency-key": idempotencyKey }),
        HttpClientRequest.bodyFormData(form)
      )
    )
    return { status: response.status, body: (yield* response.json) as any }
  }).pipe(Effect.orDie)

const statusOf = (apiKey: string, callId: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(`/analysis/${callId}`).pipe(HttpClientRequest.setHeader("x-api-key", apiKey)))
    return { status: response.status, body: (yield* response.json) as any }
  }).pipe(Effect.orDie)

/** Uploads and answers the call's status (200). */
const uploaded = (apiKey: string, fields: ReadonlyArray<readonly [string, string]>) =>
  Effect.gen(function* () {
    const reply = yield* uploadWith(apiKey, fields)
    expect(reply.status, JSON.stringify(reply.body)).toBe(202)
    const status = yield* statusOf(apiKey, reply.body.call_id)
    expect(status.status).toBe(200)
    return status.body
  })

const sql = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, (s) => f(s)).pipe(Effect.orDie)

const get = (path: string, session: string) =>
  Effect.map(call("GET", path, { session }), (reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body
  })

/** The Monday (YYYY-MM-DD, UTC) of an instant's week. */
const mondayOf = (iso: string) => {
  const d = new Date(iso)
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY
  return new Date(day).toISOString().slice(0, 10)
}

describe("deals and accounts", () => {
  layer(serverWithSmtp({}, { workers: false }), { excludeTestServices: true })("uploads", (it) => {
    it.effect("uploads are grouped into accounts and deals by the rule", () =>
      Effect.gen(function* () {
        const t = yield* tenantWithUser(30)
        const own = t.email // the signed-in admin: the tenant's own domain (acme.test)
        const at = (days: number) => new Date(Date.now() - days * DAY).toISOString()

        // a deal id and a buyer's domain (free mail ignored): the account of the domain, the deal of the id
        const at20 = at(20)
        const u1 = yield* uploaded(t.apiKey, [["deal_id", "CRM-77"], ["attendees", "dana@initech.test, me@gmail.com"], ["meeting_at", at20]])
        expect(u1.account).toMatchObject({ name: "initech.test", domain: "initech.test" })
        expect(u1.external_deal_id).toBe("CRM-77")
        expect(u1.deal_id).toMatch(/^deal_/)
        expect(u1.meeting_at).toBe(at20)
        expect(u1.attendees).toEqual(["dana@initech.test", "me@gmail.com"])
        // the same deal id, no attendees: the same deal, and its account
        const u2 = yield* uploaded(t.apiKey, [["deal_id", "CRM-77"], ["meeting_at", at(15)]])
        expect([u2.deal_id, u2.account?.account_id]).toEqual([u1.deal_id, u1.account.account_id])
        // the account's domain among own and free-mail attendees (the field repeated): its open deal
        const u3 = yield* uploaded(t.apiKey, [["attendees", own], ["attendees", "lee@Initech.test"], ["attendees", "x@outlook.com"]])
        expect([u3.deal_id, u3.account?.account_id]).toEqual([u1.deal_id, u1.account.account_id])
        expect(u3.external_deal_id).toBe("CRM-77")
        // only the tenant's own and free mail: no account, no deal
        const u4 = yield* uploaded(t.apiKey, [["attendees", `${own},someone@gmail.com`]])
        expect([u4.account, u4.deal_id, u4.external_deal_id]).toEqual([null, null, null])
        // a company name: an account by name, matched in any case, with a deal of its own
        const u5 = yield* uploaded(t.apiKey, [["account", "Globex Corp"]])
        const u6 = yield* uploaded(t.apiKey, [["account", "GLOBEX CORP"], ["attendees", "kim@initech.test"]])
        expect(u5.account).toMatchObject({ name: "Globex Corp", domain: null })
        expect([u6.account.account_id, u6.deal_id]).toEqual([u5.account.account_id, u5.deal_id])
        expect(u5.deal_id).not.toBe(u1.deal_id)
        // a domain as the account: the account of the domain
        const u7 = yield* uploaded(t.apiKey, [["account", "https://www.initech.test/"]])
        expect([u7.account.account_id, u7.deal_id]).toEqual([u1.account.account_id, u1.deal_id])

        // the deal is won: the next call of the account starts a new deal
        yield* sql((s) => s`INSERT INTO outcome_truth (call_id, client_id, outcome) VALUES (${u2.call_id}, ${t.clientId}, 'won')`)
        const u8 = yield* uploaded(t.apiKey, [["attendees", "sam@initech.test"]])
        expect(u8.account.account_id).toBe(u1.account.account_id)
        expect(u8.deal_id).not.toBe(u1.deal_id)
        expect(u8.external_deal_id).toBeNull()

        // in the database: two accounts, three deals, each call where the status says
        const accounts = yield* sql<{ n: number }>((s) => s`SELECT count(*)::int AS n FROM accounts WHERE client_id = ${t.clientId}`)
        const deals = yield* sql<{ deal_id: string; n: number }>((s) =>
          s`SELECT d.deal_id, count(c.call_id)::int AS n FROM deals d LEFT JOIN calls c ON c.deal_id = d.deal_id
            WHERE d.client_id = ${t.clientId} GROUP BY d.deal_id ORDER BY n DESC`)
        expect(accounts[0]!.n).toBe(2)
        expect(deals.map((d) => [d.deal_id, d.n])).toEqual([[u1.deal_id, 4], [u5.deal_id, 2], [u8.deal_id, 1]])
        // the analysis JSON says the same
        const analysis = yield* get(`/v1/workspace/calls/${u3.call_id}`, t.session)
        expect([analysis.deal_id, analysis.account_id]).toEqual([u1.deal_id, u1.account.account_id])
        expect(Date.parse(analysis.meeting_at)).toBe(Date.parse(u3.created_at))

        // another tenant: the call is 404, and the same deal id is another deal there
        const other = yield* tenantWithUser(5)
        expect((yield* statusOf(other.apiKey, u1.call_id)).status).toBe(404)
        const theirs = yield* uploaded(other.apiKey, [["deal_id", "CRM-77"]])
        expect(theirs.deal_id).not.toBe(u1.deal_id)
        expect(theirs.account).toBeNull()
      }))

    it.effect("the new fields: bad input is 422 with its field", () =>
      Effect.gen(function* () {
        const t = yield* tenantWithUser(30)
        const cases: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> = [
          ["meeting_at", [["meeting_at", new Date(Date.now() + 3600_000).toISOString()]]],
          ["meeting_at", [["meeting_at", "last tuesday"]]],
          ["meeting_at", [["meeting_at", "2026-02-30T10:00:00"]]],
          ["meeting_at", [["meeting_at", "1999-12-31T10:00:00Z"]]],
          ["attendees", [["attendees", "dana@initech.test, not-an-address"]]],
          ["attendees", [["attendees", Array.from({ length: 51 }, (_, i) => `p${i}@initech.test`).join(",")]]],
          ["deal_id", [["deal_id", "x".repeat(201)]]],
          ["account", [["account", "y".repeat(201)]]]
        ]
        for (const [field, fields] of cases) {
          const reply = yield* uploadWith(t.apiKey, fields)
          expect(reply.status, `${field} ${JSON.stringify(fields).slice(0, 80)}`).toBe(422)
          expect(reply.body.detail[0].loc).toEqual(["body", field])
        }
        // nothing was created by the refused uploads
        const calls = yield* sql<{ n: number }>((s) => s`SELECT count(*)::int AS n FROM calls WHERE client_id = ${t.clientId}`)
        expect(calls[0]!.n).toBe(0)
        // 50 attendees and a meeting a minute in the future (clocks differ) are fine
        const ok = yield* uploaded(t.apiKey, [
          ["attendees", Array.from({ length: 50 }, (_, i) => `p${i}@initech.test`).join(",")],
          ["meeting_at", new Date(Date.now() + 60_000).toISOString()]
        ])
        expect(ok.attendees.length).toBe(50)
        // the same Idempotency-Key: the same meeting answers the first call, another meeting is 409
        const meeting = [["meeting_at", "2026-01-05T10:00:00+01:00"], ["attendees", "a@initech.test"], ["deal_id", "K-1"]] as const
        const first = yield* uploadWith(t.apiKey, meeting, "key-deals-1")
        expect(first.status).toBe(202)
        const again = yield* uploadWith(t.apiKey, meeting, "key-deals-1")
        expect([again.status, again.body.call_id]).toEqual([202, first.body.call_id])
        for (const [field, value] of [["meeting_at", "2026-01-05T10:00:01+01:00"], ["attendees", "b@initech.test"], ["deal_id", "K-2"]] as const) {
          const changed = meeting.map(([k, v]) => [k, k === field ? value : v] as const)
          const conflict = yield* uploadWith(t.apiKey, changed, "key-deals-1")
          expect(conflict.status, field).toBe(409)
          expect(conflict.body.message).toContain(field)
        }
        expect((yield* statusOf(t.apiKey, first.body.call_id)).body.meeting_at).toBe("2026-01-05T09:00:00.000Z")
      }))

    it.effect("a period view counts a call in the week of its meeting, not of its upload", () =>
      Effect.gen(function* () {
        const t = yield* tenantWithUser(30)
        const closer = freshEmail("closer")
        yield* seedCloser(t.clientId, closer, "Cora Closer")
        const meetingAt = new Date(Date.now() - 35 * DAY).toISOString()
        const u = yield* uploaded(t.apiKey, [["closer_email", closer], ["meeting_at", meetingAt]])
        yield* completeUploaded(t.clientId, u.call_id)
        expect(mondayOf(u.created_at)).toBe(mondayOf(new Date().toISOString()))
        const board = yield* get("/v1/coaching/dashboard", t.session)
        const row = board.closers.find((c: any) => c.email === closer)
        const weeks = new Map(row.score_trend.map((p: any) => [p.period_start, p.calls]))
        expect(weeks.get(mondayOf(meetingAt))).toBe(1)
        expect(weeks.get(mondayOf(new Date().toISOString())) ?? 0).toBe(0)
        expect(row.calls_this_week).toBe(0)
        const team = board.team.score_trend.find((p: any) => p.period_start === mondayOf(meetingAt))
        expect(team.calls).toBe(1)
      }))

    it.effect("deal intelligence follows each deal of the team's six weeks across its calls", () =>
      Effect.gen(function* () {
        const t = yield* tenantWithUser(5)
        const tw = yield* seedTeamWeeks(t.clientId)
        const body = yield* get("/v1/workspace/deal-intelligence", t.session)
        const now = Date.now()
        const byId = new Map(tw.calls.map((c) => [c.callId, c]))
        // the open deals: those with a call whose meeting was in the last 30 days
        const expectedDeals = tw.deals.filter((d) => d.callIds.some((id) => now - Date.parse(byId.get(id)!.meetingAt) < 30 * DAY))
        const listed = body.deals.filter((d: any) => d.deal_id !== null)
        expect(listed.map((d: any) => d.deal_id).sort()).toEqual(expectedDeals.map((d) => d.dealId).sort())
        // calls of no deal, in the window: one insight each
        const lone = tw.calls.filter((c) => c.dealId === null && now - Date.parse(c.meetingAt) < 30 * DAY).map((c) => c.callId)
        expect(body.deals.filter((d: any) => d.deal_id === null).map((d: any) => d.call_id).sort()).toEqual(lone.sort())

        for (const deal of expectedDeals) {
          const insight = listed.find((d: any) => d.deal_id === deal.dealId)
          const calls = deal.callIds.map((id) => byId.get(id)!)
          const account = tw.accounts.find((a) => a.accountId === deal.accountId)!
          expect(insight.external_deal_id).toBe(deal.externalDealId)
          expect(insight.account).toEqual({ account_id: account.accountId, name: account.name, domain: account.domain })
          expect(insight.calls.map((c: any) => c.call_id)).toEqual(deal.callIds)
          // the latest call is the deal's call
          expect(insight.call_id).toBe(deal.callIds.at(-1))
          // score trend: the stored overall scores, first to last
          const scores = calls.map((c) => c.result.scorecard.overall).filter((s): s is number => s !== null)
          expect(insight.score_trend.scores.map((s: any) => s.score)).toEqual(scores)
          if (scores.length >= 2) {
            const change = Math.round((scores.at(-1)! - scores[0]!) * 10) / 10
            expect(insight.score_trend.change).toBe(change)
            expect(insight.score_trend.direction).toBe(change >= 5 ? "up" : change <= -5 ? "down" : "flat")
          }
          // objections: each kind, the calls raising it, resolved when a later call did not raise it again
          const kinds = [...new Set(calls.flatMap((c) => c.result.objections.map((o) => o.kind)))]
          expect(insight.objections.map((o: any) => o.kind)).toEqual(kinds)
          for (const o of insight.objections) {
            const raised = calls.filter((c) => c.result.objections.some((x) => x.kind === o.kind)).map((c) => c.callId)
            expect(o.raised_in).toEqual(raised)
            expect(o.state).toBe(raised.at(-1) === deal.callIds.at(-1) ? "open" : "resolved")
          }
          // next steps: every step of the deal's calls, its due resolved from its call's meeting
          const steps = calls.flatMap((c, i) =>
            c.result.next_steps.map((s) => {
              const date = s.due === null ? null : chrono.casual.parseDate(s.due, { instant: new Date(c.meetingAt), timezone: 0 }, { forwardDate: true })
              const day = date === null ? null : date.toISOString().slice(0, 10)
              if (day === null) return [c.callId, s.quote, null, "undated"]
              const deadline = Date.parse(`${day}T00:00:00Z`) + 2 * DAY
              const kept = calls.slice(i + 1).some((l) => Date.parse(l.meetingAt) > Date.parse(c.meetingAt) && Date.parse(l.meetingAt) < deadline)
              return [c.callId, s.quote, day, kept ? "kept" : now >= deadline ? "slipped" : "open"]
            })
          )
          expect(insight.next_steps.map((s: any) => [s.call_id, s.quote, s.due_date, s.state])).toEqual(steps)
          // stakeholders: the attendees not of the team's domain
          const stakeholders = [...new Set(calls.flatMap((c) => c.attendees.map((a) => a.toLowerCase())).filter((a) => !a.endsWith(`@${TEAM_DOMAIN}`)))]
          expect(insight.stakeholders).toEqual(stakeholders)
          expect(insight.risk_reasons.every((r: string) => insight.signals.includes(r))).toBe(true)
        }
        // the figures the seed makes sure of: some deals of several calls, some steps resolved
        expect(listed.some((d: any) => d.calls.length >= 3)).toBe(true)
        expect(listed.flatMap((d: any) => d.next_steps).some((s: any) => s.state === "kept" || s.state === "slipped")).toBe(true)

        // trackers: per deal, and one deal's calls only
        const tracker = yield* call("POST", "/v1/client-portal/trackers", {
          session: t.session,
          body: { name: "Money", kind: "pricing", terms: ["price", "budget", "cost"] }
        })
        expect(tracker.status, JSON.stringify(tracker.body)).toBe(201)
        const from = new Date(now - 60 * DAY).toISOString().slice(0, 10)
        const report = yield* get(`/v1/client-portal/trackers/report?from=${from}&quotes=0&limit=200`, t.session)
        const money = report.trackers.find((x: any) => x.name === "Money")
        const perCall = new Map(report.calls.map((c: any) => [c.call_id, c.trackers.filter((x: any) => x.tracker_id === money.tracker_id).reduce((n: number, x: any) => n + x.mentions, 0)]))
        for (const row of money.deals) {
          const deal = tw.deals.find((d) => d.dealId === row.deal_id)!
          expect(row.mentions).toBe(deal.callIds.reduce((n, id) => n + ((perCall.get(id) as number | undefined) ?? 0), 0))
        }
        expect(money.deals.reduce((n: number, d: any) => n + d.mentions, 0)).toBe(
          tw.calls.filter((c) => c.dealId !== null).reduce((n, c) => n + ((perCall.get(c.callId) as number | undefined) ?? 0), 0)
        )
        const top = money.deals[0]
        if (top !== undefined) {
          const one = yield* get(`/v1/client-portal/trackers/report?from=${from}&quotes=0&limit=200&deal_id=${top.deal_id}`, t.session)
          expect(one.calls.every((c: any) => c.deal_id === top.deal_id)).toBe(true)
          expect(one.trackers.find((x: any) => x.name === "Money").mentions).toBe(top.mentions)
        }
        // the periods count by meeting time: every call's week is its meeting's
        for (const c of report.calls) expect(Date.parse(c.meeting_at)).toBe(Date.parse(byId.get(c.call_id)!.meetingAt))
        // a rep sees the deals with their own calls, over their own calls
        const rep = tw.closers[0]!
        const repSession = yield* memberSession(yield* Smtp, t.clientId, rep.email)
        const mine = yield* get("/v1/workspace/deal-intelligence", repSession)
        const ownDeals = expectedDeals.filter((d) => d.callIds.some((id) => byId.get(id)!.closerEmail === rep.email))
        expect(ownDeals.length).toBeGreaterThan(0)
        expect(mine.deals.filter((d: any) => d.deal_id !== null).map((d: any) => d.deal_id).sort()).toEqual(ownDeals.map((d) => d.dealId).sort())
        for (const d of mine.deals) for (const c of d.calls) expect(c.closer_email).toBe(rep.email)
        // another tenant sees none of it
        const other = yield* tenantWithUser(5)
        const theirs = yield* get("/v1/workspace/deal-intelligence", other.session)
        expect(theirs.deals).toEqual([])
        expect((yield* call("GET", `/v1/client-portal/trackers/report?deal_id=${top?.deal_id ?? "x"}`, { session: other.session })).body.calls).toEqual([])
      }))
  })
})

// ---------------------------------------------------------------------------------------------
// The recorder (as Recorder.test drives it)

class Env extends Context.Tag("test/DealsRecorderEnv")<Env, {
  readonly recall: RecallServer
  readonly providers: MeetingProviders
  readonly config: Partial<AppConfigShape>
}>() {}

const withProviders = Layer.unwrapScoped(Effect.gen(function* () {
  const providers = yield* startMeetingProviders
  const recall = yield* startRecallServer
  const blobDir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "callsight-deals-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )
  const config: Partial<AppConfigShape> = {
    ...providers.config,
    secretsKey: Option.some(Redacted.make(randomBytes(32).toString("base64"))),
    blobDir,
    recorderApiUrl: recall.url,
    recorderApiKey: Option.some(Redacted.make(recall.apiKey)),
    recorderWebhookSecret: Option.some(Redacted.make(recall.webhookSecret)),
    recorderScheduleIntervalSeconds: 3600
  }
  return Layer.mergeAll(serverWithSmtp(config, { workers: false }), Layer.succeed(Env, { recall, providers, config }))
}))

const withRecorder = <A, E, R>(f: (recorder: Recorder) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Env, ({ config }) =>
    Effect.provide(
      Effect.flatMap(Recorder, f),
      Layer.mergeAll(Recorder.Default, MeetingCalendarsLive).pipe(Layer.provide(AppConfig.layerWith(config)))
    ))

describe("deals and accounts: the recorder", () => {
  layer(withProviders, { excludeTestServices: true })("recorded", (it) => {
    it.effect("a recorded meeting carries its event's attendees and start, and joins the account's open deal", () =>
      Effect.gen(function* () {
        const { providers, recall } = yield* Env
        const tenant = yield* newTenant("Acme")
        const added = yield* call("POST", "/v1/client-portal/closers", {
          session: tenant.session,
          body: { email: freshEmail("closer"), full_name: "Maria Closer" }
        })
        expect(added.status).toBe(200)
        const closerEmail = added.body.email as string
        // an earlier call of the account, uploaded with its deal
        const dealId = `deal_rec_${randomBytes(4).toString("hex")}`
        const accountId = `acct_rec_${randomBytes(4).toString("hex")}`
        yield* sql((s) => s`INSERT INTO accounts (account_id, client_id, name, domain) VALUES (${accountId}, ${tenant.clientId}, 'Umbrella', 'umbrella.test')`)
        yield* sql((s) => s`INSERT INTO deals (deal_id, client_id, account_id, external_deal_id) VALUES (${dealId}, ${tenant.clientId}, ${accountId}, 'U-1')`)
        yield* sql((s) => s`INSERT INTO calls (call_id, client_id, closer_email, status, format, blob_key, size_bytes, sha256, meeting_at, account_id, deal_id)
                            VALUES (${`call_rec_${randomBytes(4).toString("hex")}`}, ${tenant.clientId}, ${closerEmail}, 'completed', 'wav', 'x', 1, 'x',
                                    now() - interval '10 days', ${accountId}, ${dealId})`)
        // the closer's calendar: a meeting with two of the account's people, the closer, and a free-mail guest
        const start = new Date(Date.now() + 3600_000)
        const eventId = `evt${randomBytes(6).toString("hex")}`
        yield* connectTo(providers, tenant.session, added.body.closer_id, [{
          id: eventId,
          status: "confirmed",
          summary: "Umbrella follow-up",
          start: { dateTime: start.toISOString() },
          end: { dateTime: new Date(start.getTime() + 3600_000).toISOString() },
          conferenceData: { entryPoints: [{ entryPointType: "video", uri: "https://acme.zoom.us/j/5550001?pwd=x" }] },
          attendees: [{ email: "ada@umbrella.test" }, { email: closerEmail }, { email: "bo@Umbrella.test" }, { email: "guest@gmail.com" }]
        }])
        expect((yield* call("POST", "/v1/client-portal/recall/activate", { session: tenant.session, body: { join_mode: "auto", platforms: ["video"] } })).status).toBe(200)
        yield* withRecorder((r) => r.schedulePass())
        const meetings = (yield* call("GET", "/v1/client-portal/recall/meetings", { session: tenant.session })).body.meetings
        expect(meetings.length).toBe(1)
        const bot = recall.botOf(meetings[0].meeting_id)!
        recall.advance(bot.id, ["joining_call", "in_call_recording", "call_ended", "done"], { recording: fixture("discovery-short.m4a") })
        expect(yield* withRecorder((r) => r.settle(meetings[0].meeting_id))).toBe("final")
        const [row] = yield* sql<{ call_id: string }>((s) => s`SELECT call_id FROM recorder_bots WHERE meeting_id = ${meetings[0].meeting_id}`)
        const status = (yield* call("GET", `/analysis/${row!.call_id}`, { session: tenant.session })).body
        expect(status.attendees).toEqual(["ada@umbrella.test", closerEmail, "bo@Umbrella.test", "guest@gmail.com"])
        expect(Math.abs(Date.parse(status.meeting_at) - start.getTime())).toBeLessThan(1000)
        expect(status.account).toEqual({ account_id: accountId, name: "Umbrella", domain: "umbrella.test" })
        expect([status.deal_id, status.external_deal_id]).toEqual([dealId, "U-1"])
        // once analysed, the recorded call is the buyers' last call in the next meeting's prep (by its attendees)
        expect((yield* call("GET", "/v1/workspace/meeting-prep-brief", { session: tenant.session })).body.meetings[0].previous_call_id).toBeNull()
        yield* completeUploaded(tenant.clientId, row!.call_id)
        const prep = (yield* call("GET", "/v1/workspace/meeting-prep-brief", { session: tenant.session })).body
        expect(prep.meetings.map((m: any) => [m.attendees, m.previous_call_id])).toEqual([
          [["ada@umbrella.test", "bo@Umbrella.test", "guest@gmail.com"], row!.call_id]
        ])
      }))
  })
})
