/**
 * Invitations to join a tenant (issue 36, migration 0017): written by the members feature, taken by
 * sign-in (`SignIn.verify`), which turns a used link into the user. A token is 32 random bytes sent
 * by e-mail and stored as SHA-256 only; taking it is one conditional UPDATE, so two requests racing
 * with one link cannot both create a user.
 */
import { ClientId, Invitation, InvitationId, Role, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { newSecret, sha256Hex } from "../lib/Ids.js"

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7

const InvitationRow = Schema.Struct({ ...Invitation.fields, created_at: IsoTimestamp, expires_at: IsoTimestamp })

const columns = (sql: SqlClient.SqlClient) =>
  sql`invitation_id, email, full_name, role, invited_by, created_at, expires_at,
      CASE WHEN accepted_at IS NOT NULL THEN 'accepted' WHEN revoked_at IS NOT NULL THEN 'revoked'
           WHEN expires_at <= now() THEN 'expired' ELSE 'pending' END AS status`

/** What a used link was for: the person to create and where. */
const Taken = Schema.Struct({
  invitation_id: InvitationId,
  client_id: ClientId,
  email: Schema.String,
  full_name: Schema.NullOr(Schema.String),
  role: Role
})

export class InvitationsRepo extends Effect.Service<InvitationsRepo>()("InvitationsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insertQuery = Rows.single({
      Request: Schema.Struct({
        invitationId: InvitationId,
        clientId: ClientId,
        email: Schema.String,
        fullName: Schema.NullOr(Schema.String),
        role: Role,
        invitedBy: Schema.String,
        hash: Schema.String
      }),
      Result: InvitationRow,
      execute: (i) =>
        sql`INSERT INTO invitations (invitation_id, client_id, email, full_name, role, invited_by, token_hash, expires_at)
            VALUES (${i.invitationId}, ${i.clientId}, ${i.email}, ${i.fullName}, ${i.role}, ${i.invitedBy}, ${i.hash},
                    now() + make_interval(days => ${INVITATION_DAYS}))
            RETURNING ${columns(sql)}`
    })

    /** A new invitation and the token of its link (shown only in the e-mail). */
    const insert = (i: {
      readonly invitationId: InvitationId
      readonly clientId: ClientId
      readonly email: string
      readonly fullName: string | null
      readonly role: typeof Role.Type
      readonly invitedBy: string
    }) =>
      Effect.gen(function* () {
        const token = newSecret("inv")
        const invitation = yield* insertQuery({ ...i, hash: sha256Hex(token) })
        return { invitation, token }
      })

    const open = Rows.findAll({
      Request: ClientId,
      Result: InvitationRow,
      execute: (clientId) =>
        sql`SELECT ${columns(sql)} FROM invitations
            WHERE client_id = ${clientId} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
            ORDER BY created_at DESC, invitation_id`
    })

    /** Whether the tenant has an invitation not yet accepted nor revoked for this e-mail (expired or not). */
    const openFor = Rows.single({
      Request: Schema.Struct({ clientId: ClientId, email: Schema.String }),
      Result: Schema.Struct({ exists: Schema.Boolean }),
      execute: ({ clientId, email }) =>
        sql`SELECT EXISTS (SELECT 1 FROM invitations WHERE client_id = ${clientId} AND lower(email) = lower(${email})
                           AND accepted_at IS NULL AND revoked_at IS NULL) AS exists`
    })

    /** The invitation, locked for a change; none when the tenant has no such invitation. */
    const lock = Rows.findOne({
      Request: Schema.Struct({ clientId: ClientId, invitationId: InvitationId }),
      Result: InvitationRow,
      execute: ({ clientId, invitationId }) =>
        sql`SELECT ${columns(sql)} FROM invitations WHERE client_id = ${clientId} AND invitation_id = ${invitationId} FOR UPDATE`
    })

    const renewQuery = Rows.single({
      Request: Schema.Struct({ invitationId: InvitationId, hash: Schema.String }),
      Result: InvitationRow,
      execute: ({ hash, invitationId }) =>
        sql`UPDATE invitations SET token_hash = ${hash}, expires_at = now() + make_interval(days => ${INVITATION_DAYS})
            WHERE invitation_id = ${invitationId}
            RETURNING ${columns(sql)}`
    })

    /** A new token and 7 more days: the link e-mailed before stops working. */
    const renew = (invitationId: InvitationId) =>
      Effect.gen(function* () {
        const token = newSecret("inv")
        const invitation = yield* renewQuery({ invitationId, hash: sha256Hex(token) })
        return { invitation, token }
      })

    const revoke = Rows.single({
      Request: InvitationId,
      Result: InvitationRow,
      execute: (invitationId) =>
        sql`UPDATE invitations SET revoked_at = now() WHERE invitation_id = ${invitationId} RETURNING ${columns(sql)}`
    })

    const takeQuery = Rows.findOne({
      Request: Schema.String,
      Result: Taken,
      execute: (hash) =>
        sql`UPDATE invitations SET accepted_at = now()
            WHERE token_hash = ${hash} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
            RETURNING invitation_id, client_id, email, full_name, role`
    })

    /** Marks the link's invitation accepted and answers it; none when unknown, used, revoked or expired. */
    const take = (token: string) => takeQuery(sha256Hex(token))

    const markAccepted = Rows.execute({
      Request: Schema.Struct({ invitationId: InvitationId, userId: UserId }),
      execute: ({ invitationId, userId }) => sql`UPDATE invitations SET accepted_user_id = ${userId} WHERE invitation_id = ${invitationId}`
    })

    return { insert, open, openFor: (clientId: ClientId, email: string) => Effect.map(openFor({ clientId, email }), (r) => r.exists), lock, renew, revoke, take, markAccepted } as const
  })
}) {}
