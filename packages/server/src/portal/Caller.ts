/**
 * The signed-in caller of a portal operation: the user of the session, the actor of the audit
 * rows it writes, and the rule on roles (owners and admins manage API keys, closers, integrations
 * and the recorder; members read, save profiles and record outcomes).
 */
import { CurrentUser, Forbidden, type UserIdentity } from "@callsight/api-spec"
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { RequestOrigin } from "../auth/RequestOrigin.js"
import type { Actor } from "./AuditLog.js"

export interface Caller {
  readonly user: UserIdentity
  readonly actor: Actor
}

export class Callers extends Effect.Service<Callers>()("Callers", {
  effect: Effect.gen(function* () {
    const { current: origin } = yield* RequestOrigin

    /** The session's user and the audit actor, from where the request came. */
    const current: Effect.Effect<Caller, never, CurrentUser | HttpServerRequest.HttpServerRequest> = Effect.gen(function* () {
      const user = yield* CurrentUser
      const { ip } = yield* origin
      return { user, actor: { id: user.userId, type: "user", ip } }
    })

    /** The caller, when an owner or an admin; 403 for a member. */
    const manager = (what: string) =>
      Effect.flatMap(current, (caller) =>
        caller.user.role === "member"
          ? Effect.fail(new Forbidden({ message: `members cannot ${what}: ask an owner or an admin of the account` }))
          : Effect.succeed(caller))

    return { current, manager } as const
  }),
  dependencies: [RequestOrigin.Default]
}) {}
