/**
 * Handlers of the `members` group (issue 36): the portal's users and invitations, for a signed-in
 * user; and of `membersAdmin`, the same for staff on a named tenant, acting as an owner.
 */
import { CallsightApi, type ClientId, NotFound } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { type Caller, Callers } from "../tenancy/Caller.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { type Manager, Members } from "./Members.js"

/** A signed-in owner or admin as the members service takes them. */
const asManager = (c: Caller): Manager => ({ clientId: c.clientId, actor: c.actor, role: c.user.role, name: c.user.email })

export const MembersHttpLive = HttpApiBuilder.group(CallsightApi, "members", (handlers) =>
  Effect.gen(function* () {
    const members = yield* Members
    const callers = yield* Callers
    const manager = Effect.map(callers.manager("manage the account's members"), asManager)
    return handlers
      .handle("listMembers", () => Effect.flatMap(callers.user, (c) => members.list(c.clientId, c.user.role !== "member")))
      .handle("inviteMember", ({ payload }) => Effect.flatMap(manager, (m) => members.invite(m, payload)))
      .handle("resendInvitation", ({ path }) => Effect.flatMap(manager, (m) => members.resend(m, path.invitation_id)))
      .handle("revokeInvitation", ({ path }) => Effect.flatMap(manager, (m) => members.revoke(m, path.invitation_id)))
      .handle("changeMemberRole", ({ path, payload }) => Effect.flatMap(manager, (m) => members.changeRole(m, path.user_id, payload)))
      .handle("removeMember", ({ path }) => Effect.flatMap(manager, (m) => members.remove(m, path.user_id)))
  })
).pipe(Layer.provide([Members.Default, Callers.Default]))

export const MembersAdminHttpLive = HttpApiBuilder.group(CallsightApi, "membersAdmin", (handlers) =>
  Effect.gen(function* () {
    const members = yield* Members
    const callers = yield* Callers
    const tenants = yield* TenantsRepo
    /** Staff as an owner of the tenant the path names; 404 when there is none. */
    const staffOf = (clientId: ClientId) =>
      Effect.gen(function* () {
        if (!(yield* Effect.orDie(tenants.exists(clientId)))) return yield* new NotFound({ message: `no client ${clientId}` })
        const actor = yield* callers.staff
        return { clientId, actor, role: "owner", name: "Callsight staff" } satisfies Manager
      })
    return handlers
      .handle("adminListMembers", ({ path }) => Effect.flatMap(staffOf(path.client_id), (m) => members.list(m.clientId, true)))
      .handle("adminInviteMember", ({ path, payload }) => Effect.flatMap(staffOf(path.client_id), (m) => members.invite(m, payload)))
      .handle("adminResendInvitation", ({ path }) => Effect.flatMap(staffOf(path.client_id), (m) => members.resend(m, path.invitation_id)))
      .handle("adminRevokeInvitation", ({ path }) => Effect.flatMap(staffOf(path.client_id), (m) => members.revoke(m, path.invitation_id)))
      .handle("adminChangeMemberRole", ({ path, payload }) =>
        Effect.flatMap(staffOf(path.client_id), (m) => members.changeRole(m, path.user_id, payload)))
      .handle("adminRemoveMember", ({ path }) => Effect.flatMap(staffOf(path.client_id), (m) => members.remove(m, path.user_id)))
  })
).pipe(Layer.provide([Members.Default, Callers.Default, TenantsRepo.Default]))
