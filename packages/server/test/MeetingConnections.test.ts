/**
 * The calendar and video connections of closers, against local providers: OAuth 2 authorization
 * servers (`oauth2-mock-server`, checking PKCE S256) and a server answering the Google Calendar
 * events list. The whole flow as a browser makes it (start, consent at the provider, the callback
 * with the session cookie), the state's rules (single use, expiry, bound to its user), the provider
 * refusing a code or a refresh, refresh before expiry, revocation on disconnect, the roles, other
 * tenants, and no token anywhere it should not be.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { AppConfig, type AppConfigShape } from "../src/config.js"
import { MeetingCalendarsLive } from "../src/integrations/MeetingCalendarsLive.js"
import { MeetingConnections } from "../src/integrations/MeetingConnections.js"
import { MeetingCalendars } from "../src/ports/MeetingCalendars.js"
import { Secrets } from "../src/tenancy/Secrets.js"
import { CALENDAR_CLIENT, consent, type MeetingProviders, startMeetingProviders, VIDEO_CLIENT } from "./utils/MeetingProviders.js"
import { call, freshEmail, memberSession, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

class Providers extends Context.Tag("test/MeetingProviders")<Providers, MeetingProviders>() {}
class ServerConfig extends Context.Tag("test/ServerConfig")<ServerConfig, Partial<AppConfigShape>>() {}
/** Every log line of the server, to search for tokens. */
class Logs extends Context.Tag("test/Logs")<Logs, Array<string>>() {}

const secretsKey = Option.some(Redacted.make(randomBytes(32).toString("base64")))

const withProviders = Layer.unwrapScoped(Effect.gen(function* () {
  const providers = yield* startMeetingProviders
  const config = { ...providers.config, secretsKey }
  const logs: Array<string> = []
  return Layer.mergeAll(
    serverWithSmtp(config, { logs }),
    Layer.succeed(Providers, providers),
    Layer.succeed(ServerConfig, config),
    Layer.succeed(Logs, logs)
  )
}))

/** The service's own implementations, over the test's database and the server's configuration. */
const withServices = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(ServerConfig, (config) =>
    Effect.provide(effect, Layer.mergeAll(MeetingCalendarsLive, MeetingConnections.Default, Secrets.Default).pipe(Layer.provide(AppConfig.layerWith(config)))))

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/** A tenant, its owner's session, and a closer. */
const tenantWithCloser = Effect.gen(function* () {
  const tenant = yield* newTenant()
  const added = yield* call("POST", "/v1/client-portal/closers", {
    session: tenant.session,
    body: { email: freshEmail("closer"), full_name: "Maria Closer" }
  })
  expect(added.status).toBe(200)
  return { ...tenant, closerId: added.body.closer_id as string, closerEmail: added.body.email as string }
})

const callbackPath = (kind: string, code: string, state: string) =>
  `/v1/client-portal/integrations/${kind}/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`

/** Start, consent at the provider, come back with the session: the callback's reply and what was sent. */
const connect = (session: string, closerId: string, kind: "calendar" | "video" = "calendar") =>
  Effect.gen(function* () {
    const started = yield* call("POST", `/v1/client-portal/closers/${closerId}/integrations/${kind}/start`, { session })
    expect(started.status).toBe(200)
    const back = yield* consent(started.body.authorization_url)
    const reply = yield* call("GET", callbackPath(kind, back.code, back.state), { session })
    return { started, back, reply }
  })

const closerOf = (session: string, closerId: string) =>
  Effect.map(call("GET", "/v1/client-portal/closers", { session }), (r) => r.body.closers.find((c: any) => c.closer_id === closerId))

describe("calendar and video connections", () => {
  layer(withProviders, { excludeTestServices: true })("with local providers", (it) => {
    it.effect("start → consent → callback: PKCE S256, the state hashed, the tokens sealed, the closer connected, a 302 to the portal", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const sql = yield* SqlClient.SqlClient
        const t = yield* tenantWithCloser
        const { back, reply, started } = yield* connect(t.session, t.closerId)

        const url = new URL(started.body.authorization_url)
        expect(`${url.origin}${url.pathname}`).toBe(`${providers.calendar.url}/authorize`)
        const q = Object.fromEntries(url.searchParams)
        expect(q).toMatchObject({
          response_type: "code",
          client_id: CALENDAR_CLIENT.id,
          redirect_uri: "http://localhost:8080/v1/client-portal/integrations/calendar/callback",
          scope: "https://www.googleapis.com/auth/calendar.events.readonly",
          code_challenge_method: "S256",
          access_type: "offline"
        })
        expect(q["state"]).toMatch(/^[A-Za-z0-9_-]{43}$/) // 32 random bytes
        expect(q["code_challenge"]).toMatch(/^[A-Za-z0-9_-]{43}$/)
        expect(started.body).toMatchObject({ closer_id: t.closerId, kind: "calendar" })
        expect(Date.parse(started.body.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000)
        // the state is kept only as its hash
        const states = yield* sql<{ state_hash: string }>`SELECT state_hash FROM oauth_states WHERE closer_id = ${t.closerId}`
        expect(states.map((s) => s.state_hash)).toEqual([sha256(q["state"]!)])

        expect(reply.status).toBe(302)
        expect(reply.headers["location"]).toBe(
          `http://localhost:8080/app/settings/integrations?closer_id=${t.closerId}&integration=calendar&status=connected`
        )
        // the code was exchanged with the verifier (the provider checks it against the challenge) and the client's secret
        const exchange = providers.calendar.exchanges.find((e) => e.body["code"] === back.code)!
        expect(exchange).toMatchObject({ grantType: "authorization_code", status: 200 })
        expect(exchange.body).toMatchObject({ client_id: CALENDAR_CLIENT.id, client_secret: CALENDAR_CLIENT.secret })
        expect(exchange.body["code_verifier"]).toMatch(/^[A-Za-z0-9_-]{43,128}$/)

        const closer = yield* closerOf(t.session, t.closerId)
        expect(closer.calendar).toMatchObject({ connected: true })
        expect(Date.parse(closer.calendar.token_expires_at) - Date.now()).toBeGreaterThan(3000 * 1000)
        expect(closer.video).toEqual({ connected: false, connected_at: null, token_expires_at: null })

        // sealed at rest; no token in the audit log, the events or any answer
        const rows = yield* sql<any>`SELECT * FROM closer_integrations WHERE closer_id = ${t.closerId}`
        expect(rows).toHaveLength(1)
        const secrets = [exchange.accessToken!, exchange.refreshToken!, back.code]
        const audit = yield* sql<any>`SELECT * FROM audit_logs WHERE client_id = ${t.clientId}`
        const events = yield* sql<any>`SELECT * FROM call_events WHERE client_id = ${t.clientId}`
        const answers = [started.body, reply.body, closer, (yield* call("GET", "/v1/client-portal/audit-logs", { session: t.session })).body]
        const logs = yield* Logs
        expect(logs.length).toBeGreaterThan(0)
        for (const secret of secrets) {
          for (const place of [rows, audit, events, answers, logs]) expect(JSON.stringify(place)).not.toContain(secret)
        }
        expect(rows[0].token_last4).toBe(exchange.accessToken!.slice(-4))
        expect(audit.map((a: any) => a.action)).toContain("calendar.connected")
        expect(events.map((e: any) => [e.type, e.platform, e.closer_email])).toContainEqual(["integration_connected", "calendar", t.closerEmail])
      }))

    it.effect("a state is used once, expires after 10 minutes, is bound to its user; unknown is refused: a 400 page, nothing stored", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const smtp = yield* Smtp
        const t = yield* tenantWithCloser
        const stored = () => sql<{ n: number }>`SELECT count(*)::int AS n FROM closer_integrations WHERE closer_id = ${t.closerId}`.pipe(
          Effect.map((r) => r[0]!.n)
        )
        const start = () =>
          Effect.flatMap(call("POST", `/v1/client-portal/closers/${t.closerId}/integrations/calendar/start`, { session: t.session }), (s) =>
            consent(s.body.authorization_url))

        // unknown
        const unknown = yield* call("GET", callbackPath("calendar", "some-code", "not-a-state"), { session: t.session })
        expect(unknown.status).toBe(400)
        expect(unknown.headers["content-type"]).toContain("text/html")
        expect(unknown.body).toContain("unknown")

        // another user of the same tenant (a member) or no session at all: refused, the flow still usable by its user
        const first = yield* start()
        const member = yield* memberSession(smtp, t.clientId, freshEmail("member"))
        const foreign = yield* call("GET", callbackPath("calendar", first.code, first.state), { session: member })
        expect(foreign.status).toBe(400)
        expect(foreign.body).toContain("another user")
        expect((yield* call("GET", callbackPath("calendar", first.code, first.state))).status).toBe(400)
        // a video callback does not take a calendar state
        expect((yield* call("GET", callbackPath("video", first.code, first.state), { session: t.session })).status).toBe(400)
        expect(yield* stored()).toBe(0)
        expect((yield* call("GET", callbackPath("calendar", first.code, first.state), { session: t.session })).status).toBe(302)
        expect(yield* stored()).toBe(1)

        // used
        const again = yield* call("GET", callbackPath("calendar", first.code, first.state), { session: t.session })
        expect(again.status).toBe(400)
        expect(again.body).toContain("already used")

        // expired
        const late = yield* start()
        yield* sql`UPDATE oauth_states SET expires_at = now() - interval '1 second' WHERE state_hash = ${sha256(late.state)}`
        const expired = yield* call("GET", callbackPath("calendar", late.code, late.state), { session: t.session })
        expect(expired.status).toBe(400)
        expect(expired.body).toContain("expired")
      }))

    it.effect("a code the provider refuses is a 400 page and nothing is stored", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const sql = yield* SqlClient.SqlClient
        const t = yield* tenantWithCloser
        providers.calendar.refuse.add("authorization_code")
        const { reply } = yield* connect(t.session, t.closerId).pipe(Effect.ensuring(Effect.sync(() => providers.calendar.refuse.delete("authorization_code"))))
        expect(reply.status).toBe(400)
        expect(reply.body).toContain("invalid_grant")
        expect((yield* sql`SELECT 1 FROM closer_integrations WHERE closer_id = ${t.closerId}`).length).toBe(0)
        expect((yield* closerOf(t.session, t.closerId)).calendar.connected).toBe(false)
      }))

    it.effect("the calendar's events through MeetingCalendars: meeting links found, a token near expiry refreshed first, a refused refresh puts the connection in error", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const sql = yield* SqlClient.SqlClient
        const t = yield* tenantWithCloser
        const { back } = yield* connect(t.session, t.closerId)
        const issued = providers.calendar.exchanges.find((e) => e.body["code"] === back.code)!
        const soon = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString()
        providers.events.set(issued.accessToken!, [
          { id: "ev-zoom", summary: "Demo with Initech", start: { dateTime: soon(60) }, end: { dateTime: soon(90) }, location: "https://acme.zoom.us/j/123456789?pwd=x" },
          { id: "ev-meet", summary: "Discovery", start: { dateTime: soon(120) }, end: { dateTime: soon(150) }, hangoutLink: "https://meet.google.com/abc-defg-hij" },
          { id: "ev-none", summary: "Lunch", start: { dateTime: soon(30) }, end: { dateTime: soon(45) } },
          { id: "ev-allday", summary: "Offsite", start: { date: "2030-01-01" }, end: { date: "2030-01-02" } },
          { id: "ev-late", summary: "Next week", start: { dateTime: soon(60 * 48) }, end: { dateTime: soon(60 * 49) }, hangoutLink: "https://meet.google.com/x" }
        ])

        const window = { from: new Date(), to: new Date(Date.now() + 24 * 3600_000) }
        const { connected, events } = yield* withServices(Effect.gen(function* () {
          const calendars = yield* MeetingCalendars
          const connected = yield* calendars.connected(t.clientId as any)
          return { connected, events: yield* calendars.upcoming(connected[0]!, window) }
        }))
        expect(connected).toEqual([{ clientId: t.clientId, closerId: t.closerId, closerEmail: t.closerEmail }])
        expect(events.map((e) => [e.eventId, e.meetingUrl])).toEqual([
          ["ev-none", null],
          ["ev-zoom", "https://acme.zoom.us/j/123456789?pwd=x"],
          ["ev-meet", "https://meet.google.com/abc-defg-hij"]
        ])
        const asked = providers.calendarCalls.at(-1)!
        expect(asked.token).toBe(issued.accessToken)
        expect(asked.query).toMatchObject({ singleEvents: "true", orderBy: "startTime", timeMin: window.from.toISOString() })

        // expiring within the refresh margin: refreshed with the refresh token first, the new token used
        yield* sql`UPDATE closer_integrations SET token_expires_at = now() + interval '1 minute' WHERE closer_id = ${t.closerId}`
        yield* withServices(Effect.flatMap(MeetingCalendars, (c) => c.upcoming(connected[0]!, window)))
        const refreshed = providers.calendar.exchanges.at(-1)!
        expect(refreshed).toMatchObject({ grantType: "refresh_token", status: 200 })
        expect(refreshed.body["refresh_token"]).toBe(issued.refreshToken)
        expect(providers.calendarCalls.at(-1)!.token).toBe(refreshed.accessToken)
        const [row] = yield* sql<any>`SELECT status, token_expires_at FROM closer_integrations WHERE closer_id = ${t.closerId}`
        expect(row.status).toBe("connected")
        expect(new Date(row.token_expires_at).getTime() - Date.now()).toBeGreaterThan(3000 * 1000)

        // the cockpit counts the connection, the health KPI shows it with its expiry
        const cockpit = (yield* call("GET", "/v1/client-portal/account-cockpit", { session: t.session })).body
        expect(cockpit.integrations).toMatchObject({ calendar_connected: 1, video_connected: 0 })
        const kpi = (yield* call("GET", "/v1/client-portal/health-kpis", { session: t.session })).body.integrations
          .find((i: any) => i.integration === "calendar")
        expect(kpi).toMatchObject({ provider: "google-calendar", connected: true, last_error: null })
        expect(kpi.last_success_at).not.toBeNull()
        expect(kpi.token_expires_at).not.toBeNull()

        // the provider refuses the refresh: error, an event, the closer no longer connected, the calendar unavailable
        yield* sql`UPDATE closer_integrations SET token_expires_at = now() - interval '1 minute' WHERE closer_id = ${t.closerId}`
        providers.calendar.refuse.add("refresh_token")
        const failed = yield* withServices(Effect.flatMap(MeetingCalendars, (c) => Effect.flip(c.upcoming(connected[0]!, window)))).pipe(
          Effect.ensuring(Effect.sync(() => providers.calendar.refuse.delete("refresh_token")))
        )
        expect(failed._tag).toBe("CalendarUnavailable")
        expect(failed.message).toContain("invalid_grant")
        const [errored] = yield* sql<any>`SELECT status, last_error FROM closer_integrations WHERE closer_id = ${t.closerId}`
        expect(errored.status).toBe("error")
        expect(errored.last_error).toContain("invalid_grant")
        expect((yield* closerOf(t.session, t.closerId)).calendar.connected).toBe(false)
        const after = (yield* call("GET", "/v1/client-portal/account-cockpit", { session: t.session })).body
        expect(after.integrations.calendar_connected).toBe(0)
        expect(after.open_alerts).toContainEqual(expect.objectContaining({
          code: "integration_error",
          severity: "warning",
          message: expect.stringContaining(`The calendar of ${t.closerEmail} stopped working`)
        }))
        const kpiAfter = (yield* call("GET", "/v1/client-portal/health-kpis", { session: t.session })).body.integrations
          .find((i: any) => i.integration === "calendar")
        expect(kpiAfter).toMatchObject({ connected: false, last_error: expect.stringContaining("invalid_grant") })
        expect(kpiAfter.error_rate_7d).toBeGreaterThan(0)
        const events2 = (yield* call("GET", "/v1/client-portal/events?platform=calendar", { session: t.session })).body.events
        expect(events2.map((e: any) => [e.type, e.status])).toContainEqual(["integration_error", "error"])
        expect(yield* withServices(Effect.flatMap(MeetingCalendars, (c) => c.connected(t.clientId as any)))).toEqual([])
      }))

    it.effect("the video tool's scheduled meetings join the calendar's events, those already on the calendar once; one source failing leaves the other", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const t = yield* tenantWithCloser
        const calendarSide = yield* connect(t.session, t.closerId, "calendar")
        const videoSide = yield* connect(t.session, t.closerId, "video")
        const calendarToken = providers.calendar.exchanges.find((e) => e.body["code"] === calendarSide.back.code)!.accessToken!
        const videoToken = providers.video.exchanges.find((e) => e.body["code"] === videoSide.back.code)!.accessToken!
        const at = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 + minutes * 60_000)
        providers.events.set(calendarToken, [
          { id: "ev-1", summary: "Demo", start: { dateTime: at(60).toISOString() }, end: { dateTime: at(90).toISOString() }, location: "https://acme.zoom.us/j/111?pwd=abc" }
        ])
        providers.meetings.set(videoToken, [
          // the same meeting as the calendar event (its link without the password): once
          { id: 111, topic: "Demo", start_time: at(60).toISOString().replace(".000", ""), duration: 30, join_url: "https://acme.zoom.us/j/111" },
          { id: 222, topic: "Pricing call", start_time: at(180).toISOString().replace(".000", ""), duration: 45, join_url: "https://acme.zoom.us/j/222" },
          { id: 333, topic: "Instant meeting", join_url: "https://acme.zoom.us/j/333" },
          { id: 444, topic: "In three days", start_time: at(3 * 24 * 60).toISOString(), duration: 30, join_url: "https://acme.zoom.us/j/444" }
        ])
        const window = { from: new Date(), to: new Date(Date.now() + 24 * 3600_000) }
        const calendar = { clientId: t.clientId as any, closerId: t.closerId as any, closerEmail: t.closerEmail }
        const events = yield* withServices(Effect.flatMap(MeetingCalendars, (c) => c.upcoming(calendar, window)))
        expect(events).toEqual([
          { eventId: "ev-1", title: "Demo", startsAt: at(60).toISOString(), endsAt: at(90).toISOString(), meetingUrl: "https://acme.zoom.us/j/111?pwd=abc", attendees: [] },
          { eventId: `video:222:${at(180).toISOString()}`, title: "Pricing call", startsAt: at(180).toISOString(), endsAt: at(225).toISOString(), meetingUrl: "https://acme.zoom.us/j/222", attendees: [] }
        ])
        // the calendar refuses its token (no refresh possible): the video tool's meetings still come
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE closer_integrations SET sealed_refresh_token = NULL, sealed_access_token = ${
          yield* withServices(Effect.map(Secrets, (s) => s.encrypt("revoked-token")))
        } WHERE closer_id = ${t.closerId} AND kind = 'calendar'`
        const videoOnly = yield* withServices(Effect.flatMap(MeetingCalendars, (c) => c.upcoming(calendar, window)))
        expect(videoOnly.map((e) => e.meetingUrl)).toEqual(["https://acme.zoom.us/j/111", "https://acme.zoom.us/j/222"])
        expect((yield* closerOf(t.session, t.closerId)).calendar.connected).toBe(false)
      }))

    it.effect("the background pass refreshes tokens about to expire", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const sql = yield* SqlClient.SqlClient
        const t = yield* tenantWithCloser
        yield* connect(t.session, t.closerId)
        yield* sql`UPDATE closer_integrations SET token_expires_at = now() + interval '3 minutes' WHERE closer_id = ${t.closerId}`
        const before = providers.calendar.exchanges.length
        const pass = yield* withServices(Effect.flatMap(MeetingConnections, (m) => m.refreshExpiring))
        expect(pass.refreshed).toBeGreaterThanOrEqual(1)
        expect(providers.calendar.exchanges.slice(before).map((e) => e.grantType)).toContain("refresh_token")
      }))

    it.effect("video: connected with the client's secret as HTTP Basic; disconnect revokes at the provider and forgets the tokens; again 404", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const sql = yield* SqlClient.SqlClient
        const t = yield* tenantWithCloser
        const { back, reply } = yield* connect(t.session, t.closerId, "video")
        expect(reply.status, String(reply.body)).toBe(302)
        const exchange = providers.video.exchanges.find((e) => e.body["code"] === back.code)!
        // HTTP Basic with the client's id and secret form-encoded first (RFC 6749, 2.3.1)
        const basic = Buffer.from(exchange.authorization!.replace(/^Basic /, ""), "base64").toString("utf8").split(":")
        expect(basic.map(decodeURIComponent)).toEqual([VIDEO_CLIENT.id, VIDEO_CLIENT.secret])
        expect(exchange.body["client_secret"]).toBeUndefined()
        expect((yield* closerOf(t.session, t.closerId)).video.connected).toBe(true)

        const removed = yield* call("DELETE", `/v1/client-portal/closers/${t.closerId}/integrations/video`, { session: t.session })
        expect(removed.status).toBe(200)
        expect(removed.body).toMatchObject({ closer_id: t.closerId, video: { connected: false, connected_at: null } })
        expect(providers.video.revoked).toContain(exchange.refreshToken)
        expect((yield* sql`SELECT 1 FROM closer_integrations WHERE closer_id = ${t.closerId}`).length).toBe(0)
        const audit = yield* sql<any>`SELECT action, metadata FROM audit_logs WHERE client_id = ${t.clientId} AND action = 'video.disconnected'`
        expect(audit).toHaveLength(1)
        expect(JSON.stringify(audit)).not.toContain(exchange.refreshToken!)
        expect((yield* call("DELETE", `/v1/client-portal/closers/${t.closerId}/integrations/video`, { session: t.session })).status).toBe(404)
        // no token any provider issued in this file's tests, nor a client secret, is in a log line
        const logs = (yield* Logs).join("\n")
        for (const e of [...providers.calendar.exchanges, ...providers.video.exchanges]) {
          for (const secret of [e.accessToken, e.refreshToken, e.body["code"], e.body["code_verifier"]]) {
            if (secret !== undefined) expect(logs).not.toContain(secret)
          }
        }
        for (const secret of [CALENDAR_CLIENT.secret, VIDEO_CLIENT.secret]) expect(logs).not.toContain(secret)
      }))

    it.effect("members get 403, another tenant's closer 404, a removed closer 409", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const t = yield* tenantWithCloser
        const other = yield* tenantWithCloser
        const member = yield* memberSession(smtp, t.clientId, freshEmail("member"))
        for (const [method, path] of [
          ["POST", `/v1/client-portal/closers/${t.closerId}/integrations/calendar/start`],
          ["DELETE", `/v1/client-portal/closers/${t.closerId}/integrations/calendar`],
          ["POST", `/v1/client-portal/closers/${t.closerId}/integrations/video/start`],
          ["DELETE", `/v1/client-portal/closers/${t.closerId}/integrations/video`]
        ] as const) {
          expect((yield* call(method, path, { session: member })).status, `${method} ${path}`).toBe(403)
          expect((yield* call(method, path.replace(t.closerId, other.closerId), { session: t.session })).status).toBe(404)
        }
        expect((yield* call("POST", `/v1/client-portal/closers/${t.closerId}/integrations/calendar/start`)).status).toBe(401)
        yield* call("PATCH", `/v1/client-portal/closers/${t.closerId}`, { session: t.session, body: { status: "removed" } })
        const removed = yield* call("POST", `/v1/client-portal/closers/${t.closerId}/integrations/calendar/start`, { session: t.session })
        expect(removed.status).toBe(409)
      }))
  })

  layer(serverWithSmtp({}), { excludeTestServices: true })("without a configured client", (it) => {
    it.effect("start answers 409 naming the missing variable", () =>
      Effect.gen(function* () {
        const t = yield* tenantWithCloser
        for (const [kind, variable] of [["calendar", "CALENDAR_CLIENT_ID"], ["video", "VIDEO_CLIENT_ID"]] as const) {
          const reply = yield* call("POST", `/v1/client-portal/closers/${t.closerId}/integrations/${kind}/start`, { session: t.session })
          expect(reply.status).toBe(409)
          expect(reply.body.message).toContain(variable)
        }
      }))
  })
})
