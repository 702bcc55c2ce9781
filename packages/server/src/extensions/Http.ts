/** Handlers of the `extensions` group (docs/domain.md, "Extensions"): operations beyond the spec. */
import { CallsightApi, CurrentClient, Forbidden } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { CallAudio } from "../calls/CallAudio.js"
import { CallRemoval } from "../calls/CallRemoval.js"
import { CallViews } from "../calls/CallViews.js"
import { Callers } from "../tenancy/Caller.js"
import { seesOf, TEAM } from "../tenancy/Sees.js"
import { ApiKeys } from "./ApiKeys.js"
import { Tenants } from "./Tenants.js"

export const ExtensionsHttpLive = HttpApiBuilder.group(CallsightApi, "extensions", (handlers) =>
  Effect.gen(function* () {
    const tenants = yield* Tenants
    const calls = yield* CallViews
    const keys = yield* ApiKeys
    const callers = yield* Callers
    const removal = yield* CallRemoval
    const audio = yield* CallAudio
    const manager = callers.manager("manage API keys")
    /** A tenant key, or an owner's or admin's session: who may delete a call. */
    const deleter = Effect.gen(function* () {
      const identity = yield* CurrentClient
      if (identity.principal._tag === "User" && identity.principal.user.role === "member") {
        return yield* new Forbidden({ message: "members cannot delete calls: ask an owner or an admin of the account" })
      }
      return { clientId: identity.clientId, actor: yield* callers.actor }
    })
    return handlers
      .handle("createClient", ({ payload }) => tenants.create(payload))
      .handle("grantCredits", ({ path, payload }) => tenants.grantCredits(path.client_id, payload))
      .handle("listApiKeys", () => Effect.flatMap(manager, (c) => keys.list(c.clientId)))
      .handle("createApiKey", ({ payload }) => Effect.flatMap(manager, (c) => keys.create(c, payload)))
      .handle("revokeApiKey", ({ path }) => Effect.flatMap(manager, (c) => keys.revoke(c, path.key_id)))
      .handle("listCalls", ({ urlParams }) => Effect.flatMap(CurrentClient, (c) => calls.list(c.clientId, urlParams, seesOf(c))))
      .handle("getCall", ({ path }) => Effect.flatMap(CurrentClient, (c) => calls.analysis(c.clientId, path.call_id, TEAM)))
      .handle("deleteCall", ({ path }) => Effect.flatMap(deleter, (d) => removal.remove(d.clientId, path.call_id, d.actor)))
      .handle("getPortalReport", ({ path }) => Effect.flatMap(CurrentClient, (c) => calls.reportHtml(c.clientId, path.call_id, seesOf(c))))
      .handle("getCallAudio", ({ headers, path, request }) =>
        Effect.flatMap(CurrentClient, (c) =>
          audio.answer(c.clientId, path.call_id, seesOf(c), { range: headers.range, ifRange: request.headers["if-range"] !== undefined })))
  })
).pipe(Layer.provide([Tenants.Default, CallViews.Default, ApiKeys.Default, Callers.Default, CallRemoval.Default, CallAudio.Default]))
