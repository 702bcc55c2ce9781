/** Handlers of the `extensions` group (DOMAIN.md, "Extensions"). */
import { CallsightApi, CurrentTenant } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Tenants } from "../admin/Tenants.js"
import { Calls } from "../audio/Calls.js"
import { ApiKeys } from "../auth/ApiKeys.js"
import { Callers } from "../portal/Caller.js"

export const ExtensionsHttpLive = HttpApiBuilder.group(CallsightApi, "extensions", (handlers) =>
  Effect.gen(function* () {
    const tenants = yield* Tenants
    const calls = yield* Calls
    const keys = yield* ApiKeys
    const callers = yield* Callers
    const manager = callers.manager("manage API keys")
    return handlers
      .handle("createClient", ({ payload }) => tenants.create(payload))
      .handle("grantCredits", ({ path, payload }) => tenants.grantCredits(path.client_id, payload))
      .handle("listApiKeys", () => Effect.flatMap(manager, (c) => keys.list(c.user.clientId)))
      .handle("createApiKey", ({ payload }) => Effect.flatMap(manager, (c) => keys.create(c, payload)))
      .handle("revokeApiKey", ({ path }) => Effect.flatMap(manager, (c) => keys.revoke(c, path.key_id)))
      .handle("listCalls", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (t) => calls.list(t.clientId, urlParams.limit, urlParams.cursor)))
      .handle("getCall", ({ path }) => Effect.flatMap(CurrentTenant, (t) => calls.analysis(t.clientId, path.call_id)))
  })
).pipe(Layer.provide([Tenants.Default, Calls.Default, ApiKeys.Default, Callers.Default]))
