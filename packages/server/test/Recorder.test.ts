/**
 * The meeting recorder end to end, against local providers: a bot provider speaking the Recall.ai
 * API (bots created, read and cancelled, recordings served, status webhooks signed as Svix signs
 * them and posted to the service), OAuth 2 authorization servers and a server answering the Google
 * Calendar events list, the closers' calendars connected through the service's own OAuth flow.
 * The whole chain: a calendar event → a bot → its recording → an analysed call of the calendar's
 * closer, one monthly ingest and no credit. Then what goes wrong: a bad signature, a bot that
 * could not join, a meeting without a recording, a lost webhook, a month used up.
 *
 * The passes (scheduling, polling) are run by the test, at an instant it chooses, through the
 * service's own `Recorder` over the server's database and configuration; the server's own passes
 * wait an hour (RECORDER_SCHEDULE_INTERVAL_SECONDS).
 */
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig, type AppConfigShape } from "../src/config.js"
import { MeetingCalendarsLive } from "../src/integrations/MeetingCalendarsLive.js"
import { Recorder } from "../src/recorder/Recorder.js"
import { admin, balanceOf } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { connectCalendar as connectTo, type GoogleEvent, type MeetingProviders, startMeetingProviders } from "./utils/MeetingProviders.js"
import { call, freshEmail, memberSession, newTenant } from "./utils/PortalRequests.js"
import { type RecallServer, startRecallServer } from "./utils/RecallServer.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

class Env extends Context.Tag("test/RecorderEnv")<Env, {
  readonly recall: RecallServer
  readonly providers: MeetingProviders
  readonly config: Partial<AppConfigShape>
}>() {}

const STATUS = "/v1/client-portal/recall/status"
const ACTIVATE = "/v1/client-portal/recall/activate"
const DEACTIVATE = "/v1/client-portal/recall/deactivate"
const MEETINGS = "/v1/client-portal/recall/meetings"
const ALERTS = "/v1/internal/admin/recall-alerts"

const ZOOM = (n: number) => `https://acme.zoom.us/j/98765${n}?pwd=abc`
const MEET = (code: string) => `https://meet.google.com/${code}`
const TEAMS = "https://teams.microsoft.com/l/meetup-join/19%3ameeting_abc%40thread.v2/0"

/** The server with its workers, the bot provider and the calendar's providers local. */
const withProviders = (options: { readonly recorderKey?: boolean } = {}) =>
  Layer.unwrapScoped(Effect.gen(function* () {
    const providers = yield* startMeetingProviders
    const recall = yield* startRecallServer
    const blobDir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "callsight-recorder-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const config: Partial<AppConfigShape> = {
      ...providers.config,
      secretsKey: Option.some(Redacted.make(randomBytes(32).toString("base64"))),
      // the test's own passes write the files the server's workers read
      blobDir,
      workerConcurrency: 1,
      recorderApiUrl: recall.url,
      recorderApiKey: options.recorderKey === false ? Option.none() : Option.some(Redacted.make(recall.apiKey)),
      recorderWebhookSecret: options.recorderKey === false ? Option.none() : Option.some(Redacted.make(recall.webhookSecret)),
      recorderScheduleIntervalSeconds: 3600
    }
    return Layer.mergeAll(serverWithSmtp(config, { workers: true }), Layer.succeed(Env, { recall, providers, config }))
  }))

/** Runs `f` with the service's `Recorder` (and the calendars it reads) over the server's database and configuration. */
const withRecorder = <A, E, R>(f: (recorder: Recorder) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Env, ({ config }) =>
    Effect.provide(
      Effect.flatMap(Recorder, f),
      Layer.mergeAll(Recorder.Default, MeetingCalendarsLive).pipe(Layer.provide(AppConfig.layerWith(config)))
    ))

const schedulePass = (at?: Date) => withRecorder((r) => r.schedulePass(at))
const pollPass = (at: Date) => withRecorder((r) => r.pollPass(at))

/** The service's own address, where the bot provider posts its webhooks. */
const webhookUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address as HttpServer.TcpAddress
  return `http://127.0.0.1:${address.port}/v1/recorder/webhook`
})

/** A tenant, its owner's session and a closer. */
const tenantWithCloser = (company = "Acme") =>
  Effect.gen(function* () {
    const tenant = yield* newTenant(company)
    const added = yield* call("POST", "/v1/client-portal/closers", {
      session: tenant.session,
      body: { email: freshEmail("closer"), full_name: "Maria Closer" }
    })
    expect(added.status).toBe(200)
    return { ...tenant, closerId: added.body.closer_id as string, closerEmail: added.body.email as string }
  })

/** Connects the closer's calendar (utils/MeetingProviders.ts); the events on it are `events`. Its access token. */
const connectCalendar = (session: string, closerId: string, events: Array<GoogleEvent>) =>
  Effect.flatMap(Env, ({ providers }) => connectTo(providers, session, closerId, events))

const hoursFromNow = (h: number) => new Date(Date.now() + h * 3600_000)

let eventIds = 0
/** A calendar event as Google lists it, `start` hours from now, an hour long. */
const event = (start: number, link: { readonly conference?: string; readonly hangout?: string; readonly location?: string } = {}): GoogleEvent => ({
  id: `evt${eventIds++}x${randomBytes(4).toString("hex")}`,
  status: "confirmed",
  summary: `Demo ${eventIds}`,
  start: { dateTime: hoursFromNow(start).toISOString() },
  end: { dateTime: hoursFromNow(start + 1).toISOString() },
  ...(link.conference === undefined ? {} : { conferenceData: { entryPoints: [{ entryPointType: "video", uri: link.conference }] } }),
  ...(link.hangout === undefined ? {} : { hangoutLink: link.hangout }),
  ...(link.location === undefined ? {} : { location: link.location })
})

const activate = (session: string, body: Record<string, unknown>) => call("POST", ACTIVATE, { session, body })

const meetingsOf = (session: string) => Effect.map(call("GET", MEETINGS, { session }), (r) => r.body.meetings as Array<any>)

/** Polls `read` until `done` holds (the background fetch of a recording, the analysis). */
const eventually = <A, R>(read: Effect.Effect<A, never, R>, done: (a: A) => boolean, what: string) =>
  Effect.gen(function* () {
    for (;;) {
      const value = yield* read
      if (done(value)) return value
      yield* Effect.sleep("200 millis")
    }
  }).pipe(Effect.timeoutFail({ duration: "90 seconds", onTimeout: () => new Error(`timed out waiting for ${what}`) }), Effect.orDie)

const auditActions = (session: string) =>
  Effect.map(call("GET", "/v1/client-portal/audit-logs", { session }), (r) => r.body.entries as Array<any>)

const sql = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  Effect.orDie(Effect.flatMap(SqlClient.SqlClient, f))

describe("the meeting recorder", () => {
  layer(withProviders(), { excludeTestServices: true })("with local providers", (it) => {
    it.effect("activate, status and deactivate: the values, the audit rows, owners and admins only, 422 for unknown platforms, tenants apart", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const t = yield* newTenant()
        const other = yield* newTenant("Globex")

        const before = yield* call("GET", STATUS, { session: t.session })
        expect(before.status).toBe(200)
        expect(before.body).toEqual({
          active: false,
          join_mode: null,
          bot_name: null,
          platforms: [],
          since: null,
          meetings_recorded: 0,
          last_recording_at: null,
          meetings_upcoming: 0,
          last_7_days: { scheduled: 0, recorded: 0, failed: 0 },
          last_error: null,
          provider_configured: true
        })
        expect((yield* call("GET", STATUS)).status).toBe(401)

        // members read, but do not change it
        const member = yield* memberSession(smtp, t.clientId, freshEmail("member"))
        expect((yield* call("GET", STATUS, { session: member })).status).toBe(200)
        const refused = yield* activate(member, { join_mode: "auto", platforms: ["video"] })
        expect(refused.status).toBe(403)
        expect(refused.body._tag).toBe("Forbidden")
        expect((yield* call("POST", DEACTIVATE, { session: member })).status).toBe(403)

        // bad input
        const unknown = yield* activate(t.session, { join_mode: "auto", platforms: ["video", "skype"] })
        expect(unknown.status).toBe(422)
        expect(unknown.body.detail).toEqual([{
          loc: ["body", "platforms", 1],
          msg: "unknown platform \"skype\": one of video, google_meet, teams, webex",
          type: "value_error"
        }])
        expect((yield* activate(t.session, { join_mode: "sometimes", platforms: ["video"] })).status).toBe(422)
        expect((yield* activate(t.session, { join_mode: "auto", platforms: [] })).status).toBe(422)
        expect((yield* activate(t.session, { join_mode: "auto", platforms: ["video"], extra: 1 })).status).toBe(422)

        const on = yield* activate(t.session, { join_mode: "auto", bot_name: "Acme Notetaker", platforms: ["video", "google_meet", "video"] })
        expect(on.status).toBe(200)
        expect(on.body).toMatchObject({ active: true, join_mode: "auto", bot_name: "Acme Notetaker", platforms: ["video", "google_meet"] })
        expect(Date.now() - Date.parse(on.body.since)).toBeLessThan(60_000)
        // a change of mode keeps `since`
        const manual = yield* activate(t.session, { join_mode: "manual", platforms: ["teams"] })
        expect(manual.body).toMatchObject({ active: true, join_mode: "manual", bot_name: "Callsight Recorder", platforms: ["teams"], since: on.body.since })

        const entries = yield* auditActions(t.session)
        const activations = entries.filter((e) => e.action === "recorder.activated")
        expect(activations).toHaveLength(2)
        expect(activations[1]).toMatchObject({
          actor_type: "user",
          target_type: "recorder",
          target_id: t.clientId,
          metadata: { join_mode: "auto", bot_name: "Acme Notetaker", platforms: ["video", "google_meet"] }
        })

        // the portal reports it
        const onboarding = yield* call("GET", "/v1/client-portal/onboarding-activation", { session: t.session })
        expect(onboarding.body.steps.find((s: any) => s.key === "recorder_connected")).toMatchObject({ done: true, done_at: on.body.since })
        const cockpit = yield* call("GET", "/v1/client-portal/account-cockpit", { session: t.session })
        expect(cockpit.body.integrations.recorder_active).toBe(true)
        const kpis = yield* call("GET", "/v1/client-portal/health-kpis", { session: t.session })
        expect(kpis.body.integrations.find((i: any) => i.integration === "recorder")).toMatchObject({ connected: true, provider: "recall" })

        // another tenant sees none of it
        expect((yield* call("GET", STATUS, { session: other.session })).body).toMatchObject({ active: false, since: null })
        const theirCockpit = yield* call("GET", "/v1/client-portal/account-cockpit", { session: other.session })
        expect(theirCockpit.body.integrations.recorder_active).toBe(false)

        const off = yield* call("POST", DEACTIVATE, { session: t.session })
        expect(off.status).toBe(200)
        expect(off.body).toMatchObject({ active: false, since: null, join_mode: "manual" })
        // deactivating again changes nothing and writes no row
        expect((yield* call("POST", DEACTIVATE, { session: t.session })).status).toBe(200)
        const after = yield* auditActions(t.session)
        expect(after.filter((e) => e.action === "recorder.deactivated")).toHaveLength(1)
        const stepAfter = (yield* call("GET", "/v1/client-portal/onboarding-activation", { session: t.session })).body.steps
        expect(stepAfter.find((s: any) => s.key === "recorder_connected").done).toBe(false)
      }))

    it.effect("auto mode: one bot per calendar event with a link on an allowed platform, however many passes; deactivation cancels them", () =>
      Effect.gen(function* () {
        const { recall } = yield* Env
        const t = yield* tenantWithCloser()
        const zoom = event(2, { conference: ZOOM(1) })
        const meet = event(3, { hangout: MEET("abc-defg-hij") })
        const noLink = event(4)
        const teams = event(5, { location: `Join: ${TEAMS}` })
        const tooLate = event(30, { conference: ZOOM(2) })
        yield* connectCalendar(t.session, t.closerId, [zoom, meet, noLink, teams, tooLate])
        // a second closer invited to the same Zoom meeting: it is recorded once
        const second = yield* call("POST", "/v1/client-portal/closers", { session: t.session, body: { email: freshEmail("closer"), full_name: "Sam Second" } })
        yield* connectCalendar(t.session, second.body.closer_id, [zoom, meet, noLink, teams, tooLate])
        expect((yield* activate(t.session, { join_mode: "auto", bot_name: "Acme Notetaker", platforms: ["video", "google_meet"] })).status).toBe(200)

        const created = recall.requests.length
        const first = yield* schedulePass()
        expect(first.scheduled).toBeGreaterThanOrEqual(2)
        const again = yield* schedulePass()
        expect(again.scheduled).toBe(0)

        const meetings = yield* meetingsOf(t.session)
        expect(meetings.map((m) => [m.meeting_url, m.platform, m.state, m.source])).toEqual([
          [MEET("abc-defg-hij"), "google_meet", "scheduled", "calendar"],
          [ZOOM(1), "video", "scheduled", "calendar"]
        ])
        // attributed to the closer whose calendar was read first
        expect([t.closerEmail, second.body.email]).toContain(meetings[0].closer_email)
        expect(meetings[1].closer_email).toBe(meetings[0].closer_email)
        expect(meetings[1].join_at).toBe(new Date((zoom as any).start.dateTime).toISOString())
        expect(meetings[1].title).toBe(zoom["summary"])

        // what the provider got: two bots, for our meetings, with the key as `Token`
        const posts = recall.requests.slice(created).filter((r) => r.method === "POST")
        const ours = posts.filter((r) => meetings.some((m) => (r.body as any).metadata.callsight_meeting_id === m.meeting_id))
        expect(ours).toHaveLength(2)
        for (const r of ours) {
          expect(r.authorization).toBe(`Token ${recall.apiKey}`)
          expect(r.path).toBe("/api/v1/bot/")
          expect(r.body).toMatchObject({ bot_name: "Acme Notetaker", metadata: { client_id: t.clientId } })
        }
        expect((ours.find((r) => (r.body as any).meeting_url === ZOOM(1))!.body as any).join_at).toBe(meetings[1].join_at)

        const status = (yield* call("GET", STATUS, { session: t.session })).body
        expect(status).toMatchObject({ meetings_upcoming: 2, last_7_days: { scheduled: 2, recorded: 0, failed: 0 } })
        const events = (yield* call("GET", "/v1/client-portal/events?platform=recorder", { session: t.session })).body.events
        expect(events.map((e: any) => e.type)).toEqual(["bot_scheduled", "bot_scheduled"])

        // the Zoom bot is in its meeting already: it cannot be cancelled and finishes; the other is cancelled
        const zoomBot = recall.botOf(meetings[1].meeting_id)!
        const meetBot = recall.botOf(meetings[0].meeting_id)!
        recall.advance(zoomBot.id, ["joining_call"])
        expect((yield* call("POST", DEACTIVATE, { session: t.session })).status).toBe(200)
        expect(meetBot.deleted).toBe(true)
        expect(zoomBot.deleted).toBe(false)
        const after = yield* meetingsOf(t.session)
        expect(after.map((m) => [m.state, m.bot_status])).toEqual([["cancelled", "ready"], ["joining", "joining_call"]])
        // nothing more is scheduled while it is off
        expect((yield* schedulePass()).scheduled).toBe(0)
      }))

    it.effect("the whole chain: a calendar event → a bot → a signed webhook → the recording → an analysed call of the closer, one monthly ingest, no credit", () =>
      Effect.gen(function* () {
        const { recall } = yield* Env
        const t = yield* tenantWithCloser()
        yield* connectCalendar(t.session, t.closerId, [event(1, { conference: ZOOM(3) })])
        yield* activate(t.session, { join_mode: "auto", platforms: ["video"] })
        expect((yield* schedulePass()).scheduled).toBeGreaterThanOrEqual(1)
        const [meeting] = yield* meetingsOf(t.session)
        const bot = recall.botOf(meeting.meeting_id)!
        const url = yield* webhookUrl
        const credits = yield* balanceOf(t.clientId)
        const usage = (yield* call("GET", "/v1/client-portal/plan-usage", { session: t.session })).body

        // signatures the service refuses: 401 and nothing changes
        recall.advance(bot.id, ["joining_call", "in_call_recording", "call_ended", "done"], { recording: fixture("discovery-short.m4a") })
        const good = recall.signedWebhook(bot.id, "done")
        const forged = recall.signedWebhook(bot.id, "done", { secret: `whsec_${randomBytes(24).toString("base64")}` })
        expect(yield* recall.deliver(url, forged)).toBe(401)
        expect(yield* recall.deliver(url, { ...good, body: good.body.replace("done", "fatal") })).toBe(401)
        const stale = recall.signedWebhook(bot.id, "done", { timestamp: Math.floor(Date.now() / 1000) - 600 })
        expect(yield* recall.deliver(url, stale)).toBe(401)
        const { "svix-signature": _, ...unsigned } = good.headers
        expect(yield* recall.deliver(url, { body: good.body, headers: unsigned })).toBe(401)
        expect((yield* meetingsOf(t.session))[0]).toMatchObject({ state: "scheduled", call_id: null })
        expect(recall.downloads).not.toContain(bot.id)

        // a status on the way, then done: the recording is fetched and admitted
        expect(yield* recall.deliver(url, recall.signedWebhook(bot.id, "in_call_recording"))).toBe(200)
        expect((yield* meetingsOf(t.session))[0]).toMatchObject({ state: "in_call", bot_status: "in_call_recording" })
        expect(yield* recall.deliver(url, good)).toBe(200)
        const recorded = yield* eventually(meetingsOf(t.session), (m) => m[0].state === "recorded", "the recording")
        const callId = recorded[0].call_id as string
        expect(callId).toMatch(/^call_/)
        expect(recall.downloads).toEqual(expect.arrayContaining([bot.id]))

        const [row] = yield* sql<{ source: string; closer_email: string; external_call_id: string; format: string }>((s) =>
          s`SELECT source, closer_email, external_call_id, format FROM calls WHERE call_id = ${callId} AND client_id = ${t.clientId}`)
        expect(row).toEqual({ source: "recorder", closer_email: t.closerEmail, external_call_id: `recorder:${meeting.meeting_id}`, format: "m4a" })

        // analysed by the workers, like an upload
        yield* eventually(
          sql<{ status: string }>((s) => s`SELECT status FROM calls WHERE call_id = ${callId}`),
          (rows) => rows[0]?.status === "completed" || rows[0]?.status === "failed",
          "the analysis"
        ).pipe(Effect.tap((rows) => Effect.sync(() => expect(rows[0]!.status).toBe("completed"))))
        // one monthly ingest, no credit
        expect(yield* balanceOf(t.clientId)).toBe(credits)
        const charged = yield* sql<{ n: number }>((s) => s`SELECT count(*)::int AS n FROM credit_ledger WHERE call_id = ${callId}`)
        expect(charged[0]!.n).toBe(0)
        const after = (yield* call("GET", "/v1/client-portal/plan-usage", { session: t.session })).body
        expect(after.ingests_used).toBe(usage.ingests_used + 1)
        expect(after.credits_balance).toBe(usage.credits_balance)

        const status = (yield* call("GET", STATUS, { session: t.session })).body
        expect(status).toMatchObject({ meetings_recorded: 1, meetings_upcoming: 0, last_7_days: { recorded: 1, failed: 0 }, last_error: null })
        expect(status.last_recording_at).not.toBeNull()
        const events = (yield* call("GET", `/v1/client-portal/events?platform=recorder&closer_email=${encodeURIComponent(t.closerEmail)}`, { session: t.session })).body.events
        expect(events.map((e: any) => e.type)).toEqual(["analysis_completed", "recording_received", "bot_scheduled"])
        expect(events[1]).toMatchObject({ call_id: callId, status: "ok" })

        // a webhook delivered again changes nothing
        expect(yield* recall.deliver(url, recall.signedWebhook(bot.id, "done", { legacy: true }))).toBe(200)
        yield* withRecorder((r) => r.idle)
        const calls = yield* sql<{ n: number }>((s) => s`SELECT count(*)::int AS n FROM calls WHERE client_id = ${t.clientId}`)
        expect(calls[0]!.n).toBe(1)
      }))

    it.effect("a bot that could not join and a meeting without a recording: failed meetings, events and recall alerts for the staff", () =>
      Effect.gen(function* () {
        const { recall } = yield* Env
        const t = yield* tenantWithCloser("Initech")
        yield* connectCalendar(t.session, t.closerId, [event(1, { conference: ZOOM(4) }), event(2, { hangout: MEET("kkk-llll-mmm") })])
        yield* activate(t.session, { join_mode: "auto", platforms: ["video", "google_meet"] })
        yield* schedulePass()
        const [meet, zoom] = yield* meetingsOf(t.session)
        const url = yield* webhookUrl

        const zoomBot = recall.botOf(zoom.meeting_id)!
        recall.advance(zoomBot.id, ["joining_call", { code: "fatal", sub_code: "meeting_not_found", message: "The meeting does not exist." }])
        expect(yield* recall.deliver(url, recall.signedWebhook(zoomBot.id, "fatal"))).toBe(200)
        yield* eventually(meetingsOf(t.session), (m) => m[1].state === "failed", "the failed join")

        const meetBot = recall.botOf(meet.meeting_id)!
        recall.advance(meetBot.id, ["joining_call", "in_call_recording", "call_ended", "done"])
        expect(yield* recall.deliver(url, recall.signedWebhook(meetBot.id, "done"))).toBe(200)
        const failed = yield* eventually(meetingsOf(t.session), (m) => m[0].state === "failed", "the missing recording")
        expect(failed[1].error).toBe("the bot could not join the meeting (meeting_not_found: The meeting does not exist.)")
        expect(failed[0].error).toBe("the meeting ended without a recording to fetch")

        const alerts = yield* call("GET", `${ALERTS}?client_id=${t.clientId}`, { headers: admin })
        expect(alerts.status).toBe(200)
        expect(alerts.body.limit).toBe(50)
        expect(alerts.body.alerts).toEqual([
          expect.objectContaining({
            kind: "recording_missing",
            client_id: t.clientId,
            company_name: "Initech",
            meeting_id: meet.meeting_id,
            closer_id: t.closerId,
            closer_email: t.closerEmail,
            platform: "google_meet",
            meeting_url: MEET("kkk-llll-mmm"),
            scheduled_at: meet.join_at,
            message: "the meeting ended without a recording to fetch"
          }),
          expect.objectContaining({ kind: "bot_join_failed", meeting_id: zoom.meeting_id, platform: "video", message: failed[1].error })
        ])
        expect((yield* call("GET", `${ALERTS}?client_id=${t.clientId}&limit=1`, { headers: admin })).body.alerts.map((a: any) => a.kind)).toEqual(["recording_missing"])
        const everyone = (yield* call("GET", ALERTS, { headers: admin })).body.alerts
        expect(everyone.filter((a: any) => a.client_id === t.clientId)).toHaveLength(2)
        for (const [i, a] of everyone.entries()) if (i > 0) expect(a.occurred_at <= everyone[i - 1].occurred_at).toBe(true)
        expect((yield* call("GET", `${ALERTS}?client_id=cli_unknown`, { headers: admin })).status).toBe(404)
        expect((yield* call("GET", `${ALERTS}?limit=0`, { headers: admin })).status).toBe(422)
        expect((yield* call("GET", ALERTS, { headers: { "x-api-key": "csa_not_the_key" } })).status).toBe(401)
        const other = yield* newTenant("Hooli")
        expect((yield* call("GET", `${ALERTS}?client_id=${other.clientId}`, { headers: admin })).body.alerts).toEqual([])

        const status = (yield* call("GET", STATUS, { session: t.session })).body
        expect(status.last_7_days).toEqual({ scheduled: 2, recorded: 0, failed: 2 })
        expect(status.last_error).toMatchObject({ message: "the meeting ended without a recording to fetch" })
        const events = (yield* call("GET", "/v1/client-portal/events?platform=recorder&status=error", { session: t.session })).body.events
        expect(events.map((e: any) => e.type)).toEqual(["recording_missing", "bot_join_failed"])
        const kpi = (yield* call("GET", "/v1/client-portal/health-kpis", { session: t.session })).body.integrations.find((i: any) => i.integration === "recorder")
        expect(kpi).toMatchObject({ connected: true, events_7d: 4, error_rate_7d: 0.5, last_error: "the meeting ended without a recording to fetch" })
        // the webhook again: one alert per meeting and kind
        expect(yield* recall.deliver(url, recall.signedWebhook(meetBot.id, "done"))).toBe(200)
        expect((yield* call("GET", `${ALERTS}?client_id=${t.clientId}`, { headers: admin })).body.alerts).toHaveLength(2)
      }))

    it.effect("manual mode: a meeting asked for by hand; its lost webhook is made up for by the polling pass", () =>
      Effect.gen(function* () {
        const { recall } = yield* Env
        const smtp = yield* Smtp
        const t = yield* tenantWithCloser()
        const other = yield* tenantWithCloser("Globex")
        const joinAt = new Date(Date.now() + 60_000).toISOString()
        const endsAt = new Date(Date.now() + 31 * 60_000).toISOString()
        const ask = (session: string, body: Record<string, unknown>) => call("POST", MEETINGS, { session, body })

        // not active yet
        expect((yield* ask(t.session, { closer_id: t.closerId, meeting_url: ZOOM(5) })).status).toBe(409)
        yield* activate(t.session, { join_mode: "manual", platforms: ["video"] })
        // the calendar is not read in manual mode
        yield* connectCalendar(t.session, t.closerId, [event(1, { conference: ZOOM(6) })])
        yield* schedulePass()
        expect(yield* meetingsOf(t.session)).toEqual([])

        const member = yield* memberSession(smtp, t.clientId, freshEmail("member"))
        expect((yield* ask(member, { closer_id: t.closerId, meeting_url: ZOOM(5) })).status).toBe(403)
        expect((yield* ask(t.session, { closer_id: other.closerId, meeting_url: ZOOM(5) })).status).toBe(404)
        const notAMeeting = yield* ask(t.session, { closer_id: t.closerId, meeting_url: "https://example.com/call" })
        expect(notAMeeting.status).toBe(422)
        expect(notAMeeting.body.detail[0].loc).toEqual(["body", "meeting_url"])
        expect((yield* ask(t.session, { closer_id: t.closerId, meeting_url: TEAMS })).status).toBe(422)
        expect((yield* ask(t.session, { closer_id: t.closerId, meeting_url: ZOOM(5), join_at: "2020-01-01T10:00:00Z" })).status).toBe(422)
        expect((yield* ask(t.session, { closer_id: t.closerId, meeting_url: ZOOM(5), join_at: "tomorrow" })).status).toBe(422)

        const asked = yield* ask(t.session, { closer_id: t.closerId, meeting_url: ZOOM(5), join_at: joinAt, ends_at: endsAt, title: "Renewal" })
        expect(asked.status).toBe(201)
        expect(asked.body).toMatchObject({
          source: "manual",
          state: "scheduled",
          closer_id: t.closerId,
          closer_email: t.closerEmail,
          platform: "video",
          title: "Renewal",
          join_at: joinAt,
          ends_at: endsAt,
          call_id: null
        })
        expect((yield* auditActions(t.session)).find((e) => e.action === "recorder.meeting_requested")).toMatchObject({
          target_type: "recorder_meeting",
          target_id: asked.body.meeting_id
        })
        // the other tenant sees nothing of it
        expect(yield* meetingsOf(other.session)).toEqual([])

        // the meeting happens; its webhooks never arrive
        const bot = recall.botOf(asked.body.meeting_id)!
        recall.advance(bot.id, ["joining_call", "in_call_recording", "call_ended", "done"], { recording: fixture("demo-objection.mp3") })
        // not over yet by its end time: not polled
        yield* pollPass(new Date())
        expect((yield* meetingsOf(t.session))[0]).toMatchObject({ state: "scheduled", call_id: null })
        const polled = yield* pollPass(new Date(Date.now() + 2 * 3600_000))
        expect(polled.settled).toBeGreaterThanOrEqual(1)
        const [meeting] = yield* meetingsOf(t.session)
        expect(meeting).toMatchObject({ state: "recorded", bot_status: "done" })
        const [row] = yield* sql<{ source: string; closer_email: string }>((s) =>
          s`SELECT source, closer_email FROM calls WHERE call_id = ${meeting.call_id}`)
        expect(row).toEqual({ source: "recorder", closer_email: t.closerEmail })
        // polled again: nothing more
        yield* pollPass(new Date(Date.now() + 3 * 3600_000))
        const calls = yield* sql<{ n: number }>((s) => s`SELECT count(*)::int AS n FROM calls WHERE client_id = ${t.clientId}`)
        expect(calls[0]!.n).toBe(1)
      }))

    it.effect("over the plan's monthly ingests: no call, an alert and an event instead", () =>
      Effect.gen(function* () {
        const { recall } = yield* Env
        const t = yield* tenantWithCloser()
        yield* activate(t.session, { join_mode: "manual", platforms: ["google_meet"] })
        // the trial's 10 calls of the month are used up
        yield* Effect.orDie(Effect.flatMap(SqlClient.SqlClient, (s) =>
          Effect.forEach(Array.from({ length: 10 }, (_, i) => i), (i) =>
            s`INSERT INTO calls (call_id, client_id, status, format, blob_key, size_bytes, sha256)
              VALUES (${`call_filler_${t.clientId}_${i}`}, ${t.clientId}, 'completed', 'mp3', 'none', 1, 'x')`)))
        const asked = yield* call("POST", MEETINGS, { session: t.session, body: { closer_id: t.closerId, meeting_url: MEET("ppp-qqqq-rrr") } })
        expect(asked.status).toBe(201)
        const bot = recall.botOf(asked.body.meeting_id)!
        recall.advance(bot.id, ["joining_call", "in_call_recording", "call_ended", "done"], { recording: fixture("discovery-short.mp3") })
        yield* pollPass(new Date(Date.now() + 2 * 3600_000))
        const [meeting] = yield* meetingsOf(t.session)
        expect(meeting).toMatchObject({ state: "failed", call_id: null })
        expect(meeting.error).toBe("the recording was not analysed: the plan's 10 calls of this month are used up")
        const calls = yield* sql<{ n: number }>((s) => s`SELECT count(*)::int AS n FROM calls WHERE client_id = ${t.clientId} AND source = 'recorder'`)
        expect(calls[0]!.n).toBe(0)
        const alerts = (yield* call("GET", `${ALERTS}?client_id=${t.clientId}`, { headers: admin })).body.alerts
        expect(alerts.map((a: any) => a.kind)).toEqual(["ingest_limit_reached"])
        const events = (yield* call("GET", "/v1/client-portal/events?platform=recorder&status=error", { session: t.session })).body.events
        expect(events.map((e: any) => e.type)).toEqual(["recording_refused"])
      }))
  })

  layer(withProviders({ recorderKey: false }), { excludeTestServices: true })("without RECORDER_API_KEY", (it) => {
    it.effect("activation is 409 naming the variable; webhooks are refused; the status says so", () =>
      Effect.gen(function* () {
        const t = yield* newTenant()
        const refused = yield* activate(t.session, { join_mode: "auto", platforms: ["video"] })
        expect(refused.status).toBe(409)
        expect(refused.body.message).toContain("RECORDER_API_KEY")
        expect((yield* call("GET", STATUS, { session: t.session })).body).toMatchObject({ active: false, provider_configured: false })
        const { recall } = yield* Env
        expect(yield* recall.deliver(yield* webhookUrl, recall.signedWebhook("some-bot", "done"))).toBe(401)
        expect((yield* schedulePass()).scheduled).toBe(0)
      }))
  })
})
