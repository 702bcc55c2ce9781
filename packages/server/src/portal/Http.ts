/**
 * Handlers of the `clientPortal` group (spec 4.3), every operation behind the session cookie, and
 * of `portalPublic`, the closer's click on the verification link. Built: profiles, account
 * cockpit, plan usage, onboarding, operational trust, outcome truth and its backlog, closers,
 * events, health KPIs, audit logs, and the value views (customer value, ROI digest, review pack,
 * daily brief: views/ValueViews.ts, one implementation for every door), and the concierge, the
 * chat engine of `conversation/` that the workspace chat also runs (without `suggested_actions`,
 * which the concierge's reply does not carry). The recording bot's `recall/*`
 * operations are the `recorder` group's (recorder/Http.ts).
 */
import { CallsightApi, type ClientId, CurrentClient, Pending, type Sees } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Conversation } from "../conversation/Conversation.js"
import { EventsRepo, RECENT_EVENTS } from "../events/EventsRepo.js"
import { handlePending } from "../http/Pending.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import { Callers } from "../tenancy/Caller.js"
import { PlanUsage } from "../tenancy/PlanUsage.js"
import { RequestOrigin } from "../tenancy/RequestOrigin.js"
import { viewer } from "../tenancy/Sees.js"
import { ValueViews } from "../views/ValueViews.js"
import { AccountViews } from "../views/AccountViews.js"
import { Closers } from "./Closers.js"
import { OutcomeTruth } from "./OutcomeTruth.js"
import { Profiles } from "./Profiles.js"

/** Runs `f` with the tenant of the request. */
const tenant = <A, E, R>(f: (clientId: ClientId) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(CurrentClient, (client) => f(client.clientId))

/** Runs `f` with the tenant of the request and whose calls the caller sees (the policy's "self": a rep's own). */
const seen = <A, E, R>(f: (clientId: ClientId, sees: Sees) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(viewer, (v) => f(v.clientId, v.sees))

export const PortalHttpLive = HttpApiBuilder.group(CallsightApi, "clientPortal", (handlers) =>
  Effect.gen(function* () {
    const callers = yield* Callers
    const profiles = yield* Profiles
    const views = yield* AccountViews
    const value = yield* ValueViews
    const usage = yield* PlanUsage
    const outcomes = yield* OutcomeTruth
    const closers = yield* Closers
    const events = yield* EventsRepo
    const audit = yield* AuditLog
    const conversation = yield* Conversation
    const user = callers.user
    const closerManager = callers.manager("manage closers")

    return handlePending(handlers, Pending.clientPortal)
      .handle("getMarketProfile", () => tenant(profiles.market))
      .handle("saveMarketProfile", ({ payload }) => Effect.flatMap(user, (c) => profiles.saveMarket(c, payload)))
      .handle("getLeadContextProfile", () => tenant(profiles.lead))
      .handle("saveLeadContextProfile", ({ payload }) => Effect.flatMap(user, (c) => profiles.saveLead(c, payload)))
      .handle("getAccountCockpit", () => seen(views.cockpit))
      // the session's tenant exists (deleting a tenant deletes its sessions)
      .handle("getPlanUsage", () => tenant((clientId) => Effect.orDie(usage.usage(clientId))))
      .handle("getOnboardingActivation", () => tenant(views.onboarding))
      .handle("getOperationalTrust", () => tenant(views.operationalTrust))
      .handle("getCustomerValue", () => tenant(value.value))
      .handle("getCustomerRoiDigest", () => tenant(value.digest))
      .handle("getCustomerRoiReviewPack", () => tenant(value.reviewPack))
      .handle("getDailyBrief", () => seen(value.dailyBrief))
      .handle("chatWithConcierge", ({ payload }) =>
        Effect.flatMap(user, (c) => conversation.concierge({ clientId: c.clientId, userId: c.user.userId, sees: c.sees }, payload)).pipe(
          Effect.map(({ suggested_actions: _, ...reply }) => reply)
        ))
      .handle("getOutcomeTruth", ({ path }) => Effect.flatMap(user, (c) => outcomes.get(c.clientId, c.sees, path.call_id)))
      .handle("recordOutcomeTruth", ({ path, payload }) => Effect.flatMap(user, (c) => outcomes.record(c, path.call_id, payload)))
      .handle("listOutcomeTruthBacklog", ({ urlParams }) => Effect.flatMap(user, (c) => outcomes.backlog(c.clientId, c.sees, urlParams)))
      .handle("listClosers", () => tenant(closers.list))
      .handle("addCloser", ({ payload }) => Effect.flatMap(closerManager, (c) => closers.add(c, payload)))
      .handle("updateCloserStatus", ({ path, payload }) =>
        Effect.flatMap(closerManager, (c) => closers.updateStatus(c, path.closer_id, payload)))
      .handle("sendCloserVerification", ({ path }) => Effect.flatMap(closerManager, (c) => closers.resendVerification(c, path.closer_id)))
      .handle("listRecentEvents", () => tenant((clientId) => events.page(clientId, { days: 7 }, { limit: RECENT_EVENTS, offset: 0 })))
      .handle("listEvents", ({ urlParams: { limit, offset, ...filter } }) => tenant((clientId) => events.page(clientId, filter, { limit, offset })))
      .handle("getHealthKpis", () => tenant(views.healthKpis))
      .handle("listAuditLogs", ({ urlParams }) => tenant((clientId) => audit.list(clientId, urlParams)))
  })
).pipe(
  Layer.provide([
    Callers.Default,
    Profiles.Default,
    AccountViews.Default,
    ValueViews.Default,
    PlanUsage.Default,
    OutcomeTruth.Default,
    Closers.Default,
    EventsRepo.Default,
    AuditLog.Default,
    Conversation.Default
  ])
)

export const PortalPublicHttpLive = HttpApiBuilder.group(CallsightApi, "portalPublic", (handlers) =>
  Effect.gen(function* () {
    const closers = yield* Closers
    const { current: origin } = yield* RequestOrigin
    return handlePending(handlers, Pending.portalPublic)
      .handle("verifyCloserEmail", ({ payload }) => Effect.flatMap(origin, (o) => closers.verifyEmail(payload.token, o.ip)))
  })
).pipe(Layer.provide([Closers.Default, RequestOrigin.Default]))
