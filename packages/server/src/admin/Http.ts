/**
 * Handlers of the `admin` group (spec 4.7): runtime flags, a tenant's plan usage and its monthly
 * bonus are built; the rest answer 501.
 */
import { CallsightApi, Staff } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { RequestOrigin } from "../auth/RequestOrigin.js"
import { PlanUsage } from "../billing/PlanUsage.js"
import { rest } from "../http/NotImplemented.js"
import { RuntimeFlags } from "./RuntimeFlags.js"

export const AdminHttpLive = HttpApiBuilder.group(CallsightApi, "admin", (handlers) =>
  Effect.gen(function* () {
    const flags = yield* RuntimeFlags
    const usage = yield* PlanUsage
    const { current: origin } = yield* RequestOrigin
    /** The audit actor of a staff change: the kind of key, and where the request came from. */
    const staffActor = Effect.gen(function* () {
      const staff = yield* Staff
      const { ip } = yield* origin
      return { id: `staff:${staff.kind}`, type: "staff" as const, ip }
    })
    return rest(
      handlers
        .handle("getRuntimeFlags", ({ urlParams }) => flags.list(urlParams.client_id))
        .handle("setRuntimeFlags", ({ path, payload }) => flags.replace(path.client_id, payload))
        .handle("getClientPlanUsage", ({ path }) => usage.usage(path.client_id))
        .handle("grantUsageBonus", ({ path, payload }) =>
          Effect.flatMap(staffActor, (actor) => usage.grantBonus(path.client_id, payload, actor)))
    )
  })
).pipe(Layer.provide([RuntimeFlags.Default, PlanUsage.Default, RequestOrigin.Default]))
