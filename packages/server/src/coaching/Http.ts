/**
 * Handlers of the `coaching` group (spec 4.5), every operation behind the portal session. Any
 * signed-in user reads the wiki and keeps their own steps (welcome, oath) and reading. The
 * dashboard and the manual audits are over the calls the caller sees (`Caller.sees`, passed to the
 * services): owners and admins the team's, a member (a rep, issue 36) their own, and they audit
 * those same calls. The dashboard is the floor's (views/CoachingDashboard.ts), which the portal's
 * page shows too.
 */
import { CallsightApi, Forbidden, Pending } from "@callsight/api-spec"
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
    /**
     * Who audits, as the policy says (managers any call of the team, a member their own calls):
     * the call is looked for only among those the caller sees. A member whose request would see
     * the whole team (the door never gives one) is 403: the service's second line behind the table.
     */
    const auditor = Effect.flatMap(user, (c) =>
      c.user.role === "member" && c.sees._tag === "Team"
        ? Effect.fail(new Forbidden({ message: "members audit only their own calls" }))
        : Effect.succeed(c))

    return handlePending(handlers, Pending.coaching)
      .handle("getCoachingStatus", () => Effect.flatMap(user, coaching.status))
      .handle("completeWelcome", () => Effect.flatMap(user, coaching.completeWelcome))
      .handle("completeOath", ({ payload }) => Effect.flatMap(user, (c) => coaching.completeOath(c, payload)))
      .handle("getCoachingDashboard", () => Effect.flatMap(user, (c) => dashboard.compute(c.clientId, c.sees)))
      .handle("listManualAudits", ({ urlParams }) => Effect.flatMap(user, (c) => audits.list(c.clientId, c.sees, urlParams)))
      .handle("createManualAudit", ({ payload }) => Effect.flatMap(auditor, (c) => audits.create(c, payload)))
      .handle("getManualAudit", ({ path }) => Effect.flatMap(user, (c) => audits.get(c.clientId, c.sees, path.audit_id)))
      .handle("listWikiSections", () => Effect.flatMap(user, coaching.sections))
      .handle("getWikiArticle", ({ path }) => Effect.flatMap(user, (c) => coaching.article(c, path.slug)))
      .handle("recordArticleProgress", ({ payload }) => Effect.flatMap(user, (c) => coaching.recordProgress(c, payload)))
  })
).pipe(Layer.provide([Coaching.Default, ManualAudits.Default, CoachingDashboard.Default, Callers.Default]))
