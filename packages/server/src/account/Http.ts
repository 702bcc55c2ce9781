/** Handlers of the `account` group (issue 36): the tenant's retention setting, and the export of its data. */
import { CallsightApi, CurrentClient } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Callers } from "../tenancy/Caller.js"
import { Export } from "./Export.js"
import { Retention } from "./Retention.js"

export const AccountHttpLive = HttpApiBuilder.group(CallsightApi, "account", (handlers) =>
  Effect.gen(function* () {
    const retention = yield* Retention
    const exports = yield* Export
    const callers = yield* Callers
    const manager = callers.manager("change how long the account keeps its calls")
    return handlers
      .handle("getRetention", () => Effect.flatMap(CurrentClient, (c) => retention.get(c.clientId)))
      .handle("saveRetention", ({ payload }) => Effect.flatMap(manager, (c) => retention.save(c, payload)))
      .handle("exportAccount", () => Effect.flatMap(callers.user, exports.exportAll))
      .handle("closeAccount", ({ payload }) => Effect.flatMap(callers.user, (c) => retention.close(c, payload)))
      .handle("cancelClosing", () => Effect.flatMap(callers.user, retention.reopen))
  })
).pipe(Layer.provide([Retention.Default, Export.Default, Callers.Default]))
