/**
 * Magic-link tokens: 32 random bytes sent by e-mail, stored as SHA-256 only, valid 15 minutes,
 * used once. Taking a token is one conditional UPDATE, so two requests racing with one token
 * cannot both succeed; it also ends every other open link of the same user (or closer) and
 * purpose, so an older link e-mailed earlier cannot be used after a newer one was.
 */
import { ClientId, CloserId, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"
import { newSecret, sha256Hex } from "../lib/Ids.js"

export const MAGIC_LINK_MINUTES = 15

const LinkPurpose = Schema.Literal("sign_in", "closer_email")
export type LinkPurpose = typeof LinkPurpose.Type

export interface IssuedLink {
  readonly token: string
  readonly expiresAt: Date
}

const NewLink = Schema.Struct({
  hash: Schema.String,
  purpose: LinkPurpose,
  clientId: ClientId,
  userId: Schema.NullOr(UserId),
  closerId: Schema.NullOr(CloserId),
  email: Schema.String
})

const TakenLink = Schema.Struct({
  client_id: ClientId,
  user_id: Schema.NullOr(UserId),
  closer_id: Schema.NullOr(CloserId),
  email: Schema.String
})

export class MagicLinksRepo extends Effect.Service<MagicLinksRepo>()("MagicLinksRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = Rows.single({
      Request: NewLink,
      Result: Schema.Struct({ expires_at: Schema.DateFromSelf }),
      execute: (l) =>
        sql`INSERT INTO magic_links (token_hash, purpose, client_id, user_id, closer_id, email, expires_at)
            VALUES (${l.hash}, ${l.purpose}, ${l.clientId}, ${l.userId}, ${l.closerId}, ${l.email},
                    now() + make_interval(mins => ${MAGIC_LINK_MINUTES}))
            RETURNING expires_at`
    })

    const issue = (link: {
      readonly purpose: LinkPurpose
      readonly clientId: ClientId
      readonly userId?: UserId | undefined
      readonly closerId?: CloserId | undefined
      readonly email: string
    }) =>
      Effect.gen(function* () {
        const token = newSecret("mlk")
        const row = yield* insert({ ...link, hash: sha256Hex(token), userId: link.userId ?? null, closerId: link.closerId ?? null })
        return { token, expiresAt: row.expires_at } satisfies IssuedLink
      })

    /**
     * Marks the token used and answers what it was for; none when unknown, used, expired or of
     * another purpose. The other open links of its user or closer, same purpose, end with it.
     */
    const takeQuery = Rows.findOne({
      Request: Schema.Struct({ purpose: LinkPurpose, hash: Schema.String }),
      Result: TakenLink,
      execute: ({ hash, purpose }) =>
        sql`
          WITH taken AS (
            UPDATE magic_links SET used_at = now()
            WHERE token_hash = ${hash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
            RETURNING client_id, user_id, closer_id, email),
          ended AS (
            UPDATE magic_links m SET used_at = now() FROM taken t
            WHERE m.purpose = ${purpose} AND m.used_at IS NULL AND m.token_hash <> ${hash}
              AND (m.user_id = t.user_id OR m.closer_id = t.closer_id))
          SELECT client_id, user_id, closer_id, email FROM taken`
    })

    const take = (purpose: LinkPurpose, token: string) => takeQuery({ purpose, hash: sha256Hex(token) })

    return { issue, take } as const
  })
}) {}
