/**
 * Handlers of the `admin` group (spec 4.7, the staff's internal administration): runtime flags, a
 * tenant's plan usage and its monthly bonus are built; the rest answer 501 (`Pending.admin`).
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { handlePending } from "../http/Pending.js"
import { Callers } from "../tenancy/Caller.js"
import { PlanUsage } from "../tenancy/PlanUsage.js"
import { RuntimeFlags } from "../tenancy/RuntimeFlags.js"

export const AdminHttpLive = HttpApiBuilder.group(CallsightApi, "admin", (handlers) =>
  Effect.gen(function* () {
    const flags = yield* RuntimeFlags
    const usage = yield* PlanUsage
    const callers = yield* Callers
    return handlePending(handlers, Pending.admin)
      .handle("getRuntimeFlags", ({ urlParams }) => flags.list(urlParams.client_id))
      .handle("setRuntimeFlags", ({ path, payload }) => flags.replace(path.client_id, payload))
      .handle("getClientPlanUsage", ({ path }) => usage.usage(path.client_id))
      .handle("grantUsageBonus", ({ path, payload }) =>
        Effect.flatMap(callers.staff, (actor) => usage.grantBonus(path.client_id, payload, actor)))
  })
).pipe(Layer.provide([RuntimeFlags.Default, PlanUsage.Default, Callers.Default]))
