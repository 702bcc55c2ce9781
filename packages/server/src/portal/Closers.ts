/**
 * Closers, the tenant's sales reps (docs/domain.md "Closers"). Adding one sends a verification e-mail
 * (a magic link, 15 minutes, single use); the public verify-email operation takes the token and
 * makes the closer `active`. Status changes: `active` needs a verified e-mail (409), `paused` and
 * `removed` are always allowed, and `pending_verification` is the service's own. Adding an e-mail
 * whose closer was removed brings that closer back, pending verification again. Owners and admins
 * manage closers; every change has its audit row.
 */
import {
  type AddCloserRequest,
  type ClientId,
  type Closer,
  CloserId,
  Conflict,
  NotFound,
  Unauthorized,
  type UpdateCloserStatusRequest
} from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { AppConfig } from "../config.js"
import { isUniqueViolation } from "../db/SqlErrors.js"
import { Transactions } from "../db/Transactions.js"
import { newId } from "../lib/Ids.js"
import { Mailer } from "../mail/Mailer.js"
import { closerVerificationMessage } from "../mail/Messages.js"
import { AuditLog, changed, unchanged } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { MAGIC_LINK_MINUTES, MagicLinksRepo } from "../tenancy/MagicLinksRepo.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { type CloserRow, ClosersRepo, closerView as view } from "../tenancy/ClosersRepo.js"

export class Closers extends Effect.Service<Closers>()("Closers", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const transactions = yield* Transactions
    const repo = yield* ClosersRepo
    const tenants = yield* TenantsRepo
    const links = yield* MagicLinksRepo
    const audit = yield* AuditLog
    const mailer = yield* Mailer

    const found = (clientId: ClientId, closerId: CloserId) =>
      Effect.flatMap(repo.find(clientId, closerId), Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `no closer ${closerId}` })),
        onSome: Effect.succeed
      }))

    /** A verification link for the closer's e-mail; issued inside the transaction of the change. */
    const issueVerification = (clientId: ClientId, closer: CloserRow) =>
      links.issue({ purpose: "closer_email", clientId, closerId: closer.closer_id, email: closer.email })

    /** Sends the link, after the commit; answers whether the mail server took it. */
    const mailVerification = (clientId: ClientId, closer: CloserRow, token: string) =>
      Effect.gen(function* () {
        return yield* mailer.send(closerVerificationMessage({
          to: closer.email,
          baseUrl: config.publicBaseUrl,
          token,
          fullName: closer.full_name,
          companyName: (yield* tenants.get(clientId)).company_name,
          validMinutes: MAGIC_LINK_MINUTES
        })).pipe(
          Effect.as(true),
          Effect.catchTag("MailFailed", (error) => Effect.as(Effect.logError("a closer verification e-mail was not sent", error.message), false))
        )
      })

    const list = Effect.fn("Closers.list")(function* (clientId: ClientId) {
      return { closers: (yield* repo.list(clientId)).map(view) }
    }, Effect.orDie)

    const add = Effect.fn("Closers.add")(function* (caller: Caller, req: AddCloserRequest) {
      const clientId = caller.clientId
      const team = req.team ?? null
      const { closer, link } = yield* transactions.run(
        Effect.gen(function* () {
          const existing = yield* repo.lockByEmail(clientId, req.email)
          if (Option.isSome(existing) && existing.value.status !== "removed") {
            return yield* new Conflict({ message: `${req.email} is already a closer (${existing.value.closer_id})` })
          }
          const closer = Option.isSome(existing)
            ? yield* repo.reAdd(clientId, existing.value.closer_id, { fullName: req.full_name, team })
            : yield* repo.insert({ closerId: CloserId.make(newId("clo")), clientId, email: req.email, fullName: req.full_name, team })
          yield* audit.record(clientId, caller.actor, {
            action: Option.isNone(existing) ? "closer.added" : "closer.re_added",
            targetType: "closer",
            targetId: closer.closer_id,
            metadata: { email: req.email, full_name: req.full_name, team }
          })
          return { closer, link: yield* issueVerification(clientId, closer) }
        })
      ).pipe(
        Effect.catchTag("SqlError", (error) =>
          isUniqueViolation(error)
            ? Effect.fail(new Conflict({ message: `${req.email} is already a closer` }))
            : Effect.die(error)
        )
      )
      yield* mailVerification(clientId, closer, link.token)
      return view(closer)
    })

    const updateStatus = Effect.fn("Closers.updateStatus")((caller: Caller, closerId: CloserId, req: UpdateCloserStatusRequest) =>
      audit.change({
        clientId: caller.clientId,
        actor: caller.actor,
        lock: repo.lock(caller.clientId, closerId),
        notFound: () => new NotFound({ message: `no closer ${closerId}` }),
        apply: (closer) => {
          if (req.status === "active" && closer.email_verified_at === null) {
            return Effect.fail(
              new Conflict({ message: `${closer.email} is not verified yet: a closer becomes active once the e-mail is confirmed` })
            )
          }
          if (closer.status === req.status) return Effect.succeed(unchanged(view(closer)))
          return Effect.map(repo.setStatus(caller.clientId, closerId, req.status), (row) =>
            changed(view(row), {
              action: "closer.status_changed",
              targetType: "closer",
              targetId: closerId,
              metadata: { from: closer.status, to: req.status }
            }))
        }
      }))

    const resendVerification = Effect.fn("Closers.resendVerification")(function* (caller: Caller, closerId: CloserId) {
      const clientId = caller.clientId
      const closer = yield* Effect.catchTag(found(clientId, closerId), "SqlError", Effect.die)
      if (closer.email_verified_at !== null) {
        return yield* new Conflict({ message: `${closer.email} is already verified` })
      }
      if (closer.status === "removed") {
        return yield* new Conflict({ message: `${closer.email} was removed: add the closer again to send a verification` })
      }
      const link = yield* Effect.orDie(
        transactions.run(
          Effect.zipLeft(
            issueVerification(clientId, closer),
            audit.record(clientId, caller.actor, { action: "closer.verification_sent", targetType: "closer", targetId: closerId })
          )
        )
      )
      const sent = yield* mailVerification(clientId, closer, link.token)
      return { closer_id: closerId, email: closer.email, verification_sent: sent, expires_at: link.expiresAt.toISOString() }
    })

    /** Public: the closer's own click. The closer becomes active unless paused or removed meanwhile. */
    const verifyEmail = Effect.fn("Closers.verifyEmail")(function* (token: string, ip: string | null) {
      return yield* transactions.run(
        Effect.gen(function* () {
          const link = yield* links.take("closer_email", token)
          if (Option.isNone(link) || link.value.closer_id === null) {
            return yield* new Unauthorized({ message: "the verification link is unknown, used or expired: ask for a new one" })
          }
          const { client_id, closer_id } = link.value
          const closer = yield* repo.markVerified(client_id, closer_id)
          yield* audit.record(client_id, { id: closer_id, type: "system", ip }, {
            action: "closer.email_verified",
            targetType: "closer",
            targetId: closer_id,
            metadata: { email: closer.email }
          })
          // just set by markVerified
          return { closer_id, email: closer.email, status: closer.status, email_verified_at: closer.email_verified_at! }
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
    })

    return { list, add, updateStatus, resendVerification, verifyEmail } as const
  }),
  dependencies: [ClosersRepo.Default, TenantsRepo.Default, MagicLinksRepo.Default, AuditLog.Default, Transactions.Default]
}) {}
