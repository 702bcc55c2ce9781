/** Sales-call events the service produces or receives (the portal's event views read them). */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { newId } from "../lib/Ids.js"

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

    return { record } as const
  })
}) {}
