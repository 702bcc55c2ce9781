/**
 * Handlers of the `admin` group (spec 4.7, the staff's internal administration): runtime flags, a
 * tenant's plan usage and its monthly bonus, the recording bot's alerts (written by the recorder,
 * read from the shared floor), the companion channels (`CompanionChannels`, which the companion
 * implements), the service's status, pipeline health and doctor (`AdminOps`), and the rest of the
 * staff's operations. An operation listed in `Pending.admin` (none today) would answer 501.
 */
import { CallsightApi, NotFound, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { RecallAlertsRepo } from "../events/RecallAlertsRepo.js"
import { handlePending } from "../http/Pending.js"
import { Callers } from "../tenancy/Caller.js"
import { CompanionChannels } from "../ports/CompanionChannels.js"
import { PlanUsage } from "../tenancy/PlanUsage.js"
import { RuntimeFlags } from "../tenancy/RuntimeFlags.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { AdminOps } from "./AdminOps.js"

export const AdminHttpLive = HttpApiBuilder.group(CallsightApi, "admin", (handlers) =>
  Effect.gen(function* () {
    const flags = yield* RuntimeFlags
    const usage = yield* PlanUsage
    const callers = yield* Callers
    const recallAlerts = yield* RecallAlertsRepo
    const tenants = yield* TenantsRepo
    const companion = yield* CompanionChannels
    const ops = yield* AdminOps
    return handlePending(handlers, Pending.admin)
      .handle("getCompanionStatus", ({ urlParams }) => companion.status(urlParams.client_id))
      .handle("createCompanionConnectCode", ({ payload, urlParams }) =>
        Effect.flatMap(callers.staff, (actor) => companion.connectCode(urlParams.client_id, payload, actor)))
      .handle("pushCompanionMessage", ({ payload, urlParams }) =>
        Effect.flatMap(callers.staff, (actor) => companion.push(urlParams.client_id, payload, actor)))
      .handle("getStatus", ({ urlParams }) => ops.status(urlParams.client_id))
      .handle("getPipelineHealth", () => ops.pipelineHealth())
      .handle("runDoctor", ({ urlParams }) => ops.doctor(urlParams.client_id))
      .handle("getRuntimeFlags", ({ urlParams }) => flags.list(urlParams.client_id))
      .handle("setRuntimeFlags", ({ path, payload }) => flags.replace(path.client_id, payload))
      .handle("getClientPlanUsage", ({ path }) => usage.usage(path.client_id))
      .handle("grantUsageBonus", ({ path, payload }) =>
        Effect.flatMap(callers.staff, (actor) => usage.grantBonus(path.client_id, payload, actor)))
      .handle("listRecallAlerts", ({ urlParams: { client_id, limit } }) =>
        Effect.gen(function* () {
          if (client_id !== undefined && !(yield* tenants.exists(client_id))) {
            return yield* new NotFound({ message: `no client ${client_id}` })
          }
          return { alerts: yield* recallAlerts.list(client_id, limit), limit }
        }).pipe(Effect.catchTag("SqlError", Effect.die)))
  })
).pipe(Layer.provide([
  RuntimeFlags.Default,
  PlanUsage.Default,
  Callers.Default,
  RecallAlertsRepo.Default,
  TenantsRepo.Default,
  AdminOps.Default
]))
