/** Portal users: found by e-mail for sign-in, and read as the spec's `ClientUser`. */
import { ClientUser } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"

interface UserRow {
  readonly user_id: string
  readonly client_id: string
  readonly email: string
  readonly full_name: string | null
  readonly role: "owner" | "admin" | "member"
  readonly company_name: string
  readonly created_at: Date
  readonly last_login_at: Date | null
}

const toClientUser = (r: UserRow): ClientUser =>
  new ClientUser({ ...r, created_at: r.created_at.toISOString(), last_login_at: r.last_login_at?.toISOString() ?? null })

export class UsersRepo extends Effect.Service<UsersRepo>()("UsersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const select = sql`SELECT u.user_id, u.client_id, u.email, u.full_name, u.role, t.company_name, u.created_at, u.last_login_at
                       FROM users u JOIN tenants t ON t.client_id = u.client_id`

    const findByEmail = (email: string) =>
      sql<UserRow>`${select} WHERE lower(u.email) = lower(${email})`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toClientUser))
      )

    const find = (clientId: string, userId: string) =>
      sql<UserRow>`${select} WHERE u.client_id = ${clientId} AND u.user_id = ${userId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toClientUser))
      )

    const markSignedIn = (userId: string) => sql`UPDATE users SET last_login_at = now() WHERE user_id = ${userId}`

    return { findByEmail, find, markSignedIn } as const
  })
}) {}
