/** Sales-call events the service produces or receives (the portal's event views read them). */
import { CallId, ClientId, SalesCallEvent } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { newId } from "../lib/Ids.js"

/** How many events the event views answer at most, newest first. */
export const EVENTS_PAGE = 100

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

    const select = Rows.findAll({
      Request: Filter,
      Result: EventRow,
      execute: (f) =>
        sql`SELECT event_id, type, platform, status, closer_email, call_id, received_at, error FROM call_events
            WHERE client_id = ${f.clientId}
              AND (${f.days}::int IS NULL OR received_at > now() - make_interval(days => ${f.days ?? 0}))
              AND (${f.status}::text IS NULL OR status = ${f.status})
              AND (${f.closerEmail}::text IS NULL OR lower(closer_email) = lower(${f.closerEmail}))
              AND (${f.platform}::text IS NULL OR platform = ${f.platform})
            ORDER BY received_at DESC, event_id DESC LIMIT ${EVENTS_PAGE}`
    })

    /** The tenant's events, newest first, filtered on the fields given (the e-mail case-insensitively). */
    const list = (clientId: ClientId, filter: EventFilter = {}) =>
      select({
        clientId,
        days: filter.days ?? null,
        status: filter.status ?? null,
        closerEmail: filter.closer_email ?? null,
        platform: filter.platform ?? null
      }).pipe(Effect.orDie)

    /** A deleted call's events. */
    const forgetCall = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, callId: Schema.String }),
      execute: ({ callId, clientId }) => sql`DELETE FROM call_events WHERE client_id = ${clientId} AND call_id = ${callId}`
    })

    return { record, list, forgetCall } as const
  })
}) {}
