/**
 * A tenant's members (issue 36, docs/portal.md "Members"): the list, invitations by e-mail (a link
 * valid 7 days, once, that creates the user when `POST /v1/client-auth/verify` takes it), resend
 * and revoke, a change of role and a removal. Owners and admins manage; only an owner makes,
 * demotes or removes an owner; the last owner stays (409). Every change has its audit row, in the
 * transaction of the change; an invitation's e-mail goes out after it commits, and a mail server
 * that refuses it undoes nothing (resend).
 */
import {
  type ChangeRoleRequest,
  type ClientId,
  Conflict,
  Forbidden,
  type InvitationId,
  type InviteMemberRequest,
  NotFound,
  type Role,
  type UserId
} from "@callsight/api-spec"
import { Effect } from "effect"
import { AppConfig } from "../config.js"
import { isUniqueViolation } from "../db/SqlErrors.js"
import { Transactions } from "../db/Transactions.js"
import { newId } from "../lib/Ids.js"
import { Mailer } from "../mail/Mailer.js"
import { invitationMessage } from "../mail/Messages.js"
import { type Actor, AuditLog, changed, unchanged } from "../tenancy/AuditLog.js"
import { INVITATION_DAYS, InvitationsRepo } from "../tenancy/InvitationsRepo.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { MembersRepo } from "./MembersRepo.js"

/** Who manages: a signed-in owner or admin of the tenant, or staff acting for it. */
export interface Manager {
  readonly clientId: ClientId
  readonly actor: Actor
  /** The manager's own role; staff act as an owner. */
  readonly role: typeof Role.Type
  /** How the invitation e-mail names who invited. */
  readonly name: string
}

const ownersOnly = (what: string) => new Forbidden({ message: `only an owner can ${what}` })
const lastOwner = (what: string) =>
  new Conflict({ message: `the account's last owner cannot be ${what}: make another member an owner first` })

export class Members extends Effect.Service<Members>()("Members", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const transactions = yield* Transactions
    const repo = yield* MembersRepo
    const invitations = yield* InvitationsRepo
    const tenants = yield* TenantsRepo
    const audit = yield* AuditLog
    const mailer = yield* Mailer

    /** The members, and the open invitations when the caller may manage them. */
    const list = Effect.fn("Members.list")(function* (clientId: ClientId, manages: boolean) {
      const [members, open] = yield* Effect.all([repo.list(clientId), manages ? invitations.open(clientId) : Effect.succeed([])])
      return { members, invitations: open }
    }, Effect.orDie)

    /** E-mails an invitation's link; a refusal of the mail server is logged, not answered: resend. */
    const send = (manager: Manager, to: string, role: typeof Role.Type, token: string) =>
      Effect.gen(function* () {
        const tenant = yield* tenants.get(manager.clientId)
        yield* mailer.send(invitationMessage({
          to,
          baseUrl: config.publicBaseUrl,
          token,
          companyName: tenant.company_name,
          role,
          invitedBy: manager.name,
          validDays: INVITATION_DAYS
        }))
      }).pipe(Effect.catchTag("MailFailed", (error) => Effect.logError("an invitation e-mail was not sent", error.message)))

    const invite = Effect.fn("Members.invite")(function* (manager: Manager, req: InviteMemberRequest) {
      if (req.role === "owner" && manager.role !== "owner") return yield* ownersOnly("invite an owner")
      const invitationId = newId("inv") as InvitationId
      const created = yield* transactions.run(
        Effect.gen(function* () {
          if (yield* tenants.emailTaken(req.email)) {
            return yield* new Conflict({ message: `the e-mail ${req.email} already has an account` })
          }
          if (yield* invitations.openFor(manager.clientId, req.email)) {
            return yield* new Conflict({ message: `${req.email} has an open invitation: resend or revoke it` })
          }
          const made = yield* invitations.insert({
            invitationId,
            clientId: manager.clientId,
            email: req.email,
            fullName: req.full_name ?? null,
            role: req.role,
            invitedBy: manager.actor.id
          })
          yield* audit.record(manager.clientId, manager.actor, {
            action: "member.invited",
            targetType: "invitation",
            targetId: invitationId,
            metadata: { email: req.email, role: req.role }
          })
          return made
        })
      ).pipe(
        Effect.catchTag("SqlError", (error) =>
          isUniqueViolation(error)
            ? Effect.fail(new Conflict({ message: `${req.email} has an open invitation: resend or revoke it` }))
            : Effect.die(error)
        )
      )
      yield* send(manager, req.email, req.role, created.token)
      return created.invitation
    })

    const invitationNotFound = (invitationId: InvitationId) => () => new NotFound({ message: `no invitation ${invitationId}` })

    const resend = Effect.fn("Members.resend")(function* (manager: Manager, invitationId: InvitationId) {
      const renewed = yield* audit.change({
        clientId: manager.clientId,
        actor: manager.actor,
        lock: invitations.lock({ clientId: manager.clientId, invitationId }),
        notFound: invitationNotFound(invitationId),
        apply: (invitation) =>
          Effect.gen(function* () {
            if (invitation.status === "accepted" || invitation.status === "revoked") {
              return yield* new Conflict({ message: `the invitation ${invitationId} was ${invitation.status}` })
            }
            if (invitation.role === "owner" && manager.role !== "owner") return yield* ownersOnly("resend an owner's invitation")
            const made = yield* invitations.renew(invitationId)
            return changed(made, {
              action: "member.invitation_resent",
              targetType: "invitation",
              targetId: invitationId,
              metadata: { email: invitation.email, role: invitation.role }
            })
          })
      })
      yield* send(manager, renewed.invitation.email, renewed.invitation.role, renewed.token)
      return renewed.invitation
    })

    const revoke = Effect.fn("Members.revoke")((manager: Manager, invitationId: InvitationId) =>
      audit.change({
        clientId: manager.clientId,
        actor: manager.actor,
        lock: invitations.lock({ clientId: manager.clientId, invitationId }),
        notFound: invitationNotFound(invitationId),
        apply: (invitation) =>
          Effect.gen(function* () {
            if (invitation.status === "accepted") return yield* new Conflict({ message: `the invitation ${invitationId} was accepted: remove the member instead` })
            if (invitation.status === "revoked") return yield* new Conflict({ message: `the invitation ${invitationId} was revoked already` })
            if (invitation.role === "owner" && manager.role !== "owner") return yield* ownersOnly("revoke an owner's invitation")
            return changed(yield* invitations.revoke(invitationId), {
              action: "member.invitation_revoked",
              targetType: "invitation",
              targetId: invitationId,
              metadata: { email: invitation.email, role: invitation.role }
            })
          })
      }))

    const memberNotFound = (userId: UserId) => () => new NotFound({ message: `no member ${userId}` })

    const changeRole = Effect.fn("Members.changeRole")((manager: Manager, userId: UserId, req: ChangeRoleRequest) =>
      audit.change({
        clientId: manager.clientId,
        actor: manager.actor,
        lock: repo.lock({ clientId: manager.clientId, userId }),
        notFound: memberNotFound(userId),
        apply: ({ owners, ...member }) =>
          Effect.gen(function* () {
            if (member.role === req.role) return unchanged(member)
            if ((member.role === "owner" || req.role === "owner") && manager.role !== "owner") {
              return yield* ownersOnly(member.role === "owner" ? "change an owner's role" : "make an owner")
            }
            if (member.role === "owner" && owners <= 1) return yield* lastOwner("demoted")
            return changed(yield* repo.setRole({ clientId: manager.clientId, userId, role: req.role }), {
              action: "member.role_changed",
              targetType: "user",
              targetId: userId,
              metadata: { email: member.email, from: member.role, to: req.role }
            })
          })
      }))

    const remove = Effect.fn("Members.remove")((manager: Manager, userId: UserId) =>
      audit.change({
        clientId: manager.clientId,
        actor: manager.actor,
        lock: repo.lock({ clientId: manager.clientId, userId }),
        notFound: memberNotFound(userId),
        apply: ({ owners, ...member }) =>
          Effect.gen(function* () {
            if (member.role === "owner" && manager.role !== "owner") return yield* ownersOnly("remove an owner")
            if (member.role === "owner" && owners <= 1) return yield* lastOwner("removed")
            yield* repo.remove({ clientId: manager.clientId, userId })
            return changed(member, {
              action: "member.removed",
              targetType: "user",
              targetId: userId,
              metadata: { email: member.email, role: member.role }
            })
          })
      }))

    return { list, invite, resend, revoke, changeRole, remove } as const
  }),
  dependencies: [MembersRepo.Default, InvitationsRepo.Default, TenantsRepo.Default, AuditLog.Default, Transactions.Default]
}) {}
