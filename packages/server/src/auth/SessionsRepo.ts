/**
 * Portal sessions, stored server-side by the SHA-256 of the cookie's value. A session lasts 14
 * days from its last use (sliding); the expiry is pushed back at most once a minute, so a busy
 * session does not turn every read into a write.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { newSecret, sha256Hex } from "../lib/Ids.js"

export const SESSION_DAYS = 14

export interface SessionUser {
  readonly user_id: string
  readonly client_id: string
  readonly email: string
  readonly role: "owner" | "admin" | "member"
  readonly expires_at: Date
}

export class SessionsRepo extends Effect.Service<SessionsRepo>()("SessionsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** A new session; the token is the cookie's value, never stored. */
    const create = (s: { readonly userId: string; readonly clientId: string; readonly ip: string | null; readonly userAgent: string | null }) =>
      Effect.gen(function* () {
        const token = newSecret("ses")
        const [row] = yield* sql<{ expires_at: Date }>`
          INSERT INTO sessions (session_hash, user_id, client_id, expires_at, ip, user_agent)
          VALUES (${sha256Hex(token)}, ${s.userId}, ${s.clientId}, now() + make_interval(days => ${SESSION_DAYS}), ${s.ip}, ${s.userAgent})
          RETURNING expires_at`
        return { token, expiresAt: row!.expires_at }
      })

    /**
     * The live session of this token with its user, its expiry pushed back to 14 days from now
     * when it was last used over a minute ago (`extended`: the cookie should be sent again); one
     * statement, as it runs on every portal request.
     */
    const use = (token: string) =>
      sql<SessionUser & { readonly extended: boolean }>`
        WITH extended AS (
          UPDATE sessions SET last_seen_at = now(), expires_at = now() + make_interval(days => ${SESSION_DAYS})
          WHERE session_hash = ${sha256Hex(token)} AND expires_at > now() AND last_seen_at < now() - interval '1 minute'
          RETURNING expires_at)
        SELECT u.user_id, u.client_id, u.email, u.role,
               COALESCE((SELECT expires_at FROM extended), s.expires_at) AS expires_at,
               EXISTS (SELECT 1 FROM extended) AS extended
        FROM sessions s JOIN users u ON u.user_id = s.user_id
        WHERE s.session_hash = ${sha256Hex(token)} AND s.expires_at > now()`.pipe(
        Effect.map((rows) =>
          Option.map(Option.fromNullable(rows[0]), ({ extended, ...user }) => ({ user, extended }))
        )
      )

    const destroy = (token: string) => sql`DELETE FROM sessions WHERE session_hash = ${sha256Hex(token)}`

    return { create, use, destroy } as const
  })
}) {}
