/** Handlers of the `extensions` group (DOMAIN.md, "Extensions"). */
import { CallsightApi, CurrentTenant } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Tenants } from "../admin/Tenants.js"
import { Calls } from "../audio/Calls.js"
import { notImplemented } from "../http/NotImplemented.js"

export const ExtensionsHttpLive = HttpApiBuilder.group(CallsightApi, "extensions", (handlers) =>
  Effect.gen(function* () {
    const tenants = yield* Tenants
    const calls = yield* Calls
    return handlers
      .handle("createClient", ({ payload }) => tenants.create(payload))
      .handle("grantCredits", ({ path, payload }) => tenants.grantCredits(path.client_id, payload))
      .handle("listApiKeys", notImplemented("GET /v1/client-portal/api-keys"))
      .handle("createApiKey", notImplemented("POST /v1/client-portal/api-keys"))
      .handle("revokeApiKey", notImplemented("DELETE /v1/client-portal/api-keys/{key_id}"))
      .handle("listCalls", ({ urlParams }) =>
        Effect.flatMap(CurrentTenant, (t) => calls.list(t.clientId, urlParams.limit, urlParams.cursor)))
      .handle("getCall", ({ path }) => Effect.flatMap(CurrentTenant, (t) => calls.analysis(t.clientId, path.call_id)))
  })
).pipe(Layer.provide([Tenants.Default, Calls.Default]))
