/**
 * The shared floor's account of who calls (`Callers`): the tenant every credential provides as
 * `CurrentClient`, the audit actor, the portal's role policy, and the assistant acting for the
 * tenant its request names.
 */
import { ClientId, type ClientIdentity, CurrentClient, KeyId, Staff, UserId } from "@callsight/api-spec"
import { HttpServerRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { AppConfig } from "../src/config.js"
import { MigrationsLive } from "../src/db/Migrations.js"
import { Callers } from "../src/tenancy/Caller.js"
import { TenantsRepo } from "../src/tenancy/TenantsRepo.js"
import { TestDatabase } from "./utils/TestDatabase.js"

const TestLayer = Layer.mergeAll(Callers.Default, TenantsRepo.Default).pipe(
  Layer.provideMerge(MigrationsLive),
  Layer.provide(AppConfig.layerWith({})),
  Layer.provideMerge(TestDatabase.layer)
)

const request = HttpServerRequest.fromWeb(new Request("http://localhost/x", { headers: { "user-agent": "test" } }))

const owner = (clientId: ClientId): ClientIdentity => ({
  clientId,
  principal: { _tag: "User", user: { userId: UserId.make("usr_1"), clientId, email: "o@acme.test", role: "owner" }, sees: { _tag: "Team" } }
})

layer(TestLayer)("Callers", (it) => {
  const acme = ClientId.make("cli_acme_tenancy")

  it.effect("a signed-in user is the caller, with the audit actor of the user", () =>
    Effect.gen(function* () {
      const callers = yield* Callers
      const caller = yield* callers.user.pipe(
        Effect.provideService(CurrentClient, owner(acme)),
        Effect.provideService(HttpServerRequest.HttpServerRequest, request)
      )
      expect(caller.clientId).toBe(acme)
      expect(caller.actor).toEqual({ id: "usr_1", type: "user", ip: null })
    }))

  it.effect("a tenant key is not a person: user is 403; the actor is the key", () =>
    Effect.gen(function* () {
      const callers = yield* Callers
      const byKey: ClientIdentity = { clientId: acme, principal: { _tag: "ApiKey", keyId: KeyId.make("key_1") } }
      const provide = <A, E>(effect: Effect.Effect<A, E, CurrentClient | HttpServerRequest.HttpServerRequest>) =>
        effect.pipe(Effect.provideService(CurrentClient, byKey), Effect.provideService(HttpServerRequest.HttpServerRequest, request))
      const error = yield* Effect.flip(provide(callers.user))
      expect(error._tag).toBe("Forbidden")
      expect(yield* provide(callers.actor)).toEqual({ id: "key_1", type: "api_key", ip: null })
    }))

  it.effect("a member may not manage: 403 naming what", () =>
    Effect.gen(function* () {
      const callers = yield* Callers
      const member: ClientIdentity = {
        clientId: acme,
        principal: { _tag: "User", user: { userId: UserId.make("usr_2"), clientId: acme, email: "m@acme.test", role: "member" }, sees: { _tag: "Team" } }
      }
      const error = yield* Effect.flip(callers.manager("manage closers").pipe(
        Effect.provideService(CurrentClient, member),
        Effect.provideService(HttpServerRequest.HttpServerRequest, request)
      ))
      expect(error).toMatchObject({ _tag: "Forbidden", message: expect.stringContaining("members cannot manage closers") })
    }))

  describe("actingFor", () => {
    it.effect("provides the named tenant as CurrentClient, acting as staff", () =>
      Effect.gen(function* () {
        const callers = yield* Callers
        const tenants = yield* TenantsRepo
        yield* Effect.orDie(tenants.insertTenant({ clientId: acme, companyName: "Acme", industry: null, plan: "trial", isTest: false }))
        const seen = yield* callers.actingFor(acme, CurrentClient).pipe(Effect.provideService(Staff, { kind: "assistant" }))
        expect(seen).toEqual({ clientId: acme, principal: { _tag: "Staff", kind: "assistant" } })
      }))

    it.effect("is 404 for a tenant that does not exist", () =>
      Effect.gen(function* () {
        const callers = yield* Callers
        const error = yield* Effect.flip(
          callers.actingFor(ClientId.make("cli_nobody"), CurrentClient).pipe(Effect.provideService(Staff, { kind: "assistant" }))
        )
        expect(error).toMatchObject({ _tag: "NotFound", message: "no client cli_nobody" })
      }))
  })
})
