/**
 * The tenant's closers (`closers`), shared by the portal (which manages them), the integrations
 * (their calendar and video connections) and the recorder. An e-mail is a closer once per tenant,
 * whatever its case (a unique index on `lower(email)`); a removed closer keeps its row, and adding
 * its e-mail again brings the row back. Every read carries the state of the closer's calendar and
 * video connections (`closer_integrations`), so every door answers the same `Closer`.
 */
import { ClientId, Closer, CloserId, CloserStatus } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema, Struct } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

/** A closer as stored, with when each of its connections was made and when its token expires. */
export const CloserRow = Schema.Struct({
  ...Struct.omit(Closer.fields, "calendar", "video"),
  email_verified_at: NullableIsoTimestamp,
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp,
  calendar_connected_at: NullableIsoTimestamp,
  calendar_token_expires_at: NullableIsoTimestamp,
  video_connected_at: NullableIsoTimestamp,
  video_token_expires_at: NullableIsoTimestamp
})
export type CloserRow = typeof CloserRow.Type

/** The closer as the API answers it: a connection is `connected` while its tokens work. */
export const closerView = (row: CloserRow): typeof Closer.Type => {
  const { calendar_connected_at, calendar_token_expires_at, video_connected_at, video_token_expires_at, ...closer } = row
  return {
    ...closer,
    calendar: { connected: calendar_connected_at !== null, connected_at: calendar_connected_at, token_expires_at: calendar_token_expires_at },
    video: { connected: video_connected_at !== null, connected_at: video_connected_at, token_expires_at: video_token_expires_at }
  }
}

const TenantCloser = Schema.Struct({ tenantId: ClientId, closerId: CloserId })

export const NewCloser = Schema.Struct({
  closerId: CloserId,
  clientId: ClientId,
  email: Schema.String,
  fullName: Schema.String,
  team: Schema.NullOr(Schema.String)
})

export class ClosersRepo extends Effect.Service<ClosersRepo>()("ClosersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const connection = (kind: "calendar" | "video", column: "connected_at" | "token_expires_at") =>
      sql`(SELECT ci.${sql(column)} FROM closer_integrations ci
           WHERE ci.closer_id = closers.closer_id AND ci.kind = ${kind} AND ci.status = 'connected')`
    const columns = sql`closer_id, email, full_name, team, status, email_verified_at, created_at, updated_at,
      ${connection("calendar", "connected_at")} AS calendar_connected_at,
      ${connection("calendar", "token_expires_at")} AS calendar_token_expires_at,
      ${connection("video", "connected_at")} AS video_connected_at,
      ${connection("video", "token_expires_at")} AS video_token_expires_at`

    /** The tenant's closers, oldest first. */
    const list = Rows.findAll({
      Request: ClientId,
      Result: CloserRow,
      execute: (clientId) => sql`SELECT ${columns} FROM closers WHERE client_id = ${clientId} ORDER BY created_at, closer_id`
    })

    const find = Rows.findOne({
      Request: TenantCloser,
      Result: CloserRow,
      execute: ({ closerId, tenantId }) =>
        sql`SELECT ${columns} FROM closers WHERE client_id = ${tenantId} AND closer_id = ${closerId}`
    })

    /** The tenant's closer, locked for a change. */
    const lock = Rows.findOne({
      Request: TenantCloser,
      Result: CloserRow,
      execute: ({ closerId, tenantId }) =>
        sql`SELECT ${columns} FROM closers WHERE client_id = ${tenantId} AND closer_id = ${closerId} FOR UPDATE`
    })

    /** The tenant's closer of this e-mail (any case, removed or not), locked for a change. */
    const lockByEmail = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, email: Schema.String }),
      Result: CloserRow,
      execute: ({ email, tenantId }) =>
        sql`SELECT ${columns} FROM closers WHERE client_id = ${tenantId} AND lower(email) = lower(${email}) FOR UPDATE`
    })

    const insert = Rows.single({
      Request: NewCloser,
      Result: CloserRow,
      execute: (c) =>
        sql`INSERT INTO closers (closer_id, client_id, email, full_name, team, status)
            VALUES (${c.closerId}, ${c.clientId}, ${c.email}, ${c.fullName}, ${c.team}, 'pending_verification')
            RETURNING ${columns}`
    })

    /** A removed closer added again: new name and team, pending verification again. */
    const reAdd = Rows.single({
      Request: Schema.Struct({ tenantId: ClientId, closerId: CloserId, fullName: Schema.String, team: Schema.NullOr(Schema.String) }),
      Result: CloserRow,
      execute: (c) =>
        sql`UPDATE closers SET full_name = ${c.fullName}, team = ${c.team}, status = 'pending_verification',
                   email_verified_at = NULL, updated_at = now()
            WHERE client_id = ${c.tenantId} AND closer_id = ${c.closerId} RETURNING ${columns}`
    })

    const setStatus = Rows.single({
      Request: Schema.Struct({ tenantId: ClientId, closerId: CloserId, status: CloserStatus }),
      Result: CloserRow,
      execute: ({ closerId, status, tenantId }) =>
        sql`UPDATE closers SET status = ${status}, updated_at = now()
            WHERE client_id = ${tenantId} AND closer_id = ${closerId} RETURNING ${columns}`
    })

    /** The e-mail is confirmed: a closer pending verification becomes active, a paused or removed one stays so. */
    const markVerified = Rows.single({
      Request: TenantCloser,
      Result: CloserRow,
      execute: ({ closerId, tenantId }) =>
        sql`UPDATE closers SET email_verified_at = now(), updated_at = now(),
                   status = CASE WHEN status = 'pending_verification' THEN 'active' ELSE status END
            WHERE client_id = ${tenantId} AND closer_id = ${closerId} RETURNING ${columns}`
    })

    return {
      list,
      find: (clientId: ClientId, closerId: CloserId) => find({ tenantId: clientId, closerId }),
      lock: (clientId: ClientId, closerId: CloserId) => lock({ tenantId: clientId, closerId }),
      lockByEmail: (clientId: ClientId, email: string) => lockByEmail({ tenantId: clientId, email }),
      insert,
      reAdd: (clientId: ClientId, closerId: CloserId, fields: { readonly fullName: string; readonly team: string | null }) =>
        reAdd({ tenantId: clientId, closerId, ...fields }),
      setStatus: (clientId: ClientId, closerId: CloserId, status: CloserRow["status"]) => setStatus({ tenantId: clientId, closerId, status }),
      markVerified: (clientId: ClientId, closerId: CloserId) => markVerified({ tenantId: clientId, closerId })
    } as const
  })
}) {}
