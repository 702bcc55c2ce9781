/**
 * Alerts of the recording bot (`recall_alerts`): a bot that could not join its meeting, a meeting
 * that ended without a recording, a recording over the plan's monthly ingests. The recorder writes
 * them; the staff read them (`GET /v1/internal/admin/recall-alerts`). On the shared floor, so the
 * two features meet here and not in each other.
 */
import { ClientId, RecallAlert, RecallAlertKind } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { newId } from "../lib/Ids.js"

export const NewRecallAlert = Schema.Struct({
  clientId: ClientId,
  meetingId: Schema.NullOr(Schema.String),
  kind: RecallAlertKind,
  closerId: Schema.NullOr(Schema.String),
  closerEmail: Schema.NullOr(Schema.String),
  platform: Schema.NullOr(Schema.String),
  meetingUrl: Schema.NullOr(Schema.String),
  /** When the bot was to join (ISO-8601). */
  scheduledAt: Schema.NullOr(Schema.String),
  message: Schema.String
})
export type NewRecallAlert = typeof NewRecallAlert.Type

const AlertRow = Schema.Struct({
  ...RecallAlert.fields,
  scheduled_at: NullableIsoTimestamp,
  occurred_at: IsoTimestamp
})

export class RecallAlertsRepo extends Effect.Service<RecallAlertsRepo>()("RecallAlertsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Records an alert; a second one of the same kind for the same meeting changes nothing. */
    const insert = Rows.execute({
      Request: NewRecallAlert,
      execute: (a) =>
        sql`INSERT INTO recall_alerts (alert_id, client_id, meeting_id, kind, closer_id, closer_email, platform, meeting_url,
                                       scheduled_at, message)
            VALUES (${newId("ral")}, ${a.clientId}, ${a.meetingId}, ${a.kind}, ${a.closerId}, ${a.closerEmail}, ${a.platform},
                    ${a.meetingUrl}, ${a.scheduledAt}::timestamptz, ${a.message})
            ON CONFLICT (meeting_id, kind) DO NOTHING`
    })

    const select = Rows.findAll({
      Request: Schema.Struct({ clientId: Schema.NullOr(ClientId), limit: Schema.Number }),
      Result: AlertRow,
      execute: ({ clientId, limit }) =>
        sql`SELECT a.alert_id, a.kind, a.client_id, t.company_name, a.meeting_id, a.closer_id, a.closer_email, a.platform,
                   a.meeting_url, a.scheduled_at, a.message, a.occurred_at
            FROM recall_alerts a JOIN tenants t ON t.client_id = a.client_id
            ${clientId === null ? sql`` : sql`WHERE a.client_id = ${clientId}`}
            ORDER BY a.occurred_at DESC, a.alert_id DESC LIMIT ${limit}`
    })

    /** Newest first, of every tenant or of one. */
    const list = (clientId: ClientId | undefined, limit: number) => select({ clientId: clientId ?? null, limit })

    return { insert, list } as const
  })
}) {}
