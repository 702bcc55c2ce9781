/**
 * Local providers of the closers' meeting tools: two OAuth 2 authorization servers
 * (`oauth2-mock-server`, which checks PKCE S256 at its token endpoint) standing for Google's and
 * Zoom's, and one API server answering the Google Calendar API v3 events list
 * (`GET /calendars/primary/events`) for the access tokens the calendar's authorization server
 * issued and Zoom's upcoming meetings (`GET /v2/users/me/meetings?type=upcoming`) for the video
 * server's, with the events and meetings a test puts on each token's account.
 *
 * `startMeetingProviders` is scoped: everything closes with the scope. `config` is what the
 * service needs to use them (`CALENDAR_*`, `VIDEO_*`).
 */
import { expect } from "@effect/vitest"
import { Effect, Option, Redacted, type Scope } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { OAuth2Server } from "oauth2-mock-server"
import type { AppConfigShape } from "../../src/config.js"
import { call } from "./PortalRequests.js"

export const CALENDAR_CLIENT = { id: "calendar-client", secret: "calendar-client-secret" }
export const VIDEO_CLIENT = { id: "video-client", secret: "video-client-secret" }

/** What a token endpoint was asked, and what it answered. */
export interface TokenExchange {
  readonly grantType: string
  readonly body: Readonly<Record<string, string>>
  readonly authorization: string | undefined
  readonly status: number
  readonly accessToken: string | undefined
  readonly refreshToken: string | undefined
}

/** A Google Calendar event as the API lists it. */
export type GoogleEvent = Record<string, unknown> & { readonly id: string }

export interface OAuthProvider {
  readonly server: OAuth2Server
  readonly url: string
  readonly exchanges: Array<TokenExchange>
  readonly revoked: Array<string>
  /** Token requests whose grant is listed here are refused (400 invalid_grant) while listed. */
  readonly refuse: Set<string>
}

export interface MeetingProviders {
  readonly calendar: OAuthProvider
  readonly video: OAuthProvider
  /** The calendar API's base URL. */
  readonly calendarApiUrl: string
  /** Zoom meetings (`{id, topic, start_time, duration, join_url}`) of the holder of an access token. */
  readonly meetings: Map<string, Array<Record<string, unknown>>>
  /** The events on the calendar of whoever holds a token of this refresh-token family (by the connection's closer). */
  readonly events: Map<string, Array<GoogleEvent>>
  /** Events put on every calendar the API is asked for. */
  readonly everyone: Array<GoogleEvent>
  /** Access tokens whose calendar reads the API answers 503 (a provider down) while listed. */
  readonly failing: Set<string>
  /** The access tokens the API was called with, in order. */
  readonly calendarCalls: Array<{ readonly token: string; readonly query: Readonly<Record<string, string>> }>
  readonly config: Partial<AppConfigShape>
}

/** An authorization server; `idToken: false` for a provider that is not OpenID Connect (Zoom issues none). */
const startOAuth = (options: { readonly idToken: boolean }) => Effect.acquireRelease(
  Effect.promise(async (): Promise<OAuthProvider> => {
    const server = new OAuth2Server()
    await server.issuer.keys.generate("RS256")
    await server.start(0, "127.0.0.1")
    const exchanges: Array<TokenExchange> = []
    const revoked: Array<string> = []
    const refuse = new Set<string>()
    server.service.on("beforeResponse", (response: { body: any; statusCode: number }, req: IncomingMessage & { body: any }) => {
      const body = (req.body ?? {}) as Record<string, string>
      const grantType = body["grant_type"] ?? ""
      if (!options.idToken) delete response.body.id_token
      if (refuse.has(grantType)) {
        response.statusCode = 400
        response.body = { error: "invalid_grant", error_description: "Token has been expired or revoked." }
      }
      exchanges.push({
        grantType,
        body,
        authorization: req.headers.authorization,
        status: response.statusCode,
        accessToken: response.statusCode === 200 ? response.body.access_token : undefined,
        refreshToken: response.statusCode === 200 ? response.body.refresh_token : undefined
      })
    })
    // the mock does not parse the revocation body (RFC 7009: form-encoded `token`): read it here
    server.service.on("beforeRevoke", (_response: unknown, req: IncomingMessage) => {
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => revoked.push(new URLSearchParams(Buffer.concat(chunks).toString("utf8")).get("token") ?? ""))
    })
    return { server, url: server.issuer.url!, exchanges, revoked, refuse }
  }),
  (p) => Effect.promise(() => p.server.stop())
)

export const startMeetingProviders: Effect.Effect<MeetingProviders, never, Scope.Scope> = Effect.gen(function* () {
  const calendar = yield* startOAuth({ idToken: true })
  const video = yield* startOAuth({ idToken: false })
  const events = new Map<string, Array<GoogleEvent>>()
  const everyone: Array<GoogleEvent> = []
  const calendarCalls: Array<{ token: string; query: Record<string, string> }> = []
  const meetings = new Map<string, Array<Record<string, unknown>>>()
  const failing = new Set<string>()

  /** The events of a token: those of the closer whose connection was issued it (set by the test), and everyone's. */
  const eventsOf = (token: string) => {
    const own = events.get(token) ?? []
    return [...own, ...everyone]
  }
  const issued = (p: OAuthProvider, token: string) => p.exchanges.some((e) => e.accessToken === token)

  const api = yield* Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly close: () => void }>((resume) => {
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        const url = new URL(req.url ?? "/", "http://localhost")
        const token = (req.headers.authorization ?? "").replace(/^Bearer /, "")
        const answer = (status: number, body: unknown) => {
          res.writeHead(status, { "content-type": "application/json" })
          res.end(JSON.stringify(body))
        }
        if (req.method === "GET" && url.pathname === "/v2/users/me/meetings") {
          if (!issued(video, token)) return answer(401, { code: 124, message: "Invalid access token." })
          return answer(200, { page_size: 300, total_records: (meetings.get(token) ?? []).length, next_page_token: "", meetings: meetings.get(token) ?? [] })
        }
        if (req.method !== "GET" || url.pathname !== "/calendars/primary/events") return answer(404, { error: { code: 404, message: "Not Found" } })
        calendarCalls.push({ token, query: Object.fromEntries(url.searchParams) })
        if (!issued(calendar, token)) {
          return answer(401, { error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" } })
        }
        if (failing.has(token)) return answer(503, { error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" } })
        const from = Date.parse(url.searchParams.get("timeMin") ?? "1970-01-01T00:00:00Z")
        const to = Date.parse(url.searchParams.get("timeMax") ?? "2999-01-01T00:00:00Z")
        const items = eventsOf(token).filter((e: any) => {
          const start = Date.parse(e.start?.dateTime ?? e.start?.date ?? "")
          return start >= from && start < to
        })
        answer(200, { kind: "calendar#events", summary: "primary", items })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, close: () => server.close() }))
      })
    }),
    (s) => Effect.sync(() => s.close())
  )

  const oauthConfig = (p: OAuthProvider, client: { readonly id: string; readonly secret: string }, apiUrl: string) => ({
    clientId: Option.some(client.id),
    clientSecret: Option.some(Redacted.make(client.secret)),
    authorizeUrl: `${p.url}/authorize`,
    tokenUrl: `${p.url}/token`,
    revokeUrl: `${p.url}/revoke`,
    apiUrl
  })

  return {
    calendar,
    video,
    calendarApiUrl: api.url,
    meetings,
    events,
    everyone,
    failing,
    calendarCalls,
    config: {
      calendar: oauthConfig(calendar, CALENDAR_CLIENT, api.url),
      video: oauthConfig(video, VIDEO_CLIENT, `${api.url}/v2`)
    }
  }
})

/** Follows an authorization URL at the provider as a consenting user would: the code and state it sends back. */
export const consent = (authorizationUrl: string) =>
  Effect.promise(async () => {
    const response = await fetch(authorizationUrl, { redirect: "manual" })
    const location = response.headers.get("location")
    if (location === null) throw new Error(`the provider answered ${response.status} without a redirect`)
    const back = new URL(location)
    return { redirectUri: `${back.origin}${back.pathname}`, code: back.searchParams.get("code")!, state: back.searchParams.get("state")! }
  })

/**
 * Connects the closer's calendar through the service's OAuth flow (start, consent, callback), and
 * puts `events` on it. The access token the provider issued.
 */
export const connectCalendar = (providers: MeetingProviders, session: string, closerId: string, events: Array<GoogleEvent>) =>
  Effect.gen(function* () {
    const started = yield* call("POST", `/v1/client-portal/closers/${closerId}/integrations/calendar/start`, { session })
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const back = yield* consent(started.body.authorization_url)
    const before = providers.calendar.exchanges.length
    const reply = yield* call(
      "GET",
      `/v1/client-portal/integrations/calendar/callback?code=${encodeURIComponent(back.code)}&state=${encodeURIComponent(back.state)}`,
      { session }
    )
    expect(reply.status).toBe(302)
    const token = providers.calendar.exchanges.slice(before).find((e) => e.grantType === "authorization_code")?.accessToken
    expect(token).toBeDefined()
    providers.events.set(token!, events)
    return token!
  })
