/**
 * The floor's `MeetingCalendars` (`ports/MeetingCalendars.ts`), implemented over the closers' connections:
 *
 * - the calendar speaks the Google Calendar API v3 events list
 *   (`GET {CALENDAR_API_URL}/calendars/primary/events`, single events expanded, ordered by start,
 *   every page). Cancelled and all-day events are left out; an event's meeting link is its
 *   conference entry point of type `video`, its `hangoutLink`, or the first meeting link in its
 *   location or description; its attendees are the invitees' e-mail addresses (rooms and
 *   resources left out);
 * - the video tool speaks Zoom's meetings API (`GET {VIDEO_API_URL}/users/me/meetings?type=upcoming`,
 *   every page): each scheduled meeting with its `join_url`, unless a calendar event already
 *   carries that link.
 *
 * Each call uses the connection's access token, refreshed first when it expires soon and once
 * more when the provider answers 401; still refused, the connection is marked `error`.
 */
import type { ClientId, MeetingIntegrationKind } from "@callsight/api-spec"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Duration, Effect, Either, Layer, Option, Schema } from "effect"
import {
  type CalendarEvent,
  CalendarUnavailable,
  type ConnectedCalendar,
  MeetingCalendars
} from "../ports/MeetingCalendars.js"
import { MeetingConnections } from "./MeetingConnections.js"
import { type ConnectionRow, MeetingConnectionsRepo } from "./MeetingConnectionsRepo.js"
import { OAuthProviders } from "./OAuthProviders.js"

// ---------------------------------------------------------------------------------------------
// Google Calendar

const EventTime = Schema.Struct({ dateTime: Schema.optional(Schema.String), date: Schema.optional(Schema.String) })

const GoogleEvent = Schema.Struct({
  id: Schema.String,
  status: Schema.optional(Schema.String),
  summary: Schema.optional(Schema.String),
  location: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  hangoutLink: Schema.optional(Schema.String),
  conferenceData: Schema.optional(Schema.Struct({
    entryPoints: Schema.optional(Schema.Array(Schema.Struct({ entryPointType: Schema.optional(Schema.String), uri: Schema.optional(Schema.String) })))
  })),
  start: Schema.optional(EventTime),
  end: Schema.optional(EventTime),
  attendees: Schema.optional(Schema.Array(Schema.Struct({ email: Schema.optional(Schema.String), resource: Schema.optional(Schema.Boolean) })))
})

const GooglePage = Schema.Struct({
  items: Schema.optionalWith(Schema.Array(GoogleEvent), { default: () => [] }),
  nextPageToken: Schema.optional(Schema.String)
})

/** Links of the meeting tools people put in invitations. */
const MEETING_LINK = /https:\/\/(?:[\w-]+\.)*(?:zoom\.us|zoom\.com|meet\.google\.com|teams\.microsoft\.com|teams\.live\.com|webex\.com|whereby\.com|gotomeeting\.com)\/[^\s<>"')]*/i

const meetingUrlOf = (e: typeof GoogleEvent.Type): string | null => {
  const video = e.conferenceData?.entryPoints?.find((p) => p.entryPointType === "video" && p.uri !== undefined)?.uri
  if (video !== undefined) return video
  if (e.hangoutLink !== undefined) return e.hangoutLink
  for (const text of [e.location, e.description]) {
    const match = text === undefined ? null : MEETING_LINK.exec(text)
    if (match !== null) return match[0]
  }
  return null
}

const fromGoogle = (e: typeof GoogleEvent.Type): CalendarEvent | undefined => {
  const startsAt = e.start?.dateTime
  const endsAt = e.end?.dateTime
  if (e.status === "cancelled" || startsAt === undefined || endsAt === undefined) return undefined
  return {
    eventId: e.id,
    title: e.summary ?? null,
    startsAt: new Date(startsAt).toISOString(),
    endsAt: new Date(endsAt).toISOString(),
    meetingUrl: meetingUrlOf(e),
    attendees: (e.attendees ?? []).flatMap((a) => (a.resource === true || a.email === undefined || a.email.trim() === "" ? [] : [a.email.trim()]))
  }
}

// ---------------------------------------------------------------------------------------------
// Zoom

const ZoomMeeting = Schema.Struct({
  id: Schema.Union(Schema.Number, Schema.String),
  topic: Schema.optional(Schema.String),
  start_time: Schema.optional(Schema.String),
  duration: Schema.optional(Schema.Number),
  join_url: Schema.optional(Schema.String)
})

const ZoomPage = Schema.Struct({
  meetings: Schema.optionalWith(Schema.Array(ZoomMeeting), { default: () => [] }),
  next_page_token: Schema.optional(Schema.String)
})

const fromZoom = (m: typeof ZoomMeeting.Type): CalendarEvent | undefined => {
  // instant and recurring meetings without a fixed time have no start: nothing to schedule
  if (m.start_time === undefined || m.join_url === undefined) return undefined
  const start = new Date(m.start_time)
  return {
    eventId: `video:${m.id}:${start.toISOString()}`,
    title: m.topic ?? null,
    startsAt: start.toISOString(),
    endsAt: new Date(start.getTime() + (m.duration ?? 60) * 60_000).toISOString(),
    meetingUrl: m.join_url,
    attendees: []
  }
}

/** A link without its query and fragment (a Zoom link is the same meeting with or without `pwd`). */
const linkKey = (url: string) => url.replace(/[?#].*$/, "").replace(/\/+$/, "").toLowerCase()

// ---------------------------------------------------------------------------------------------

const MAX_PAGES = 10

interface Window {
  readonly from: Date
  readonly to: Date
}

/** One page of a source: its meetings and the next page's token, or `Unauthorized` (401). */
type PageAnswer = { readonly _tag: "Unauthorized" } | {
  readonly _tag: "Page"
  readonly events: ReadonlyArray<CalendarEvent>
  readonly next: string | undefined
}

export const MeetingCalendarsLive = Layer.effect(
  MeetingCalendars,
  Effect.gen(function* () {
    const repo = yield* MeetingConnectionsRepo
    const connections = yield* MeetingConnections
    const providers = yield* OAuthProviders
    const client = (yield* HttpClient.HttpClient).pipe(HttpClient.withTracerPropagation(false))

    const getJson = <A, I>(url: URL, token: string, schema: Schema.Schema<A, I>) =>
      Effect.gen(function* () {
        const response = yield* client.execute(HttpClientRequest.get(url.toString()).pipe(HttpClientRequest.bearerToken(token)))
        if (response.status === 401) return Option.none<A>()
        if (response.status >= 300) return yield* Effect.fail(`HTTP ${response.status}`)
        return Option.some(yield* HttpClientResponse.schemaBodyJson(schema)(response))
      }).pipe(
        Effect.timeout(Duration.seconds(20)),
        Effect.mapError((e) => (typeof e === "string" ? e : `no usable answer (${e._tag})`)),
        Effect.scoped
      )

    const pageOf: Record<MeetingIntegrationKind, (token: string, window: Window, pageToken: string | undefined) => Effect.Effect<PageAnswer, string>> = {
      calendar: (token, window, pageToken) => {
        const url = new URL(`${providers.apiUrl("calendar")}/calendars/primary/events`)
        url.searchParams.set("timeMin", window.from.toISOString())
        url.searchParams.set("timeMax", window.to.toISOString())
        url.searchParams.set("singleEvents", "true")
        url.searchParams.set("orderBy", "startTime")
        url.searchParams.set("maxResults", "250")
        if (pageToken !== undefined) url.searchParams.set("pageToken", pageToken)
        return Effect.map(getJson(url, token, GooglePage), Option.match({
          onNone: (): PageAnswer => ({ _tag: "Unauthorized" }),
          onSome: (page): PageAnswer => ({ _tag: "Page", events: page.items.flatMap((e) => fromGoogle(e) ?? []), next: page.nextPageToken })
        }))
      },
      video: (token, window, pageToken) => {
        const url = new URL(`${providers.apiUrl("video")}/users/me/meetings`)
        url.searchParams.set("type", "upcoming")
        url.searchParams.set("page_size", "300")
        if (pageToken !== undefined) url.searchParams.set("next_page_token", pageToken)
        return Effect.map(getJson(url, token, ZoomPage), Option.match({
          onNone: (): PageAnswer => ({ _tag: "Unauthorized" }),
          onSome: (page): PageAnswer => ({
            _tag: "Page",
            events: page.meetings.flatMap((m) => fromZoom(m) ?? []).filter((e) => {
              const at = Date.parse(e.startsAt)
              return at >= window.from.getTime() && at < window.to.getTime()
            }),
            next: page.next_page_token === "" ? undefined : page.next_page_token
          })
        }))
      }
    }

    /** Every page of a source with one token; none when the provider refuses the token. */
    const readAll = (row: ConnectionRow, window: Window, forceRefresh: boolean) =>
      Effect.gen(function* () {
        const token = yield* connections.accessToken(forceRefresh ? { ...row, token_expires_at: new Date(0).toISOString() } : row).pipe(
          Effect.mapError((e) => e.message)
        )
        const events: Array<CalendarEvent> = []
        let pageToken: string | undefined
        for (let i = 0; i < MAX_PAGES; i++) {
          const answer = yield* pageOf[row.kind](token, window, pageToken)
          if (answer._tag === "Unauthorized") return Option.none<ReadonlyArray<CalendarEvent>>()
          events.push(...answer.events)
          pageToken = answer.next
          if (pageToken === undefined) break
        }
        return Option.some<ReadonlyArray<CalendarEvent>>(events)
      })

    /** One source's meetings: read, once more with a refreshed token when refused, else the connection in error. */
    const read = (row: ConnectionRow, window: Window): Effect.Effect<ReadonlyArray<CalendarEvent>, string> =>
      Effect.gen(function* () {
        const first = yield* readAll(row, window, false)
        const answer = Option.isSome(first) || row.sealed_refresh_token === null ? first : yield* readAll(row, window, true)
        if (Option.isNone(answer)) {
          const error = `the ${row.kind} provider refused the access token (HTTP 401)`
          yield* Effect.orDie(repo.markError({ closerId: row.closer_id, kind: row.kind, error }))
          return yield* Effect.fail(error)
        }
        yield* Effect.orDie(repo.markSuccess({ closerId: row.closer_id, kind: row.kind }))
        return answer.value
      })

    const working = (calendar: ConnectedCalendar) =>
      Effect.map(
        Effect.forEach(["calendar", "video"] as const, (kind) => Effect.orDie(repo.find(calendar.clientId, calendar.closerId, kind))),
        (rows) => rows.flatMap((row) => (Option.isSome(row) && row.value.status === "connected" ? [row.value] : []))
      )

    return MeetingCalendars.of({
      connected: (clientId?: ClientId) =>
        Effect.map(Effect.orDie(repo.connectedClosers(clientId ?? null)), (rows) =>
          rows.map((r) => ({ clientId: r.client_id, closerId: r.closer_id, closerEmail: r.closer_email }))),
      upcoming: (calendar, window) =>
        Effect.gen(function* () {
          const sources = yield* working(calendar)
          if (sources.length === 0) {
            return yield* new CalendarUnavailable({ closerId: calendar.closerId, message: "neither a calendar nor a video tool is connected" })
          }
          const results = yield* Effect.forEach(sources, (row) => Effect.either(read(row, window)))
          const of = (kind: MeetingIntegrationKind) =>
            results.flatMap((r, i) => (sources[i]!.kind === kind && Either.isRight(r) ? r.right : []))
          if (results.every(Either.isLeft)) {
            const message = results.flatMap((r) => (Either.isLeft(r) ? [r.left] : [])).join("; ")
            return yield* new CalendarUnavailable({ closerId: calendar.closerId, message })
          }
          const calendarEvents = of("calendar")
          const onCalendar = new Set(calendarEvents.flatMap((e) => (e.meetingUrl === null ? [] : [linkKey(e.meetingUrl)])))
          const videoMeetings = of("video").filter((m) => m.meetingUrl === null || !onCalendar.has(linkKey(m.meetingUrl)))
          return [...calendarEvents, ...videoMeetings]
            .sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.eventId.localeCompare(b.eventId))
        })
    })
  })
).pipe(Layer.provide([MeetingConnectionsRepo.Default, MeetingConnections.Default, OAuthProviders.Default, NodeHttpClient.layerUndici]))
