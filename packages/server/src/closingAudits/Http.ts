/** Handlers of the `closingAudits` group (issue 38, item 6; docs/closing-audit.md): the Team Closing Audit and its report. */
import { CallsightApi, CurrentClient } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Callers } from "../tenancy/Caller.js"
import { ClosingAudits } from "./ClosingAudits.js"

export const ClosingAuditsHttpLive = HttpApiBuilder.group(CallsightApi, "closingAudits", (handlers) =>
  Effect.gen(function* () {
    const audits = yield* ClosingAudits
    const callers = yield* Callers
    // a tenant key, or an owner's or admin's session (the policy table turns a member away at the door)
    const caller = Effect.zip(CurrentClient, callers.actor)
    return handlers
      .handle("createClosingAudit", ({ headers, payload }) =>
        Effect.flatMap(caller, ([c, actor]) => audits.create(c.clientId, actor, payload, headers["idempotency-key"])))
      .handle("listClosingAudits", ({ urlParams }) => Effect.flatMap(CurrentClient, (c) => audits.list(c.clientId, urlParams.limit)))
      .handle("getClosingAudit", ({ path }) => Effect.flatMap(CurrentClient, (c) => audits.get(c.clientId, path.audit_id)))
      .handle("getClosingAuditReport", ({ path }) => Effect.flatMap(CurrentClient, (c) => audits.reportHtml(c.clientId, path.audit_id)))
      .handle("getClosingAuditPdf", ({ path }) => Effect.flatMap(CurrentClient, (c) => audits.reportPdf(c.clientId, path.audit_id)))
  })
).pipe(Layer.provide([ClosingAudits.Default, Callers.Default]))
