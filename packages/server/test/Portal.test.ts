/**
 * The client portal (spec 4.3) and its API keys, in-process, signed in through a real SMTP server:
 * profiles, plan usage with an admin bonus, the cockpit, onboarding, operational trust, outcome
 * truth and its backlog, events, health KPIs, audit logs, API keys. Every read is also made by
 * another tenant, and every change is checked for its audit row.
 */
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { admin, upload } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { call, freshEmail, memberSession, newTenant, repSession, signInByMail, signUpByMail } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"



const grantCredits = (clientId: string, amount: number) =>
  call("POST", `/v1/internal/admin/clients/${clientId}/credits`, { headers: admin, body: { amount, reason: "test" } })

/** A tenant key made through the portal. */
const apiKeyOf = (session: string) =>
  Effect.map(call("POST", "/v1/client-portal/api-keys", { session, body: { name: "agent" } }), (r) => r.body.api_key as string)

const auditActions = (clientId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ action: string }>`SELECT action FROM audit_logs WHERE client_id = ${clientId} ORDER BY at, log_id`
  ).pipe(Effect.map((rows) => rows.map((r) => r.action)))

/** Query strings out of bounds for a page (`limit` 1–200, `offset` 0–1,000,000): each is 422. */
const BAD_PAGES = ["limit=0", "limit=201", "limit=abc", "limit=1.5", "offset=-1", "offset=1000001", "offset=x"]

/**
 * Events written straight into `call_events`, each `[event_id, minutesAgo, platform, status,
 * closerEmail]`, received that many minutes before the same whole minute (equal for equal ages).
 */
const seedEvents = (clientId: string, events: ReadonlyArray<readonly [string, number, string, "ok" | "error", string | null]>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const minute = Math.floor(Date.now() / 60_000) * 60_000
    return Effect.forEach(events, ([id, minutesAgo, platform, status, closer]) =>
      sql`INSERT INTO call_events (event_id, client_id, type, platform, status, closer_email, call_id, error, received_at)
          VALUES (${id}, ${clientId}, ${status === "ok" ? "analysis_completed" : "analysis_failed"}, ${platform}, ${status},
                  ${closer}, NULL, ${status === "ok" ? null : "failed"}, ${new Date(minute - minutesAgo * 60_000).toISOString()}::timestamptz)`,
      { discard: true })
  }).pipe(Effect.orDie)

/** An audit row written straight into `audit_logs`, at a given time. */
const seedAudit = (clientId: string, row: { readonly id: string; readonly at: string; readonly actor: string; readonly actorType: string; readonly action: string; readonly targetType: string }) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO audit_logs (log_id, client_id, at, actor, actor_type, action, target_type, target_id, ip, metadata)
        VALUES (${row.id}, ${clientId}, ${row.at}::timestamptz, ${row.actor}, ${row.actorType}, ${row.action}, ${row.targetType}, NULL, NULL, '{}'::jsonb)`
  ).pipe(Effect.orDie)

const UPGRADE_URLS = {
  starter: new URL("https://pay.example/callsight/starter"),
  growth: new URL("https://pay.example/callsight/growth"),
  scale: new URL("https://pay.example/callsight/scale")
}

describe("client portal", () => {
  layer(
    serverWithSmtp({
      upgradeUrls: {
        starter: { _tag: "Some", value: UPGRADE_URLS.starter } as never,
        growth: { _tag: "None" } as never,
        scale: { _tag: "Some", value: UPGRADE_URLS.scale } as never
      }
    }),
    { excludeTestServices: true }
  )("signed in", (it) => {
    describe("market and lead-context profiles", () => {
      it.effect("read empty until saved; a PUT replaces the whole profile; each save has its audit row", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant()
          const empty = yield* call("GET", "/v1/client-portal/market-profile", { session })
          expect(empty.status).toBe(200)
          expect(empty.body).toEqual({
            client_id: clientId,
            industry: null,
            sub_industry: null,
            icps: [],
            regions: [],
            average_deal_size: null,
            currency: "USD",
            sales_cycle_days: null,
            competitors: [],
            time_zone: null,
            updated_at: null
          })
          const full = {
            industry: "Software",
            sub_industry: "Sales tools",
            icps: [{ label: "Mid-market SaaS", description: "50–500 reps", company_size: "200-2000", region: "EU" }],
            regions: ["EU", "UK"],
            average_deal_size: 48000,
            currency: "EUR",
            sales_cycle_days: 60,
            competitors: ["Gong"],
            time_zone: "Europe/Berlin"
          }
          const saved = yield* call("PUT", "/v1/client-portal/market-profile", { session, body: full })
          expect(saved.status).toBe(200)
          expect(saved.body).toEqual({ client_id: clientId, ...full, updated_at: expect.any(String) })
          expect((yield* call("GET", "/v1/client-portal/market-profile", { session })).body).toEqual(saved.body)
          // what the next PUT leaves out is cleared
          const partial = yield* call("PUT", "/v1/client-portal/market-profile", { session, body: { industry: "Insurance" } })
          expect(partial.body).toMatchObject({ industry: "Insurance", icps: [], regions: [], average_deal_size: null, currency: "USD", time_zone: null })

          const lead = yield* call("PUT", "/v1/client-portal/lead-context-profile", {
            session,
            body: { lead_sources: [{ label: "Webinars", channel: "inbound" }], qualification_framework: "BANT", disqualifiers: ["< 10 reps"] }
          })
          expect(lead.body).toEqual({
            client_id: clientId,
            lead_sources: [{ label: "Webinars", channel: "inbound" }],
            qualification_framework: "BANT",
            ideal_customer_notes: null,
            disqualifiers: ["< 10 reps"],
            // the default rep channel of the tenant's stereo uploads: auto unless set
            rep_channel: "auto",
            updated_at: expect.any(String)
          })
          const right = yield* call("PUT", "/v1/client-portal/lead-context-profile", { session, body: { rep_channel: "right" } })
          expect(right.body).toMatchObject({ rep_channel: "right", qualification_framework: "MEDDPICC", lead_sources: [] })
          expect((yield* call("GET", "/v1/client-portal/lead-context-profile", { session })).body.rep_channel).toBe("right")
          yield* call("PUT", "/v1/client-portal/lead-context-profile", {
            session,
            body: { lead_sources: [{ label: "Webinars", channel: "inbound" }], qualification_framework: "BANT", disqualifiers: ["< 10 reps"] }
          })
          // the analysis reads the framework from here
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ framework: string }>`
            SELECT profile ->> 'qualification_framework' AS framework FROM lead_context_profiles WHERE client_id = ${clientId}`
          expect(row!.framework).toBe("BANT")

          expect(yield* auditActions(clientId)).toEqual([
            "tenant.signed_up", "user.signed_in", "market_profile.saved", "market_profile.saved", "lead_context_profile.saved",
            "lead_context_profile.saved", "lead_context_profile.saved"
          ])
          const [audit] = yield* sql<{ actor: string; actor_type: string; ip: string; target_id: string }>`
            SELECT actor, actor_type, ip, target_id FROM audit_logs WHERE client_id = ${clientId} AND action = 'lead_context_profile.saved' LIMIT 1`
          expect(audit).toMatchObject({ actor_type: "user", ip: "127.0.0.1", target_id: clientId })
          expect(audit!.actor).toMatch(/^usr_/)

          // another tenant reads its own, empty profiles
          const other = yield* newTenant("Other")
          expect((yield* call("GET", "/v1/client-portal/market-profile", { session: other.session })).body).toMatchObject({
            client_id: other.clientId,
            industry: null,
            updated_at: null
          })
          expect((yield* call("GET", "/v1/client-portal/lead-context-profile", { session: other.session })).body.qualification_framework).toBe("MEDDPICC")
        }))

      it.effect("bad profiles are 422 with the field named, and change nothing", () =>
        Effect.gen(function* () {
          const { session } = yield* newTenant()
          const cases = [
            ["/v1/client-portal/market-profile", { currency: "usd" }, ["body", "currency"]],
            ["/v1/client-portal/market-profile", { sales_cycle_days: -1 }, ["body", "sales_cycle_days"]],
            ["/v1/client-portal/market-profile", { icps: [{ description: "no label" }] }, ["body", "icps", 0, "label"]],
            ["/v1/client-portal/lead-context-profile", { qualification_framework: "GUESS" }, ["body", "qualification_framework"]],
            ["/v1/client-portal/lead-context-profile", { rep_channel: "middle" }, ["body", "rep_channel"]]
          ] as const
          for (const [path, body, loc] of cases) {
            const reply = yield* call("PUT", path, { session, body })
            expect(reply.status, JSON.stringify(body)).toBe(422)
            expect(reply.body.detail[0].loc).toEqual(loc)
          }
          expect((yield* call("GET", "/v1/client-portal/market-profile", { session })).body.updated_at).toBeNull()
        }))

      it.effect("without a session every portal operation is 401", () =>
        Effect.gen(function* () {
          for (const path of ["/v1/client-portal/market-profile", "/v1/client-portal/account-cockpit", "/v1/client-portal/audit-logs", "/v1/client-portal/api-keys"]) {
            const reply = yield* call("GET", path)
            expect(reply.status, path).toBe(401)
            expect(reply.body._tag).toBe("Unauthorized")
          }
        }))
    })

    describe("plan usage", () => {
      it.effect("a signup starts with its trial credits, once, in the ledger: its first upload through the API is accepted at once", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant("Trial Co")
          const sql = yield* SqlClient.SqlClient
          const ledger = yield* sql<{ delta: number; reason: string }>`SELECT delta, reason FROM credit_ledger WHERE client_id = ${clientId}`
          expect(ledger).toEqual([{ delta: 5, reason: "trial" }])
          const [signedUp] = yield* sql<{ metadata: any }>`SELECT metadata FROM audit_logs WHERE client_id = ${clientId} AND action = 'tenant.signed_up'`
          expect(signedUp?.metadata).toMatchObject({ plan: "trial", trial_credits: 5 })
          const key = yield* apiKeyOf(session)
          const first = yield* upload(key, fixture("renewal-stereo.mp3"))
          expect(first.status).toBe(202)
          expect((yield* call("GET", "/v1/client-portal/plan-usage", { session })).body).toMatchObject({ credits_balance: 5, ingests_in_progress: 1 })
          // signing in again grants nothing more
          yield* signInByMail(yield* Smtp, (yield* call("GET", "/v1/client-auth/me", { session })).body.email)
          expect((yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM credit_ledger WHERE client_id = ${clientId}`)[0]?.n).toBe(1)
        }))

      it.effect("shows the plan's month, the admin bonus and the upgrade links; the bonus admits more uploads", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant()
          const before = yield* call("GET", "/v1/client-portal/plan-usage", { session })
          expect(before.status).toBe(200)
          const now = new Date()
          const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`
          expect(before.body).toEqual({
            client_id: clientId,
            plan: "trial",
            month,
            period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
            period_end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
            ingests_included: 10,
            bonus_ingests: 0,
            ingests_used: 0,
            ingests_in_progress: 0,
            remaining: 10,
            usage_pct: 0,
            credits_balance: 5,
            upgrade_links: [
              { plan: "starter", url: UPGRADE_URLS.starter.toString() },
              { plan: "scale", url: UPGRADE_URLS.scale.toString() }
            ],
            // credit packs are not sold here (no payment platform): nothing to buy them with
            credit_pack: null
          })

          const granted = yield* call("PATCH", `/v1/internal/admin/clients/${clientId}/usage-bonus`, {
            headers: admin,
            body: { extra_ingests: 2, reason: "pilot extension" }
          })
          expect(granted.status).toBe(200)
          expect(granted.body).toMatchObject({ client_id: clientId, month, extra_ingests: 2, reason: "pilot extension", month_bonus_total: 2 })
          expect(granted.body.plan_usage).toMatchObject({ bonus_ingests: 2, remaining: 12 })
          // a bonus for another month does not count in this one
          const nextMonth = `${now.getUTCFullYear() + 1}-01`
          const later = yield* call("PATCH", `/v1/internal/admin/clients/${clientId}/usage-bonus`, {
            headers: admin,
            body: { extra_ingests: 50, reason: "next year", month: nextMonth }
          })
          expect(later.body).toMatchObject({ month: nextMonth, month_bonus_total: 50, plan_usage: { bonus_ingests: 2 } })

          // 10 included + 2 bonus: the 12th upload is accepted, the 13th refused
          yield* grantCredits(clientId, 20)
          const key = yield* apiKeyOf(session)
          for (let i = 0; i < 12; i++) expect((yield* upload(key, fixture("renewal-stereo.mp3"))).status).toBe(202)
          const refused = yield* upload(key, fixture("renewal-stereo.mp3"))
          expect(refused.status).toBe(402)
          expect(refused.body.message).toMatch(/12 calls/)

          const after = yield* call("GET", "/v1/client-portal/plan-usage", { session })
          expect(after.body).toMatchObject({ bonus_ingests: 2, ingests_used: 0, ingests_in_progress: 12, remaining: 12, credits_balance: 25 })
          // the admin's door shows the same view
          const staff = yield* call("GET", `/v1/internal/admin/clients/${clientId}/plan-usage`, { headers: admin })
          expect(staff.body).toEqual(after.body)
          expect((yield* call("GET", "/v1/internal/admin/clients/cli_missing/plan-usage", { headers: admin })).status).toBe(404)
          // another tenant's usage is its own
          const other = yield* newTenant()
          expect((yield* call("GET", "/v1/client-portal/plan-usage", { session: other.session })).body).toMatchObject({
            client_id: other.clientId,
            bonus_ingests: 0,
            ingests_in_progress: 0,
            credits_balance: 5
          })
          expect((yield* call("PATCH", `/v1/internal/admin/clients/${clientId}/usage-bonus`, {
            headers: admin,
            body: { extra_ingests: 0, reason: "none" }
          })).status).toBe(422)
          const sql = yield* SqlClient.SqlClient
          const [audit] = yield* sql<{ actor: string; actor_type: string; metadata: any }>`
            SELECT actor, actor_type, metadata FROM audit_logs WHERE client_id = ${clientId} AND action = 'usage_bonus.granted' ORDER BY at LIMIT 1`
          expect(audit).toMatchObject({ actor: "staff:admin", actor_type: "staff", metadata: { extra_ingests: 2, reason: "pilot extension", month } })
        }), 60_000)
    })

    describe("account views", () => {
      it.effect("the cockpit: plan, credits, the month's calls, closers, alerts; another tenant sees its own", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant("Cockpit Co")
          const fresh = yield* call("GET", "/v1/client-portal/account-cockpit", { session })
          expect(fresh.status).toBe(200)
          expect(fresh.body).toMatchObject({
            client_id: clientId,
            company_name: "Cockpit Co",
            plan: "trial",
            is_test: false,
            credits_balance: 5,
            month: { calls_by_status: { queued: 0, processing: 0, completed: 0, failed: 0 }, ingests_included: 10, ingests_used: 0, ingests_remaining: 10 },
            average_score: null,
            closers_by_status: { pending_verification: 0, active: 0, paused: 0, removed: 0 },
            integrations: { calendar_connected: 0, video_connected: 0, crm: [], llm: [], recorder_active: false }
          })
          expect(fresh.body.score_trend).toHaveLength(4)
          expect(fresh.body.score_trend.every((w: any) => w.calls === 0 && w.average_score === null)).toBe(true)
          // the trial's 5 credits are free: no credit alert
          expect(fresh.body.open_alerts.map((a: any) => [a.code, a.severity])).toEqual([["no_verified_closer", "warning"]])

          yield* grantCredits(clientId, 5)
          const key = yield* apiKeyOf(session)
          const accepted = yield* upload(key, fixture("renewal-stereo.mp3"))
          // one call analysed with a score, as the worker leaves it
          const sql = yield* SqlClient.SqlClient
          yield* upload(key, fixture("renewal-stereo.mp3"))
          yield* sql`UPDATE calls SET status = 'completed', started_at = now() - interval '20 seconds', completed_at = now(),
                     result = '{"scorecard": {"overall": 72}}'::jsonb WHERE call_id = ${accepted.body.call_id}`
          const later = yield* call("GET", "/v1/client-portal/account-cockpit", { session })
          expect(later.body.month.calls_by_status).toEqual({ queued: 1, processing: 0, completed: 1, failed: 0 })
          expect(later.body.credits_balance).toBe(10)
          expect(later.body.average_score).toBe(72)
          expect(later.body.score_trend.at(-1)).toMatchObject({ calls: 1, average_score: 72 })
          // 10 credits, 1 held by the queued call: 9 free, no credit alert
          expect(later.body.open_alerts.map((a: any) => a.code)).toEqual(["no_verified_closer"])

          const other = yield* newTenant("Elsewhere")
          const theirs = yield* call("GET", "/v1/client-portal/account-cockpit", { session: other.session })
          expect(theirs.body).toMatchObject({ client_id: other.clientId, company_name: "Elsewhere", average_score: null })
          expect(theirs.body.month.calls_by_status.completed).toBe(0)
        }))

      it.effect("onboarding follows the tenant's steps; the recorder step waits for its activation (Recorder.test.ts), coaching for a user's welcome", () =>
        Effect.gen(function* () {
          const smtp = yield* Smtp
          const { clientId, session } = yield* newTenant()
          const start = yield* call("GET", "/v1/client-portal/onboarding-activation", { session })
          expect(start.body).toMatchObject({ client_id: clientId, steps_done: 0, steps_total: 8, activation_pct: 0, next_step: "profile_saved" })
          expect(start.body.steps.map((s: any) => s.key)).toEqual([
            "profile_saved", "closer_added", "closer_verified", "recorder_connected", "speech_to_text_connected", "first_call_analysed",
            "first_outcome_recorded", "coaching_welcome_done"
          ])

          yield* call("PUT", "/v1/client-portal/lead-context-profile", { session, body: {} })
          const closerEmail = freshEmail("closer")
          yield* call("POST", "/v1/client-portal/closers", { session, body: { email: closerEmail, full_name: "Cleo Closer" } })
          const token = /#token=([A-Za-z0-9_-]+)/.exec((yield* smtp.waitFor(closerEmail)).text)![1]!
          expect((yield* call("POST", "/v1/client-portal/closers/verify-email", { body: { token } })).status).toBe(200)
          yield* grantCredits(clientId, 2)
          const key = yield* apiKeyOf(session)
          const callId = (yield* upload(key, fixture("renewal-stereo.mp3"))).body.call_id
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE calls SET status = 'completed', started_at = now(), completed_at = now() WHERE call_id = ${callId}`
          yield* call("PUT", `/v1/client-portal/calls/${callId}/outcome-truth`, { session, body: { outcome: "won", deal_value: 12000 } })

          const now = yield* call("GET", "/v1/client-portal/onboarding-activation", { session })
          expect(now.body.steps.map((s: any) => [s.key, s.done])).toEqual([
            ["profile_saved", true], ["closer_added", true], ["closer_verified", true], ["recorder_connected", false],
            // no speech-to-text provider here (NoTranscriber.test.ts has the step done)
            ["speech_to_text_connected", false], ["first_call_analysed", true], ["first_outcome_recorded", true], ["coaching_welcome_done", false]
          ])
          expect(now.body.steps.filter((s: any) => s.done).every((s: any) => typeof s.done_at === "string")).toBe(true)
          expect(now.body).toMatchObject({ steps_done: 5, activation_pct: 63, next_step: "recorder_connected" })
          // the coaching welcome, finished by a user of the tenant
          const welcome = yield* call("POST", "/v1/coaching/welcome/complete", { session })
          const coached = yield* call("GET", "/v1/client-portal/onboarding-activation", { session })
          expect(coached.body.steps.at(-1)).toMatchObject({ key: "coaching_welcome_done", done: true, done_at: welcome.body.welcome_completed_at })
          expect(coached.body).toMatchObject({ steps_done: 6, activation_pct: 75, next_step: "recorder_connected" })
          const other = yield* newTenant()
          expect((yield* call("GET", "/v1/client-portal/onboarding-activation", { session: other.session })).body).toMatchObject({
            client_id: other.clientId,
            steps_done: 0,
            next_step: "profile_saved"
          })
        }))

      it.effect("operational trust: the 7 days' analyses, success rate, processing times and failures", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant()
          const empty = yield* call("GET", "/v1/client-portal/operational-trust", { session })
          expect(empty.body).toMatchObject({
            client_id: clientId,
            window_days: 7,
            analyses_total: 0,
            success_rate: null,
            processing_time_s: { median: null, p95: null, sample: 0 },
            recent_failures: [],
            last_completed_at: null
          })
          yield* grantCredits(clientId, 10)
          const key = yield* apiKeyOf(session)
          const ids: Array<string> = []
          for (let i = 0; i < 5; i++) ids.push((yield* upload(key, fixture("renewal-stereo.mp3"), { externalCallId: `crm-${i}` })).body.call_id)
          const sql = yield* SqlClient.SqlClient
          // as the worker leaves them: three completed in 10, 20 and 60 s, one failed, one queued
          for (const [id, seconds] of [[ids[0], 10], [ids[1], 20], [ids[2], 60]] as const) {
            yield* sql`UPDATE calls SET status = 'completed', started_at = now() - make_interval(secs => ${seconds}), completed_at = now()
                       WHERE call_id = ${id}`
          }
          yield* sql`UPDATE calls SET status = 'failed', stage = 'decode', completed_at = now(), error_code = 'undecodable_audio',
                     error_message = 'The MP3 file could not be decoded' WHERE call_id = ${ids[3]}`
          const trust = yield* call("GET", "/v1/client-portal/operational-trust", { session })
          expect(trust.body).toMatchObject({
            analyses_by_status: { queued: 1, processing: 0, completed: 3, failed: 1 },
            analyses_total: 5,
            success_rate: 0.75,
            processing_time_s: { median: 20, p95: 56, sample: 3 },
            recent_failures: [{ call_id: ids[3], external_call_id: "crm-3", stage: "decode", code: "undecodable_audio", message: "The MP3 file could not be decoded" }]
          })
          expect(typeof trust.body.last_completed_at).toBe("string")
          const other = yield* newTenant()
          expect((yield* call("GET", "/v1/client-portal/operational-trust", { session: other.session })).body.analyses_total).toBe(0)
        }))

      it.effect("events list the tenant's uploads, filtered by status, closer e-mail and platform; health KPIs count them", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant()
          yield* grantCredits(clientId, 5)
          const key = yield* apiKeyOf(session)
          const a = yield* upload(key, fixture("renewal-stereo.mp3"), { closerEmail: "Rita@Acme.test" })
          const b = yield* upload(key, fixture("renewal-stereo.mp3"), { closerEmail: "sam@acme.test" })
          const recent = yield* call("GET", "/v1/client-portal/events/recent", { session })
          expect(recent.status).toBe(200)
          expect(recent.body.events.map((e: any) => e.call_id)).toEqual([b.body.call_id, a.body.call_id])
          expect(recent.body.total).toBe(2)
          expect(recent.body.events[1]).toEqual({
            event_id: expect.stringMatching(/^evt_/),
            type: "upload_accepted",
            platform: "api",
            status: "ok",
            closer_email: "Rita@Acme.test",
            call_id: a.body.call_id,
            received_at: expect.any(String),
            error: null
          })
          const byCloser = yield* call("GET", "/v1/client-portal/events?closer_email=rita@acme.test", { session })
          expect(byCloser.body.events.map((e: any) => e.call_id)).toEqual([a.body.call_id])
          expect(byCloser.body.total).toBe(1)
          expect((yield* call("GET", "/v1/client-portal/events?status=error", { session })).body.events).toEqual([])
          expect((yield* call("GET", "/v1/client-portal/events?platform=recorder", { session })).body.events).toEqual([])
          expect((yield* call("GET", "/v1/client-portal/events?platform=api&status=ok", { session })).body.events).toHaveLength(2)

          const kpis = yield* call("GET", "/v1/client-portal/health-kpis", { session })
          expect(kpis.body.integrations[0]).toMatchObject({ integration: "api", connected: true, events_7d: 2, error_rate_7d: 0, last_error: null })
          expect(kpis.body.integrations.slice(1).map((i: any) => [i.integration, i.connected])).toEqual([
            ["recorder", false], ["calendar", false], ["video", false], ["crm-a", false], ["llm", false]
          ])

          const other = yield* newTenant()
          expect((yield* call("GET", "/v1/client-portal/events/recent", { session: other.session })).body).toEqual({ events: [], total: 0 })
          expect((yield* call("GET", "/v1/client-portal/events?closer_email=rita@acme.test", { session: other.session })).body).toEqual({ events: [], total: 0 })
          expect((yield* call("GET", "/v1/client-portal/health-kpis", { session: other.session })).body.integrations[0]).toMatchObject({
            connected: false,
            events_7d: 0,
            error_rate_7d: null
          })
        }))
    })

    describe("events, a page at a time", () => {
      it.effect("pages are disjoint and newest first (equal times by id), total counts the matches, filters narrow pages and total; bad pages are 422; tenants apart", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant()
          // 55 events, one a minute back from now: every fifth an error of the recorder, the
          // others ok on the API; e_00 and e_01 share their time (the greater id comes first);
          // one more ten days old, outside `events/recent`
          const seeded = Array.from({ length: 55 }, (_, i) => {
            const id = `evt_pg_${clientId}_${String(i).padStart(2, "0")}`
            const error = i % 5 === 4
            return [id, i === 0 ? 1 : i, error ? "recorder" : "api", error ? "error" : "ok", i % 2 === 0 ? "Even@Acme.test" : null] as const
          })
          yield* seedEvents(clientId, [...seeded, [`evt_pg_${clientId}_old`, 10 * 24 * 60, "api", "ok", null]])
          const ids = (body: any) => body.events.map((e: any) => e.event_id as string)
          const newestFirst = [seeded[1]![0], seeded[0]![0], ...seeded.slice(2).map((e) => e[0]), `evt_pg_${clientId}_old`]
          const get = (query: string) =>
            Effect.map(call("GET", `/v1/client-portal/events${query}`, { session }), (r) => {
              expect(r.status, JSON.stringify(r.body)).toBe(200)
              return r.body
            })

          // the default page: the newest 50 of 56
          const first = yield* get("")
          expect(first.total).toBe(56)
          expect(ids(first)).toEqual(newestFirst.slice(0, 50))
          // pages of 20: disjoint, in order, together every event once
          const pages = [yield* get("?limit=20"), yield* get("?limit=20&offset=20"), yield* get("?limit=20&offset=40")]
          expect(pages.map((p) => p.total)).toEqual([56, 56, 56])
          expect(pages.map((p) => ids(p).length)).toEqual([20, 20, 16])
          expect(pages.flatMap(ids)).toEqual(newestFirst)
          expect(new Set(pages.flatMap(ids)).size).toBe(56)
          const times = pages.flatMap((p) => p.events.map((e: any) => Date.parse(e.received_at)))
          expect(times).toEqual([...times].sort((x, y) => y - x))
          // the largest page holds them all; past the end, nothing but the total
          expect(ids(yield* get("?limit=200"))).toEqual(newestFirst)
          expect(yield* get("?offset=56")).toEqual({ events: [], total: 56 })
          expect(yield* get("?offset=1000000&limit=1")).toEqual({ events: [], total: 56 })

          // each filter narrows the page and the total to exactly the matching events
          const errors = seeded.filter((e) => e[3] === "error").map((e) => e[0])
          const errorPage = yield* get("?status=error&limit=5")
          expect(errorPage.total).toBe(11)
          expect(ids(errorPage)).toEqual(errors.slice(0, 5))
          expect(ids(yield* get("?status=error&limit=5&offset=10"))).toEqual(errors.slice(10))
          expect(ids(yield* get("?platform=recorder&limit=200"))).toEqual(errors)
          const even = newestFirst.filter((id) => seeded.find((e) => e[0] === id)?.[4] === "Even@Acme.test")
          const byCloser = yield* get("?closer_email=even@acme.test&limit=200")
          expect(byCloser.total).toBe(28)
          expect(ids(byCloser)).toEqual(even)
          const both = yield* get("?closer_email=EVEN@acme.test&status=error&limit=200")
          expect(ids(both)).toEqual(errors.filter((id) => even.includes(id)))
          expect(both.total).toBe(ids(both).length)
          expect(yield* get("?platform=calendar")).toEqual({ events: [], total: 0 })

          // recent: the last 7 days' total, the ten-day-old event left out
          const recent = yield* get("/recent")
          expect(recent.total).toBe(55)
          expect(ids(recent)).toEqual(newestFirst.slice(0, 55))

          for (const query of BAD_PAGES) {
            const reply = yield* call("GET", `/v1/client-portal/events?${query}`, { session })
            expect(reply.status, query).toBe(422)
            expect(reply.body.detail.length, query).toBeGreaterThan(0)
          }
          // the bounds themselves are taken
          expect((yield* get("?limit=1&offset=0")).events).toHaveLength(1)
          expect((yield* get("?limit=200&offset=1000000")).total).toBe(56)

          // another tenant sees none of them, filtered or not, on any page
          const other = yield* newTenant()
          for (const query of ["", "?limit=200", "?offset=20", "?status=error", "?closer_email=even@acme.test"]) {
            expect((yield* call("GET", `/v1/client-portal/events${query}`, { session: other.session })).body, query).toEqual({ events: [], total: 0 })
          }
        }))
    })

    describe("outcome truth", () => {
      it.effect("a call's record: null until recorded, then replaced by each PUT; another tenant's call is 404", () =>
        Effect.gen(function* () {
          const { clientId, userId, session } = yield* newTenant()
          yield* grantCredits(clientId, 2)
          const key = yield* apiKeyOf(session)
          const callId = (yield* upload(key, fixture("renewal-stereo.mp3"))).body.call_id
          const path = `/v1/client-portal/calls/${callId}/outcome-truth`
          const none = yield* call("GET", path, { session })
          expect(none.status).toBe(200)
          expect(none.body).toBeNull()

          const won = yield* call("PUT", path, {
            session,
            body: {
              outcome: "won",
              deal_value: 48000,
              currency: "EUR",
              closed_at: "2026-11-20T15:00:00Z",
              stage: "closed",
              reason: "ROI case",
              notes: "CFO signed",
              lead_source: "Webinar",
              icp_label: "Mid-market"
            }
          })
          expect(won.status).toBe(200)
          expect(won.body).toEqual({
            call_id: callId,
            outcome: "won",
            deal_value: 48000,
            currency: "EUR",
            closed_at: "2026-11-20T15:00:00.000Z",
            stage: "closed",
            reason: "ROI case",
            notes: "CFO signed",
            is_test_data: false,
            lead_source: "Webinar",
            icp_label: "Mid-market",
            recorded_by: userId,
            created_at: expect.any(String),
            updated_at: expect.any(String)
          })
          expect((yield* call("GET", path, { session })).body).toEqual(won.body)
          const lost = yield* call("PUT", path, { session, body: { outcome: "lost" } })
          expect(lost.body).toMatchObject({ outcome: "lost", deal_value: null, currency: null, notes: null, lead_source: null, icp_label: null, created_at: won.body.created_at })

          const other = yield* newTenant()
          for (const method of ["GET", "PUT"] as const) {
            const reply = yield* call(method, path, { session: other.session, ...(method === "PUT" ? { body: { outcome: "won" } } : {}) })
            expect(reply.status, method).toBe(404)
            expect(reply.body._tag).toBe("NotFound")
          }
          expect((yield* call("GET", "/v1/client-portal/calls/call_missing/outcome-truth", { session })).status).toBe(404)
          expect((yield* call("GET", path, { session })).body.outcome).toBe("lost")
          expect((yield* auditActions(clientId)).filter((a) => a === "outcome_truth.recorded")).toHaveLength(2)
        }))

      it.effect("bad records are 422 and change nothing", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant()
          yield* grantCredits(clientId, 1)
          const callId = (yield* upload(yield* apiKeyOf(session), fixture("renewal-stereo.mp3"))).body.call_id
          const path = `/v1/client-portal/calls/${callId}/outcome-truth`
          for (const [body, field] of [
            [{ outcome: "maybe" }, "outcome"],
            [{ outcome: "won", deal_value: -5 }, "deal_value"],
            [{ outcome: "won", currency: "euro" }, "currency"],
            [{ outcome: "won", closed_at: "last friday" }, "closed_at"]
          ] as const) {
            const reply = yield* call("PUT", path, { session, body })
            expect(reply.status, JSON.stringify(body)).toBe(422)
            expect(reply.body.detail[0].loc).toEqual(["body", field])
          }
          expect((yield* call("GET", path, { session })).body).toBeNull()
        }))

      it.effect("the backlog: completed calls without a record, oldest first, valued from the market profile", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant()
          yield* grantCredits(clientId, 10)
          yield* call("PUT", "/v1/client-portal/market-profile", { session, body: { average_deal_size: 30000, currency: "EUR" } })
          const key = yield* apiKeyOf(session)
          const ids: Array<string> = []
          for (let i = 0; i < 4; i++) ids.push((yield* upload(key, fixture("renewal-stereo.mp3"), { externalCallId: `d-${i}` })).body.call_id)
          const sql = yield* SqlClient.SqlClient
          // completed 3, 2 and 1 days ago; the fourth still queued
          for (const [i, days] of [[0, 1], [1, 3], [2, 2]] as const) {
            yield* sql`UPDATE calls SET status = 'completed', started_at = now() - make_interval(days => ${days}),
                       completed_at = now() - make_interval(days => ${days}), result = '{"scorecard": {"overall": 60}}'::jsonb
                       WHERE call_id = ${ids[i]}`
          }
          const backlog = yield* call("GET", "/v1/client-portal/outcome-truth-backlog", { session })
          expect(backlog.status).toBe(200)
          expect(backlog.body).toMatchObject({ total: 3, limit: 25 })
          expect(backlog.body.calls.map((c: any) => [c.call_id, c.age_days])).toEqual([[ids[1], 3], [ids[2], 2], [ids[0], 1]])
          expect(backlog.body.calls[0]).toMatchObject({ external_call_id: "d-1", overall_score: 60, estimated_deal_value: 30000, currency: "EUR", is_test_data: false })
          // a recorded outcome leaves the backlog
          yield* call("PUT", `/v1/client-portal/calls/${ids[1]}/outcome-truth`, { session, body: { outcome: "no_decision" } })
          const page = yield* call("GET", "/v1/client-portal/outcome-truth-backlog?limit=1", { session })
          expect(page.body).toMatchObject({ total: 2, limit: 1 })
          expect(page.body.calls.map((c: any) => c.call_id)).toEqual([ids[2]])
          for (const bad of ["limit=0", "limit=201", "limit=ten", "include_test_data=maybe"]) {
            expect((yield* call("GET", `/v1/client-portal/outcome-truth-backlog?${bad}`, { session })).status, bad).toBe(422)
          }
          // a test tenant's calls are test data: left out unless asked for
          yield* sql`UPDATE tenants SET is_test = true WHERE client_id = ${clientId}`
          expect((yield* call("GET", "/v1/client-portal/outcome-truth-backlog", { session })).body.total).toBe(0)
          const withTest = yield* call("GET", "/v1/client-portal/outcome-truth-backlog?include_test_data=true", { session })
          expect(withTest.body.total).toBe(2)
          expect(withTest.body.calls[0].is_test_data).toBe(true)
          const other = yield* newTenant()
          expect((yield* call("GET", "/v1/client-portal/outcome-truth-backlog?include_test_data=true", { session: other.session })).body).toEqual({
            calls: [],
            total: 0,
            limit: 25
          })
        }))
    })

    describe("API keys and roles", () => {
      it.effect("an owner creates a key (shown once), lists it by prefix, and revokes it; the key works until then", () =>
        Effect.gen(function* () {
          const { clientId, session } = yield* newTenant()
          const created = yield* call("POST", "/v1/client-portal/api-keys", { session, body: { name: "CRM sync" } })
          expect(created.status).toBe(201)
          expect(created.body).toMatchObject({ key_id: expect.stringMatching(/^key_/), name: "CRM sync", revoked_at: null, last_used_at: null })
          const key: string = created.body.api_key
          expect(key).toMatch(/^csk_/)
          expect(created.body.prefix).toBe(key.slice(0, 12))
          const list = yield* call("GET", "/v1/client-portal/api-keys", { session })
          expect(list.body.keys).toEqual([{ ...created.body, api_key: undefined }].map(({ api_key: _, ...k }) => k))
          expect(JSON.stringify(list.body)).not.toContain(key)
          // the key is a tenant key
          expect((yield* call("GET", "/v1/teams/calls", { headers: { "x-api-key": key } })).status).toBe(200)
          const revoked = yield* call("DELETE", `/v1/client-portal/api-keys/${created.body.key_id}`, { session })
          expect(revoked.status).toBe(200)
          expect(revoked.body.revoked_at).toEqual(expect.any(String))
          expect((yield* call("GET", "/v1/teams/calls", { headers: { "x-api-key": key } })).status).toBe(401)
          // revoking again answers the key as it is
          expect((yield* call("DELETE", `/v1/client-portal/api-keys/${created.body.key_id}`, { session })).body.revoked_at).toBe(revoked.body.revoked_at)
          expect(yield* auditActions(clientId)).toEqual(["tenant.signed_up", "user.signed_in", "api_key.created", "api_key.revoked"])
          // the audit rows name the key by prefix, never the key
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ metadata: unknown }>`SELECT metadata FROM audit_logs WHERE client_id = ${clientId}`
          expect(JSON.stringify(rows)).not.toContain(key)
          expect(JSON.stringify(rows)).toContain(created.body.prefix)

          const other = yield* newTenant()
          expect((yield* call("DELETE", `/v1/client-portal/api-keys/${created.body.key_id}`, { session: other.session })).status).toBe(404)
          expect((yield* call("GET", "/v1/client-portal/api-keys", { session: other.session })).body.keys).toEqual([])
        }))

      it.effect("a member reads the portal and records outcomes of their own calls, but cannot manage API keys or closers (403)", () =>
        Effect.gen(function* () {
          const smtp = yield* Smtp
          const { clientId, session: owner } = yield* newTenant()
          const memberEmail = freshEmail("member")
          const member = yield* repSession(smtp, clientId, memberEmail)
          expect((yield* call("GET", "/v1/client-auth/me", { session: member })).body.role).toBe("member")
          for (const [method, path, body] of [
            ["GET", "/v1/client-portal/api-keys", undefined],
            ["POST", "/v1/client-portal/api-keys", { name: "mine" }],
            ["DELETE", "/v1/client-portal/api-keys/key_x", undefined],
            ["POST", "/v1/client-portal/closers", { email: freshEmail("c"), full_name: "C" }],
            ["PATCH", "/v1/client-portal/closers/clo_x", { status: "paused" }],
            ["POST", "/v1/client-portal/closers/clo_x/send-verification", undefined]
          ] as const) {
            const reply = yield* call(method, path, { session: member, ...(body === undefined ? {} : { body }) })
            expect(reply.status, `${method} ${path}`).toBe(403)
            expect(reply.body._tag).toBe("Forbidden")
          }
          expect((yield* call("GET", "/v1/client-portal/closers", { session: member })).status).toBe(200)
          expect((yield* call("PUT", "/v1/client-portal/market-profile", { session: member, body: { industry: "Retail" } })).status).toBe(200)
          yield* grantCredits(clientId, 2)
          const key = yield* apiKeyOf(owner)
          const own = (yield* upload(key, fixture("renewal-stereo.mp3"), { closerEmail: memberEmail })).body.call_id
          const others = (yield* upload(key, fixture("renewal-stereo.mp3"), { closerEmail: "someone.else@acme.test" })).body.call_id
          expect((yield* call("PUT", `/v1/client-portal/calls/${own}/outcome-truth`, { session: member, body: { outcome: "open" } })).status).toBe(200)
          // another closer's call is not theirs (the policy's "own calls"): 404, as another tenant's
          expect((yield* call("PUT", `/v1/client-portal/calls/${others}/outcome-truth`, { session: member, body: { outcome: "open" } })).status).toBe(404)
        }))
    })

    describe("audit logs", () => {
      it.effect("list the tenant's changes newest first, with actor, address and metadata, a page at a time", () =>
        Effect.gen(function* () {
          const { clientId, userId, session } = yield* newTenant()
          for (const industry of ["A", "B", "C"]) yield* call("PUT", "/v1/client-portal/market-profile", { session, body: { industry } })
          const all = yield* call("GET", "/v1/client-portal/audit-logs", { session })
          expect(all.status).toBe(200)
          expect(all.body.total).toBe(5)
          expect(all.body.entries.map((e: any) => e.action)).toEqual([
            "market_profile.saved", "market_profile.saved", "market_profile.saved", "user.signed_in", "tenant.signed_up"
          ])
          expect(all.body.entries[0]).toEqual({
            log_id: expect.stringMatching(/^aud_/),
            at: expect.any(String),
            actor: userId,
            actor_type: "user",
            action: "market_profile.saved",
            target_type: "tenant",
            target_id: clientId,
            ip: "127.0.0.1",
            metadata: { fields: expect.arrayContaining(["industry", "currency"]) }
          })
          const page = yield* call("GET", "/v1/client-portal/audit-logs?limit=2&offset=2", { session })
          expect(page.body.total).toBe(5)
          expect(page.body.entries.map((e: any) => e.log_id)).toEqual(all.body.entries.slice(2, 4).map((e: any) => e.log_id))
          expect((yield* call("GET", "/v1/client-portal/audit-logs?limit=500", { session })).status).toBe(422)
          const other = yield* newTenant()
          const theirs = yield* call("GET", "/v1/client-portal/audit-logs", { session: other.session })
          expect(theirs.body.entries.map((e: any) => e.action)).toEqual(["user.signed_in", "tenant.signed_up"])
          expect(theirs.body.entries.every((e: any) => e.target_id === other.clientId || e.target_id === other.userId)).toBe(true)
        }))

      it.effect("filters in the service: action, target type, actor (a member's e-mail or the stored actor), actor type and dates, each narrowing the entries and the total exactly; pages disjoint; bad filters 422; tenants apart", () =>
        Effect.gen(function* () {
          const smtp = yield* Smtp
          const ownerEmail = freshEmail("owner")
          const { clientId, session, userId } = yield* signUpByMail(smtp, ownerEmail)
          const adminEmail = freshEmail("admin")
          const adminSession = yield* memberSession(smtp, clientId, adminEmail, "admin")
          const adminId = `usr_member_${adminEmail}`
          for (const industry of ["A", "B"]) yield* call("PUT", "/v1/client-portal/market-profile", { session, body: { industry } })
          yield* call("PUT", "/v1/client-portal/lead-context-profile", { session: adminSession, body: { rep_channel: "left" } })
          // older rows of other actors, at known times
          const seed = `aud_seed_${clientId}`
          yield* seedAudit(clientId, { id: `${seed}_1`, at: "2020-01-15T10:00:00.000Z", actor: "staff:admin", actorType: "staff", action: "usage_bonus.granted", targetType: "tenant" })
          yield* seedAudit(clientId, { id: `${seed}_2`, at: "2020-01-16T23:59:59.999Z", actor: "system:retention", actorType: "system", action: "call.deleted", targetType: "call" })
          yield* seedAudit(clientId, { id: `${seed}_3`, at: "2020-01-17T00:00:00.000Z", actor: "key_seeded", actorType: "api_key", action: "closer.added", targetType: "closer" })

          const get = (query: string) =>
            Effect.map(call("GET", `/v1/client-portal/audit-logs${query}`, { session }), (r) => {
              expect(r.status, `${query}: ${JSON.stringify(r.body)}`).toBe(200)
              return r.body as { entries: Array<any>; total: number }
            })
          const ids = (page: { entries: Array<any> }) => page.entries.map((e) => e.log_id as string)
          const all = yield* get("?limit=200")
          expect(all.entries.map((e) => [e.action, e.actor])).toEqual([
            ["lead_context_profile.saved", adminId],
            ["market_profile.saved", userId],
            ["market_profile.saved", userId],
            ["user.signed_in", adminId],
            ["user.signed_in", userId],
            ["tenant.signed_up", userId],
            ["closer.added", "key_seeded"],
            ["call.deleted", "system:retention"],
            ["usage_bonus.granted", "staff:admin"]
          ])
          expect(all.total).toBe(9)
          /** What a filter must answer: the entries of `all` that pass `keep`, in the same order, and their count. */
          const expectFiltered = (query: string, keep: (e: any) => boolean) =>
            Effect.gen(function* () {
              const page = yield* get(`?limit=200&${query}`)
              const wanted = all.entries.filter(keep).map((e) => e.log_id)
              expect(wanted.length, query).toBeGreaterThan(0)
              expect(ids(page), query).toEqual(wanted)
              expect(page.total, query).toBe(wanted.length)
            })

          yield* expectFiltered("action=market_profile.saved", (e) => e.action === "market_profile.saved")
          yield* expectFiltered("target_type=call", (e) => e.target_type === "call")
          yield* expectFiltered("target_type=tenant", (e) => e.target_type === "tenant")
          // the actor: a member's e-mail, in any case, names their user id's entries
          yield* expectFiltered(`actor=${encodeURIComponent(ownerEmail.toUpperCase())}`, (e) => e.actor === userId)
          yield* expectFiltered(`actor=${encodeURIComponent(adminEmail)}`, (e) => e.actor === adminId)
          // or the stored actor itself
          yield* expectFiltered(`actor=${userId}`, (e) => e.actor === userId)
          yield* expectFiltered("actor=staff%3Aadmin", (e) => e.actor === "staff:admin")
          yield* expectFiltered("actor=key_seeded", (e) => e.actor === "key_seeded")
          yield* expectFiltered("actor_type=system", (e) => e.actor_type === "system")
          yield* expectFiltered("actor_type=user", (e) => e.actor_type === "user")
          // dates: inclusive bounds; a plain date as `until` is its whole day (UTC)
          yield* expectFiltered("since=2020-01-16&until=2020-01-16", (e) => e.log_id === `${seed}_2`)
          yield* expectFiltered("until=2020-01-16T23:59:59.999Z", (e) => e.log_id === `${seed}_1` || e.log_id === `${seed}_2`)
          yield* expectFiltered("since=2020-01-16T23:59:59.999Z&until=2020-01-17T00:00:00Z", (e) => e.log_id === `${seed}_2` || e.log_id === `${seed}_3`)
          yield* expectFiltered("since=2020-01-17", (e) => e.log_id !== `${seed}_1` && e.log_id !== `${seed}_2`)
          yield* expectFiltered("since=2020-01-15T10%3A00%3A00%2B00%3A00&until=2020-01-15", (e) => e.log_id === `${seed}_1`)
          // filters together
          yield* expectFiltered(`actor=${encodeURIComponent(ownerEmail)}&action=user.signed_in`, (e) => e.actor === userId && e.action === "user.signed_in")
          yield* expectFiltered("actor_type=user&target_type=tenant&since=2020-01-17", (e) => e.actor_type === "user" && e.target_type === "tenant")
          // nothing matches: an empty page and a total of 0, not an error
          for (const query of ["action=closer", "action=MARKET_PROFILE.SAVED", "target_type=nothing", "actor=nobody%40acme.test", "actor_type=staff&action=call.deleted", "until=2019-12-31", "since=2020-01-18&until=2020-01-19"]) {
            expect(yield* get(`?${query}`), query).toEqual({ entries: [], total: 0 })
          }

          // a filtered list pages too: disjoint pages in order, the filtered total on each
          const byOwner = `actor=${encodeURIComponent(ownerEmail)}`
          const pages = [yield* get(`?${byOwner}&limit=2`), yield* get(`?${byOwner}&limit=2&offset=2`), yield* get(`?${byOwner}&limit=2&offset=4`)]
          expect(pages.map((p) => p.total)).toEqual([4, 4, 4])
          expect(pages.map((p) => p.entries.length)).toEqual([2, 2, 0])
          expect(pages.flatMap(ids)).toEqual(all.entries.filter((e) => e.actor === userId).map((e) => e.log_id))
          // unfiltered pages of 4: together the whole log, once, newest first
          const whole = [yield* get("?limit=4"), yield* get("?limit=4&offset=4"), yield* get("?limit=4&offset=8")]
          expect(whole.flatMap(ids)).toEqual(ids(all))
          const times = whole.flatMap((p) => p.entries.map((e) => Date.parse(e.at)))
          expect(times).toEqual([...times].sort((x, y) => y - x))

          for (
            const query of [
              ...BAD_PAGES,
              "action=",
              "action=%20closer.added",
              `action=${"x".repeat(201)}`,
              "target_type=",
              "actor=",
              "actor_type=robot",
              "since=yesterday",
              "since=2020-02-30",
              "until=2020-01-16T10%3A00",
              "until=16%2F01%2F2020"
            ]
          ) {
            const reply = yield* call("GET", `/v1/client-portal/audit-logs?${query}`, { session })
            expect(reply.status, query).toBe(422)
            expect(reply.body.detail.length, query).toBeGreaterThan(0)
          }

          // another tenant: none of ours, whatever the filter (our owner's e-mail names no user of theirs)
          const other = yield* newTenant()
          for (const query of [`actor=${encodeURIComponent(ownerEmail)}`, `actor=${userId}`, "actor=staff%3Aadmin", "action=market_profile.saved", "until=2020-01-17"]) {
            expect((yield* call("GET", `/v1/client-portal/audit-logs?${query}`, { session: other.session })).body, query).toEqual({ entries: [], total: 0 })
          }
          // and we see none of theirs: their owner's e-mail is nobody here
          const theirs = yield* get("?actor_type=user&limit=200")
          expect(theirs.entries.every((e) => e.actor === userId || e.actor === adminId)).toBe(true)
        }))
    })
  })
})
