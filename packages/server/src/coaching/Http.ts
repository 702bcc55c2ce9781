/**
 * Handlers of the `coaching` group (spec 4.5), every operation behind the portal session. Any
 * signed-in user reads the dashboard, the manual audits and the wiki, and keeps their own steps
 * (welcome, oath) and reading; manual audits are made by owners and admins (members 403). The
 * dashboard is the floor's (views/CoachingDashboard.ts), which the portal's page shows too.
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { handlePending } from "../http/Pending.js"
import { Callers } from "../tenancy/Caller.js"
import { CoachingDashboard } from "../views/CoachingDashboard.js"
import { Coaching } from "./Coaching.js"
import { ManualAudits } from "./ManualAudits.js"

export const CoachingHttpLive = HttpApiBuilder.group(CallsightApi, "coaching", (handlers) =>
  Effect.gen(function* () {
    const coaching = yield* Coaching
    const audits = yield* ManualAudits
    const dashboard = yield* CoachingDashboard
    const callers = yield* Callers
    const user = callers.user
    const auditor = callers.manager("make manual audits")

    return handlePending(handlers, Pending.coaching)
      .handle("getCoachingStatus", () => Effect.flatMap(user, coaching.status))
      .handle("completeWelcome", () => Effect.flatMap(user, coaching.completeWelcome))
      .handle("completeOath", ({ payload }) => Effect.flatMap(user, (c) => coaching.completeOath(c, payload)))
      .handle("getCoachingDashboard", () => Effect.flatMap(user, (c) => dashboard.compute(c.clientId)))
      .handle("listManualAudits", ({ urlParams }) => Effect.flatMap(user, (c) => audits.list(c.clientId, urlParams)))
      .handle("createManualAudit", ({ payload }) => Effect.flatMap(auditor, (c) => audits.create(c, payload)))
      .handle("getManualAudit", ({ path }) => Effect.flatMap(user, (c) => audits.get(c.clientId, path.audit_id)))
      .handle("listWikiSections", () => Effect.flatMap(user, coaching.sections))
      .handle("getWikiArticle", ({ path }) => Effect.flatMap(user, (c) => coaching.article(c, path.slug)))
      .handle("recordArticleProgress", ({ payload }) => Effect.flatMap(user, (c) => coaching.recordProgress(c, payload)))
  })
).pipe(Layer.provide([Coaching.Default, ManualAudits.Default, CoachingDashboard.Default, Callers.Default]))
