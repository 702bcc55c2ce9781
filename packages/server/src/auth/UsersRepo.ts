/** Portal users: found by e-mail for sign-in, and read as the spec's `ClientUser`. */
import { ClientId, ClientUser, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

const UserRow = Schema.Struct({ ...ClientUser.fields, created_at: IsoTimestamp, last_login_at: NullableIsoTimestamp })

export class UsersRepo extends Effect.Service<UsersRepo>()("UsersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const select = sql`SELECT u.user_id, u.client_id, u.email, u.full_name, u.role, t.company_name, u.created_at, u.last_login_at
                       FROM users u JOIN tenants t ON t.client_id = u.client_id`

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

    const toClientUser = Option.map((row: typeof UserRow.Type) => new ClientUser(row))

    return {
      findByEmail: (email: string) => Effect.map(findByEmail(email), toClientUser),
      find: (clientId: ClientId, userId: UserId) => Effect.map(find({ tenantId: clientId, userId }), toClientUser),
      markSignedIn
    } as const
  })
}) {}
