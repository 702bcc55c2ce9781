/** Handlers of the `admin` group (spec 4.7): runtime flags are built; the rest answer 501. */
import { CallsightApi } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { rest } from "../http/NotImplemented.js"
import { RuntimeFlags } from "./RuntimeFlags.js"

export const AdminHttpLive = HttpApiBuilder.group(CallsightApi, "admin", (handlers) =>
  Effect.gen(function* () {
    const flags = yield* RuntimeFlags
    return rest(
      handlers
        .handle("getRuntimeFlags", ({ urlParams }) => flags.list(urlParams.client_id))
        .handle("setRuntimeFlags", ({ path, payload }) => flags.replace(path.client_id, payload))
    )
  })
).pipe(Layer.provide(RuntimeFlags.Default))
