/** Handlers of the `extensions` group (docs/domain.md, "Extensions"): operations beyond the spec. */
import { CallsightApi, CurrentClient } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { CallViews } from "../calls/CallViews.js"
import { Callers } from "../tenancy/Caller.js"
import { ApiKeys } from "./ApiKeys.js"
import { Tenants } from "./Tenants.js"

export const ExtensionsHttpLive = HttpApiBuilder.group(CallsightApi, "extensions", (handlers) =>
  Effect.gen(function* () {
    const tenants = yield* Tenants
    const calls = yield* CallViews
    const keys = yield* ApiKeys
    const manager = (yield* Callers).manager("manage API keys")
    return handlers
      .handle("createClient", ({ payload }) => tenants.create(payload))
      .handle("grantCredits", ({ path, payload }) => tenants.grantCredits(path.client_id, payload))
      .handle("listApiKeys", () => Effect.flatMap(manager, (c) => keys.list(c.clientId)))
      .handle("createApiKey", ({ payload }) => Effect.flatMap(manager, (c) => keys.create(c, payload)))
      .handle("revokeApiKey", ({ path }) => Effect.flatMap(manager, (c) => keys.revoke(c, path.key_id)))
      .handle("listCalls", ({ urlParams }) =>
        Effect.flatMap(CurrentClient, (c) => calls.list(c.clientId, urlParams)))
      .handle("getCall", ({ path }) => Effect.flatMap(CurrentClient, (c) => calls.analysis(c.clientId, path.call_id)))
      .handle("getPortalReport", ({ path }) => Effect.flatMap(CurrentClient, (c) => calls.reportHtml(c.clientId, path.call_id)))
  })
).pipe(Layer.provide([Tenants.Default, CallViews.Default, ApiKeys.Default, Callers.Default]))
