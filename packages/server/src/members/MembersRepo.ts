/** The tenant's users as members (issue 36): listed, locked for a change of role, removed. */
import { ClientId, Member, Role, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

const MemberRow = Schema.Struct({ ...Member.fields, created_at: IsoTimestamp, last_login_at: NullableIsoTimestamp })
const UserOfTenant = Schema.Struct({ clientId: ClientId, userId: UserId })

export class MembersRepo extends Effect.Service<MembersRepo>()("MembersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`user_id, email, full_name, role, created_at, last_login_at`

    const list = Rows.findAll({
      Request: ClientId,
      Result: MemberRow,
      execute: (clientId) =>
        sql`SELECT ${columns} FROM users WHERE client_id = ${clientId}
            ORDER BY CASE role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, lower(email)`
    })

    /**
     * The member, locked; and the tenant's owners locked with it, so two changes racing to demote or
     * remove the last two owners run one after the other and the second sees one owner left.
     */
    const lock = Rows.findOne({
      Request: UserOfTenant,
      Result: Schema.Struct({ ...MemberRow.fields, owners: Schema.Number }),
      execute: ({ clientId, userId }) =>
        sql`WITH owners AS (SELECT user_id FROM users WHERE client_id = ${clientId} AND role = 'owner' FOR UPDATE)
            SELECT ${columns}, (SELECT count(*)::int FROM owners) AS owners
            FROM users WHERE client_id = ${clientId} AND user_id = ${userId} FOR UPDATE`
    })

    const setRole = Rows.single({
      Request: Schema.Struct({ ...UserOfTenant.fields, role: Role }),
      Result: MemberRow,
      execute: ({ clientId, role, userId }) =>
        sql`UPDATE users SET role = ${role} WHERE client_id = ${clientId} AND user_id = ${userId} RETURNING ${columns}`
    })

    /** Deletes the user: their sessions, and what only they had (their chats, their reading progress), go with them. */
    const remove = Rows.execute({
      Request: UserOfTenant,
      execute: ({ clientId, userId }) => sql`DELETE FROM users WHERE client_id = ${clientId} AND user_id = ${userId}`
    })

    return { list, lock, setRole, remove } as const
  })
}) {}
