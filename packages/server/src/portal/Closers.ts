/**
 * Closers, the tenant's sales reps (DOMAIN.md "Closers"). Adding one sends a verification e-mail
 * (a magic link, 15 minutes, single use); the public verify-email operation takes the token and
 * makes the closer `active`. Status changes: `active` needs a verified e-mail (409), `paused` and
 * `removed` are always allowed, and `pending_verification` is the service's own. Adding an e-mail
 * whose closer was removed brings that closer back, pending verification again. Owners and admins
 * manage closers; every change has its audit row.
 */
import {
  type AddCloserRequest,
  type Closer,
  Conflict,
  NotFound,
  Unauthorized,
  type UpdateCloserStatusRequest
} from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { MAGIC_LINK_MINUTES, MagicLinksRepo } from "../auth/MagicLinksRepo.js"
import { AppConfig } from "../config.js"
import { isUniqueViolation } from "../db/SqlErrors.js"
import { newId } from "../lib/Ids.js"
import { Mailer } from "../mail/Mailer.js"
import { closerVerificationMessage } from "../mail/Messages.js"
import { AuditLog } from "./AuditLog.js"
import type { Caller } from "./Caller.js"

type CloserStatus = (typeof Closer.Type)["status"]

interface CloserRow {
  readonly closer_id: string
  readonly client_id: string
  readonly email: string
  readonly full_name: string
  readonly team: string | null
  readonly status: CloserStatus
  readonly email_verified_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
}

/** Calendar and video connections arrive with the integrations; until then none is connected. */
const NOT_CONNECTED = { connected: false, connected_at: null, token_expires_at: null } as const

const view = (r: CloserRow): typeof Closer.Type => ({
  closer_id: r.closer_id,
  email: r.email,
  full_name: r.full_name,
  team: r.team,
  status: r.status,
  email_verified_at: r.email_verified_at?.toISOString() ?? null,
  calendar: NOT_CONNECTED,
  video: NOT_CONNECTED,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString()
})

export class Closers extends Effect.Service<Closers>()("Closers", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    const links = yield* MagicLinksRepo
    const audit = yield* AuditLog
    const mailer = yield* Mailer

    const columns = sql`closer_id, client_id, email, full_name, team, status, email_verified_at, created_at, updated_at`

    const find = (clientId: string, closerId: string) =>
      sql<CloserRow>`SELECT ${columns} FROM closers WHERE client_id = ${clientId} AND closer_id = ${closerId}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    const found = (clientId: string, closerId: string) =>
      Effect.flatMap(find(clientId, closerId), Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `no closer ${closerId}` })),
        onSome: Effect.succeed
      }))

    /** A verification link for the closer's e-mail; issued inside the transaction of the change. */
    const issueVerification = (closer: CloserRow) =>
      links.issue({ purpose: "closer_email", clientId: closer.client_id, closerId: closer.closer_id, email: closer.email })

    /** Sends the link, after the commit; answers whether the mail server took it. */
    const mailVerification = (closer: CloserRow, token: string) =>
      Effect.gen(function* () {
        const [tenant] = yield* Effect.orDie(sql<{ company_name: string }>`SELECT company_name FROM tenants WHERE client_id = ${closer.client_id}`)
        return yield* mailer.send(closerVerificationMessage({
          to: closer.email,
          baseUrl: config.publicBaseUrl,
          token,
          fullName: closer.full_name,
          companyName: tenant!.company_name,
          validMinutes: MAGIC_LINK_MINUTES
        })).pipe(
          Effect.as(true),
          Effect.catchTag("MailFailed", (error) => Effect.as(Effect.logError("a closer verification e-mail was not sent", error.message), false))
        )
      })

    const list = Effect.fn("Closers.list")(function* (clientId: string) {
      const rows = yield* sql<CloserRow>`SELECT ${columns} FROM closers WHERE client_id = ${clientId} ORDER BY created_at, closer_id`
      return { closers: rows.map(view) }
    }, Effect.orDie)

    const add = Effect.fn("Closers.add")(function* (caller: Caller, req: AddCloserRequest) {
      const clientId = caller.user.clientId
      const { closer, link } = yield* sql.withTransaction(
        Effect.gen(function* () {
          const [existing] = yield* sql<CloserRow>`
            SELECT ${columns} FROM closers WHERE client_id = ${clientId} AND lower(email) = lower(${req.email}) FOR UPDATE`
          if (existing !== undefined && existing.status !== "removed") {
            return yield* new Conflict({ message: `${req.email} is already a closer (${existing.closer_id})` })
          }
          const [row] = existing !== undefined
            ? yield* sql<CloserRow>`
                UPDATE closers SET full_name = ${req.full_name}, team = ${req.team ?? null}, status = 'pending_verification',
                       email_verified_at = NULL, updated_at = now()
                WHERE closer_id = ${existing.closer_id} RETURNING ${columns}`
            : yield* sql<CloserRow>`
                INSERT INTO closers (closer_id, client_id, email, full_name, team, status)
                VALUES (${newId("clo")}, ${clientId}, ${req.email}, ${req.full_name}, ${req.team ?? null}, 'pending_verification')
                RETURNING ${columns}`
          yield* audit.record(clientId, caller.actor, {
            action: existing === undefined ? "closer.added" : "closer.re_added",
            targetType: "closer",
            targetId: row!.closer_id,
            metadata: { email: req.email, full_name: req.full_name, team: req.team ?? null }
          })
          return { closer: row!, link: yield* issueVerification(row!) }
        })
      ).pipe(
        Effect.catchTag("SqlError", (error) =>
          isUniqueViolation(error)
            ? Effect.fail(new Conflict({ message: `${req.email} is already a closer` }))
            : Effect.die(error)
        )
      )
      yield* mailVerification(closer, link.token)
      return view(closer)
    })

    const updateStatus = Effect.fn("Closers.updateStatus")(function* (caller: Caller, closerId: string, req: UpdateCloserStatusRequest) {
      const clientId = caller.user.clientId
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const closer = yield* found(clientId, closerId)
          if (req.status === "active" && closer.email_verified_at === null) {
            return yield* new Conflict({ message: `${closer.email} is not verified yet: a closer becomes active once the e-mail is confirmed` })
          }
          if (closer.status === req.status) return view(closer)
          const [row] = yield* sql<CloserRow>`
            UPDATE closers SET status = ${req.status}, updated_at = now() WHERE closer_id = ${closerId} RETURNING ${columns}`
          yield* audit.record(clientId, caller.actor, {
            action: "closer.status_changed",
            targetType: "closer",
            targetId: closerId,
            metadata: { from: closer.status, to: req.status }
          })
          return view(row!)
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
    })

    const resendVerification = Effect.fn("Closers.resendVerification")(function* (caller: Caller, closerId: string) {
      const clientId = caller.user.clientId
      const closer = yield* Effect.catchTag(found(clientId, closerId), "SqlError", Effect.die)
      if (closer.email_verified_at !== null) {
        return yield* new Conflict({ message: `${closer.email} is already verified` })
      }
      if (closer.status === "removed") {
        return yield* new Conflict({ message: `${closer.email} was removed: add the closer again to send a verification` })
      }
      const link = yield* Effect.orDie(
        sql.withTransaction(
          Effect.zipLeft(
            issueVerification(closer),
            audit.record(clientId, caller.actor, { action: "closer.verification_sent", targetType: "closer", targetId: closerId })
          )
        )
      )
      const sent = yield* mailVerification(closer, link.token)
      return { closer_id: closerId, email: closer.email, verification_sent: sent, expires_at: link.expiresAt.toISOString() }
    })

    /** Public: the closer's own click. The closer becomes active unless paused or removed meanwhile. */
    const verifyEmail = Effect.fn("Closers.verifyEmail")(function* (token: string, ip: string | null) {
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const link = yield* links.take("closer_email", token)
          if (Option.isNone(link) || link.value.closer_id === null) {
            return yield* new Unauthorized({ message: "the verification link is unknown, used or expired: ask for a new one" })
          }
          const { client_id, closer_id } = link.value
          const [row] = yield* sql<CloserRow>`
            UPDATE closers SET email_verified_at = now(), updated_at = now(),
                   status = CASE WHEN status = 'pending_verification' THEN 'active' ELSE status END
            WHERE closer_id = ${closer_id} AND client_id = ${client_id} RETURNING ${columns}`
          yield* audit.record(client_id, { id: closer_id, type: "system", ip }, {
            action: "closer.email_verified",
            targetType: "closer",
            targetId: closer_id,
            metadata: { email: row!.email }
          })
          return { closer_id, email: row!.email, status: row!.status, email_verified_at: row!.email_verified_at!.toISOString() }
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
    })

    return { list, add, updateStatus, resendVerification, verifyEmail } as const
  }),
  dependencies: [MagicLinksRepo.Default, AuditLog.Default]
}) {}
