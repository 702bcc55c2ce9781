/** Sales-call events the service produces or receives (the portal's event views read them). */
import type { SalesCallEvent } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
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

interface EventRow {
  readonly event_id: string
  readonly type: string
  readonly platform: string
  readonly status: string
  readonly closer_email: string | null
  readonly call_id: string | null
  readonly received_at: Date
  readonly error: string | null
}

export interface NewEvent {
  readonly clientId: string
  readonly type: "upload_accepted" | "analysis_completed" | "analysis_failed"
  readonly platform: string
  readonly status: "ok" | "error"
  readonly closerEmail: string | null
  readonly callId: string | null
  readonly error: string | null
}

export class EventsRepo extends Effect.Service<EventsRepo>()("EventsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const record = (e: NewEvent) =>
      sql`INSERT INTO call_events (event_id, client_id, type, platform, status, closer_email, call_id, error)
          VALUES (${newId("evt")}, ${e.clientId}, ${e.type}, ${e.platform}, ${e.status}, ${e.closerEmail},
                  ${e.callId}, ${e.error})`

    /** The tenant's events, newest first, filtered on the fields given (the e-mail case-insensitively). */
    const list = (clientId: string, filter: EventFilter = {}) =>
      sql<EventRow>`
        SELECT event_id, type, platform, status, closer_email, call_id, received_at, error FROM call_events
        WHERE client_id = ${clientId}
          AND (${filter.days ?? null}::int IS NULL OR received_at > now() - make_interval(days => ${filter.days ?? 0}))
          AND (${filter.status ?? null}::text IS NULL OR status = ${filter.status ?? null})
          AND (${filter.closer_email ?? null}::text IS NULL OR lower(closer_email) = lower(${filter.closer_email ?? null}))
          AND (${filter.platform ?? null}::text IS NULL OR platform = ${filter.platform ?? null})
        ORDER BY received_at DESC, event_id DESC LIMIT ${EVENTS_PAGE}`.pipe(
        Effect.map((rows): Array<typeof SalesCallEvent.Type> => rows.map((r) => ({ ...r, received_at: r.received_at.toISOString() }))),
        Effect.orDie
      )

    return { record, list } as const
  })
}) {}
