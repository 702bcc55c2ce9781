/**
 * Magic-link tokens: 32 random bytes sent by e-mail, stored as SHA-256 only, valid 15 minutes,
 * used once. Taking a token is one conditional UPDATE, so two requests racing with one token
 * cannot both succeed.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { newSecret, sha256Hex } from "../lib/Ids.js"

export const MAGIC_LINK_MINUTES = 15

export type LinkPurpose = "sign_in" | "closer_email"

export interface IssuedLink {
  readonly token: string
  readonly expiresAt: Date
}

export interface TakenLink {
  readonly client_id: string
  readonly user_id: string | null
  readonly closer_id: string | null
  readonly email: string
}

export class MagicLinksRepo extends Effect.Service<MagicLinksRepo>()("MagicLinksRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const issue = (link: {
      readonly purpose: LinkPurpose
      readonly clientId: string
      readonly userId?: string | undefined
      readonly closerId?: string | undefined
      readonly email: string
    }) =>
      Effect.gen(function* () {
        const token = newSecret("mlk")
        const [row] = yield* sql<{ expires_at: Date }>`
          INSERT INTO magic_links (token_hash, purpose, client_id, user_id, closer_id, email, expires_at)
          VALUES (${sha256Hex(token)}, ${link.purpose}, ${link.clientId}, ${link.userId ?? null}, ${link.closerId ?? null},
                  ${link.email}, now() + make_interval(mins => ${MAGIC_LINK_MINUTES}))
          RETURNING expires_at`
        return { token, expiresAt: row!.expires_at } satisfies IssuedLink
      })

    /** Marks the token used and answers what it was for; none when unknown, used, expired or of another purpose. */
    const take = (purpose: LinkPurpose, token: string) =>
      sql<TakenLink>`
        UPDATE magic_links SET used_at = now()
        WHERE token_hash = ${sha256Hex(token)} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
        RETURNING client_id, user_id, closer_id, email`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])))

    return { issue, take } as const
  })
}) {}
