/** Retention settings and what the retention pass finds past them (migration 0019). */
import { CallId, ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

const Setting = Schema.Struct({ audio_days: Schema.NullOr(Schema.Number), analysis_days: Schema.NullOr(Schema.Number), updated_at: NullableIsoTimestamp })
const Due = Schema.Struct({ call_id: CallId, client_id: ClientId, blob_key: Schema.String })
/** How many calls one pass takes of each kind, at most: the next pass goes on. */
const BATCH = 200

export class RetentionRepo extends Effect.Service<RetentionRepo>()("RetentionRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const get = Rows.findOne({
      Request: ClientId,
      Result: Setting,
      execute: (clientId) => sql`SELECT audio_days, analysis_days, updated_at FROM retention_settings WHERE client_id = ${clientId}`
    })

    const save = Rows.single({
      Request: Schema.Struct({ clientId: ClientId, audioDays: Schema.NullOr(Schema.Number), analysisDays: Schema.NullOr(Schema.Number) }),
      Result: Setting,
      execute: ({ analysisDays, audioDays, clientId }) =>
        sql`INSERT INTO retention_settings (client_id, audio_days, analysis_days) VALUES (${clientId}, ${audioDays}, ${analysisDays})
            ON CONFLICT (client_id) DO UPDATE SET audio_days = EXCLUDED.audio_days, analysis_days = EXCLUDED.analysis_days, updated_at = now()
            RETURNING audio_days, analysis_days, updated_at`
    })

    /** Ended calls whose recording is older than their tenant keeps recordings, and still there. */
    const audioDue = Rows.findAll({
      Request: Schema.DateFromSelf,
      Result: Due,
      execute: (now) =>
        sql`SELECT c.call_id, c.client_id, c.blob_key FROM calls c JOIN retention_settings r ON r.client_id = c.client_id
            WHERE r.audio_days IS NOT NULL AND c.audio_removed_at IS NULL AND c.status IN ('completed', 'failed')
              AND c.created_at < ${now}::timestamptz - make_interval(days => r.audio_days)
            ORDER BY c.created_at LIMIT ${BATCH}`
    })

    const markAudioRemoved = Rows.execute({
      Request: CallId,
      execute: (callId) => sql`UPDATE calls SET audio_removed_at = now() WHERE call_id = ${callId}`
    })

    /** Ended calls older than their tenant keeps calls. */
    const callsDue = Rows.findAll({
      Request: Schema.DateFromSelf,
      Result: Due,
      execute: (now) =>
        sql`SELECT c.call_id, c.client_id, c.blob_key FROM calls c JOIN retention_settings r ON r.client_id = c.client_id
            WHERE r.analysis_days IS NOT NULL AND c.status IN ('completed', 'failed')
              AND c.created_at < ${now}::timestamptz - make_interval(days => r.analysis_days)
            ORDER BY c.created_at LIMIT ${BATCH}`
    })

    /** Marks the tenant closing, once; none when it is closing already. */
    const close = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({ closing_at: Schema.DateFromSelf }),
      execute: (clientId) =>
        sql`UPDATE tenants SET closing_at = now() WHERE client_id = ${clientId} AND closing_at IS NULL RETURNING closing_at`
    })

    /** Ends the tenant's closing; none when it is not closing. */
    const reopen = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({ client_id: ClientId }),
      execute: (clientId) =>
        sql`UPDATE tenants SET closing_at = NULL WHERE client_id = ${clientId} AND closing_at IS NOT NULL RETURNING client_id`
    })

    /** Tenants closed longer ago than the grace period. */
    const closedDue = Rows.findAll({
      Request: Schema.Struct({ now: Schema.DateFromSelf, graceDays: Schema.Number }),
      Result: Schema.Struct({ client_id: ClientId }),
      execute: ({ graceDays, now }) =>
        sql`SELECT client_id FROM tenants WHERE closing_at IS NOT NULL AND closing_at < ${now}::timestamptz - make_interval(days => ${graceDays})
            ORDER BY closing_at LIMIT 20`
    })

    /** A page of a tenant's calls (their ids), to delete one by one with their recordings. */
    const callsOf = Rows.findAll({
      Request: ClientId,
      Result: Schema.Struct({ call_id: CallId }),
      execute: (clientId) => sql`SELECT call_id FROM calls WHERE client_id = ${clientId} ORDER BY call_id LIMIT ${BATCH}`
    })

    /** Deletes the tenant; everything of it cascades (users, sessions, keys, ledger, audit rows, settings). */
    const deleteTenant = Rows.execute({
      Request: ClientId,
      execute: (clientId) => sql`DELETE FROM tenants WHERE client_id = ${clientId}`
    })

    return { get, save, audioDue, markAudioRemoved, callsDue, close, reopen, closedDue, callsOf, deleteTenant } as const
  })
}) {}
