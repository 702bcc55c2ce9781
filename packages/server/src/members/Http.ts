/** Handlers of the `members` group (issue 36): the portal's users and invitations, for a signed-in user. */
import { CallsightApi } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { type Caller, Callers } from "../tenancy/Caller.js"
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
