/**
 * Who calls, for the services: the tenant (`CurrentClient`, which every credential provides), the
 * actor its audit rows name, and the role policy of the portal's users: owners and admins manage
 * API keys, closers, integrations and the recorder; members read, save profiles and record
 * outcomes. The assistant acts for the tenant its request names (`actingFor`).
 */
import {
  type ClientId,
  type ClientIdentity,
  CurrentClient,
  type Sees,
  Forbidden,
  NotFound,
  Staff,
  type UserIdentity
} from "@callsight/api-spec"
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import type { Actor } from "./AuditLog.js"
import { RequestOrigin } from "./RequestOrigin.js"
import { TenantsRepo } from "./TenantsRepo.js"

/** A signed-in user of the portal acting for their tenant. */
export interface Caller {
  readonly clientId: ClientId
  readonly user: UserIdentity
  readonly actor: Actor
  /** Whose calls this request sees (the policy's "self": a rep's own; `Sees.ts`). */
  readonly sees: Sees
}

/** The audit actor of whoever acts for the tenant. */
const actorOf = (identity: ClientIdentity, ip: string | null): Actor => {
  const principal = identity.principal
  switch (principal._tag) {
    case "User":
      return { id: principal.user.userId, type: "user", ip }
    case "ApiKey":
      return { id: principal.keyId, type: "api_key", ip }
    case "Staff":
      return { id: `staff:${principal.kind}`, type: "staff", ip }
  }
}

type Request = HttpServerRequest.HttpServerRequest

export class Callers extends Effect.Service<Callers>()("Callers", {
  effect: Effect.gen(function* () {
    const { current: origin } = yield* RequestOrigin
    const tenants = yield* TenantsRepo

    /** The audit actor of this request, whatever the credential. */
    const actor: Effect.Effect<Actor, never, CurrentClient | Request> = Effect.gen(function* () {
      const { ip } = yield* origin
      return actorOf(yield* CurrentClient, ip)
    })

    /** The signed-in user; 403 when the tenant's caller is not one (a key or staff cannot act as a person). */
    const user: Effect.Effect<Caller, Forbidden, CurrentClient | Request> = Effect.gen(function* () {
      const identity = yield* CurrentClient
      if (identity.principal._tag !== "User") {
        return yield* new Forbidden({ message: "this operation needs a signed-in user of the portal" })
      }
      const { ip } = yield* origin
      return { clientId: identity.clientId, user: identity.principal.user, actor: actorOf(identity, ip), sees: identity.principal.sees }
    })

    /** The signed-in user, when an owner or an admin; 403 for a member. */
    const manager = (what: string): Effect.Effect<Caller, Forbidden, CurrentClient | Request> =>
      Effect.flatMap(user, (caller) =>
        caller.user.role === "member"
          ? Effect.fail(new Forbidden({ message: `members cannot ${what}: ask an owner or an admin of the account` }))
          : Effect.succeed(caller))

    /** The audit actor of a staff request (admin key or assistant key). */
    const staff: Effect.Effect<Actor, never, Staff | Request> = Effect.gen(function* () {
      const { kind } = yield* Staff
      const { ip } = yield* origin
      return { id: `staff:${kind}`, type: "staff", ip }
    })

    /**
     * Runs `effect` for the tenant a staff request names (the assistant's `client_id`): it provides
     * `CurrentClient` as the tenant key and the session do; 404 when there is no such tenant.
     */
    const actingFor = <A, E, R>(clientId: ClientId, effect: Effect.Effect<A, E, R>) =>
      Effect.gen(function* () {
        const { kind } = yield* Staff
        if (!(yield* Effect.orDie(tenants.exists(clientId)))) return yield* new NotFound({ message: `no client ${clientId}` })
        return yield* Effect.provideService(effect, CurrentClient, { clientId, principal: { _tag: "Staff", kind } })
      })

    return { actor, user, manager, staff, actingFor } as const
  }),
  dependencies: [RequestOrigin.Default, TenantsRepo.Default]
}) {}
