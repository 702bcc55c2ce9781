/**
 * Portal users: found by e-mail for sign-in, and read as the spec's `ClientUser` with what the
 * service (`SignIn`) adds to it: the closer the user is (`isUsersCloser`, the session door's rule)
 * and when the account was closed, if it is closing.
 */
import { ClientId, ClientUser, CloserId, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema, Struct } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { isUsersCloser } from "../tenancy/Sees.js"

export const UserRow = Schema.Struct({
  ...Struct.omit(ClientUser.fields, "closer", "account_closing"),
  created_at: IsoTimestamp,
  last_login_at: NullableIsoTimestamp,
  closer_id: Schema.NullOr(CloserId),
  closer_email: Schema.NullOr(Schema.String),
  closer_name: Schema.NullOr(Schema.String),
  closing_at: Schema.NullOr(Schema.DateFromSelf)
})
export type UserRow = typeof UserRow.Type

export class UsersRepo extends Effect.Service<UsersRepo>()("UsersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const select = sql`SELECT u.user_id, u.client_id, u.email, u.full_name, u.role, t.company_name, u.created_at, u.last_login_at,
                              k.closer_id, k.email AS closer_email, k.full_name AS closer_name, t.closing_at
                       FROM users u JOIN tenants t ON t.client_id = u.client_id
                       LEFT JOIN closers k ON ${isUsersCloser(sql, "k", "u")}`

    const findByEmail = Rows.findOne({
      Request: Schema.String,
      Result: UserRow,
      execute: (email) => sql`${select} WHERE lower(u.email) = lower(${email})`
    })

    const find = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, userId: UserId }),
      Result: UserRow,
      execute: ({ tenantId, userId }) => sql`${select} WHERE u.client_id = ${tenantId} AND u.user_id = ${userId}`
    })

    const markSignedIn = Rows.execute({
      Request: UserId,
      execute: (userId) => sql`UPDATE users SET last_login_at = now() WHERE user_id = ${userId}`
    })

    return {
      findByEmail,
      find: (clientId: ClientId, userId: UserId) => find({ tenantId: clientId, userId }),
      markSignedIn
    } as const
  })
}) {}
