/**
 * The tenant's closers (`closers`). An e-mail is a closer once per tenant, whatever its case (a
 * unique index on `lower(email)`); a removed closer keeps its row, and adding its e-mail again
 * brings the row back.
 */
import { ClientId, Closer, CloserId, CloserStatus } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema, Struct } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

/** A closer as stored: the response's fields but the integrations, which are not stored yet. */
export const CloserRow = Schema.Struct({
  ...Struct.omit(Closer.fields, "calendar", "video"),
  email_verified_at: NullableIsoTimestamp,
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp
})
export type CloserRow = typeof CloserRow.Type

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
    const columns = sql`closer_id, email, full_name, team, status, email_verified_at, created_at, updated_at`

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
