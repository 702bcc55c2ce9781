/** Sales-call events the service produces or receives (the portal's event views read them). */
import { CallId, ClientId, SalesCallEvent } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { newId } from "../lib/Ids.js"

/** How many events `events/recent` answers at most, newest first. */
export const RECENT_EVENTS = 100

/** A page of events: how many, after skipping how many (newest first). */
export interface EventsPage {
  readonly limit: number
  readonly offset: number
}

export interface EventFilter {
  /** Only the last this many days. */
  readonly days?: number | undefined
  readonly status?: string | undefined
  readonly closer_email?: string | undefined
  readonly platform?: string | undefined
}

const EventRow = Schema.Struct({ ...SalesCallEvent.fields, received_at: IsoTimestamp })

export const NewEvent = Schema.Struct({
  clientId: ClientId,
  type: Schema.Literal(
    "upload_accepted",
    "analysis_completed",
    "analysis_failed",
    "integration_connected",
    "integration_disconnected",
    "integration_error",
    // the recorder (platform `recorder`): a bot sent to a meeting, its recording made a call, or why not
    "bot_scheduled",
    "recording_received",
    "bot_join_failed",
    "recording_missing",
    "recording_refused",
    // the companion channels (platform `messenger-a` / `messenger-b`): a chat linked or unlinked, a push not delivered
    "companion_linked",
    "companion_unlinked",
    "companion_delivery_failed",
    // completion webhooks (platform `webhooks`): an endpoint disabled after failing for 3 days
    "webhook_disabled"
  ),
  platform: Schema.String,
  status: Schema.Literal("ok", "error"),
  closerEmail: Schema.NullOr(Schema.String),
  callId: Schema.NullOr(CallId),
  error: Schema.NullOr(Schema.String)
})
export type NewEvent = typeof NewEvent.Type

const Filter = Schema.Struct({
  clientId: ClientId,
  days: Schema.NullOr(Schema.Number),
  status: Schema.NullOr(Schema.String),
  closerEmail: Schema.NullOr(Schema.String),
  platform: Schema.NullOr(Schema.String)
})

const PageRequest = Schema.Struct({ ...Filter.fields, limit: Schema.Number, offset: Schema.Number })

export class EventsRepo extends Effect.Service<EventsRepo>()("EventsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const record = Rows.execute({
      Request: NewEvent,
      execute: (e) =>
        sql`INSERT INTO call_events (event_id, client_id, type, platform, status, closer_email, call_id, error)
            VALUES (${newId("evt")}, ${e.clientId}, ${e.type}, ${e.platform}, ${e.status}, ${e.closerEmail},
                    ${e.callId}, ${e.error})`
    })

    /** The rows of the tenant that pass the filter (the e-mail compared case-insensitively). */
    const matching = (f: typeof Filter.Encoded) =>
      sql`client_id = ${f.clientId}
          AND (${f.days}::int IS NULL OR received_at > now() - make_interval(days => ${f.days ?? 0}))
          AND (${f.status}::text IS NULL OR status = ${f.status})
          AND (${f.closerEmail}::text IS NULL OR lower(closer_email) = lower(${f.closerEmail}))
          AND (${f.platform}::text IS NULL OR platform = ${f.platform})`

    const select = Rows.findAll({
      Request: PageRequest,
      Result: EventRow,
      execute: (f) =>
        sql`SELECT event_id, type, platform, status, closer_email, call_id, received_at, error FROM call_events
            WHERE ${matching(f)}
            ORDER BY received_at DESC, event_id DESC LIMIT ${f.limit} OFFSET ${f.offset}`
    })

    const count = Rows.single({
      Request: Filter,
      Result: Schema.Struct({ total: Schema.Number }),
      execute: (f) => sql`SELECT count(*)::int AS total FROM call_events WHERE ${matching(f)}`
    })

    /**
     * A page of the tenant's events, newest first (equal times: the greater id first, so pages do
     * not overlap), filtered on the fields given, and how many pass the filter.
     */
    const page = (clientId: ClientId, filter: EventFilter, range: EventsPage) => {
      const f = {
        clientId,
        days: filter.days ?? null,
        status: filter.status ?? null,
        closerEmail: filter.closer_email ?? null,
        platform: filter.platform ?? null
      }
      return Effect.all([select({ ...f, ...range }), count(f)]).pipe(
        Effect.map(([events, { total }]) => ({ events, total })),
        Effect.orDie
      )
    }

    /** A deleted call's events. */
    const forgetCall = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, callId: Schema.String }),
      execute: ({ callId, clientId }) => sql`DELETE FROM call_events WHERE client_id = ${clientId} AND call_id = ${callId}`
    })

    return { record, page, forgetCall } as const
  })
}) {}
