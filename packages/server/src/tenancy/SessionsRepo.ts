/**
 * Portal sessions, stored server-side by the SHA-256 of the cookie's value. A session lasts 14
 * days from its last use (sliding); the expiry is pushed back at most once a minute, so a busy
 * session does not turn every read into a write.
 */
import { ClientId, Role, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import * as Rows from "../db/Rows.js"
import { prepared } from "../db/Prepared.js"
import { newSecret, sha256Hex } from "../lib/Ids.js"
import { isUsersCloser } from "./Sees.js"

export const SESSION_DAYS = 14

const SessionUse = Schema.Struct({
  user_id: UserId,
  client_id: ClientId,
  email: Schema.String,
  role: Role,
  closer_email: Schema.NullOr(Schema.String),
  extended: Schema.Boolean
})

export class SessionsRepo extends Effect.Service<SessionsRepo>()("SessionsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = Rows.single({
      Request: Schema.Struct({
        hash: Schema.String,
        userId: UserId,
        clientId: ClientId,
        ip: Schema.NullOr(Schema.String),
        userAgent: Schema.NullOr(Schema.String)
      }),
      Result: Schema.Struct({ expires_at: Schema.DateFromSelf }),
      execute: (s) =>
        sql`INSERT INTO sessions (session_hash, user_id, client_id, expires_at, ip, user_agent)
            VALUES (${s.hash}, ${s.userId}, ${s.clientId}, now() + make_interval(days => ${SESSION_DAYS}), ${s.ip}, ${s.userAgent})
            RETURNING expires_at`
    })

    /** A new session; the token is the cookie's value, never stored. */
    const create = (s: { readonly userId: UserId; readonly clientId: ClientId; readonly ip: string | null; readonly userAgent: string | null }) =>
      Effect.gen(function* () {
        const token = newSecret("ses")
        const row = yield* insert({ ...s, hash: sha256Hex(token) })
        return { token, expiresAt: row.expires_at }
      })

    /**
     * The live session of this token with its user, its expiry pushed back to 14 days from now
     * when it was last used over a minute ago (`extended`: the cookie should be sent again); one
     * statement, as it runs on every portal request. `closer_email`: the verified closer (not
     * removed) whose e-mail is the user's, if any (`isUsersCloser`): the calls a rep sees as their own.
     */
    const useQuery = Rows.findOne({
      Request: Schema.String,
      Result: SessionUse,
      // on every portal request: prepared once per connection (db/Prepared.ts)
      execute: (hash) =>
        sql`${prepared(sql)}
          WITH extended AS (
            UPDATE sessions SET last_seen_at = now(), expires_at = now() + make_interval(days => ${SESSION_DAYS})
            WHERE session_hash = ${hash} AND expires_at > now() AND last_seen_at < now() - interval '1 minute'
            RETURNING expires_at)
          SELECT u.user_id, u.client_id, u.email, u.role, EXISTS (SELECT 1 FROM extended) AS extended,
                 (SELECT lower(k.email) FROM closers k WHERE ${isUsersCloser(sql, "k", "u")}) AS closer_email
          FROM sessions s JOIN users u ON u.user_id = s.user_id
          WHERE s.session_hash = ${hash} AND s.expires_at > now()`
    })

    const use = (token: string) =>
      Effect.map(useQuery(sha256Hex(token)), Option.map((row) => ({
        user: { userId: row.user_id, clientId: row.client_id, email: row.email, role: row.role },
        closerEmail: row.closer_email,
        extended: row.extended
      })))

    const destroy = Rows.execute({
      Request: Schema.String,
      execute: (token) => sql`DELETE FROM sessions WHERE session_hash = ${sha256Hex(token)}`
    })

    return { create, use, destroy } as const
  })
}) {}
