/**
 * Handlers of the `clientPortal` group (spec 4.3). Built: profiles, account cockpit, plan usage,
 * onboarding, operational trust, outcome truth and its backlog, closers, events, health KPIs and
 * audit logs. The value and ROI views, the daily brief, the concierge and the recording bot answer
 * 501 until their issues land (README, "Status").
 */
import { CallsightApi } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { RequestOrigin } from "../auth/RequestOrigin.js"
import { PlanUsage } from "../billing/PlanUsage.js"
import { rest } from "../http/NotImplemented.js"
import { AccountViews } from "./AccountViews.js"
import { AuditLog } from "./AuditLog.js"
import { Callers } from "./Caller.js"
import { Closers } from "./Closers.js"
import { EventsRepo } from "./EventsRepo.js"
import { OutcomeTruth } from "./OutcomeTruth.js"
import { Profiles } from "./Profiles.js"

export const PortalHttpLive = HttpApiBuilder.group(CallsightApi, "clientPortal", (handlers) =>
  Effect.gen(function* () {
    const callers = yield* Callers
    const profiles = yield* Profiles
    const views = yield* AccountViews
    const usage = yield* PlanUsage
    const outcomes = yield* OutcomeTruth
    const closers = yield* Closers
    const events = yield* EventsRepo
    const audit = yield* AuditLog
    const { current: origin } = yield* RequestOrigin

    /** Runs `f` with the signed-in caller's tenant. */
    const tenant = <A, E, R>(f: (clientId: string) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(callers.current, (c) => f(c.user.clientId))
    const closerManager = callers.manager("manage closers")

    return rest(
      handlers
        .handle("getMarketProfile", () => tenant(profiles.market))
        .handle("saveMarketProfile", ({ payload }) => Effect.flatMap(callers.current, (c) => profiles.saveMarket(c, payload)))
        .handle("getLeadContextProfile", () => tenant(profiles.lead))
        .handle("saveLeadContextProfile", ({ payload }) => Effect.flatMap(callers.current, (c) => profiles.saveLead(c, payload)))
        .handle("getAccountCockpit", () => tenant(views.cockpit))
        .handle("getPlanUsage", () => tenant((clientId) => Effect.orDie(usage.usage(clientId))))
        .handle("getOnboardingActivation", () => tenant(views.onboarding))
        .handle("getOperationalTrust", () => tenant(views.operationalTrust))
        .handle("getOutcomeTruth", ({ path }) => tenant((clientId) => outcomes.get(clientId, path.call_id)))
        .handle("recordOutcomeTruth", ({ path, payload }) =>
          Effect.flatMap(callers.current, (c) => outcomes.record(c, path.call_id, payload)))
        .handle("listOutcomeTruthBacklog", ({ urlParams }) => tenant((clientId) => outcomes.backlog(clientId, urlParams)))
        .handle("listClosers", () => tenant(closers.list))
        .handle("addCloser", ({ payload }) => Effect.flatMap(closerManager, (c) => closers.add(c, payload)))
        .handle("updateCloserStatus", ({ path, payload }) =>
          Effect.flatMap(closerManager, (c) => closers.updateStatus(c, path.closer_id, payload)))
        .handle("sendCloserVerification", ({ path }) =>
          Effect.flatMap(closerManager, (c) => closers.resendVerification(c, path.closer_id)))
        .handle("verifyCloserEmail", ({ payload }) => Effect.flatMap(origin, (o) => closers.verifyEmail(payload.token, o.ip)))
        .handle("listRecentEvents", () => tenant((clientId) => Effect.map(events.list(clientId, { days: 7 }), (list) => ({ events: list }))))
        .handle("listEvents", ({ urlParams }) => tenant((clientId) => Effect.map(events.list(clientId, urlParams), (list) => ({ events: list }))))
        .handle("getHealthKpis", () => tenant(views.healthKpis))
        .handle("listAuditLogs", ({ urlParams }) => tenant((clientId) => audit.list(clientId, urlParams)))
    )
  })
).pipe(
  Layer.provide([
    Callers.Default,
    Profiles.Default,
    AccountViews.Default,
    PlanUsage.Default,
    OutcomeTruth.Default,
    Closers.Default,
    EventsRepo.Default,
    AuditLog.Default,
    RequestOrigin.Default
  ])
)
