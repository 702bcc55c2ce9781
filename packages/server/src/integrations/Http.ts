/**
 * Handlers of the `integrations` group (spec 4.4): the tenant's LLM and speech-to-text providers,
 * its CRM connections (crm-a, Salesforce, Pipedrive), and the calendar and video connections of
 * its closers. Owners and admins only. An operation listed in `Pending.integrations` (none today)
 * would answer 501.
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { handlePending } from "../http/Pending.js"
import { Callers } from "../tenancy/Caller.js"
import { CrmConnections } from "./CrmConnections.js"
import { LlmIntegrations } from "./LlmIntegrations.js"
import { MeetingConnections } from "./MeetingConnections.js"

export const IntegrationsHttpLive = HttpApiBuilder.group(CallsightApi, "integrations", (handlers) =>
  Effect.gen(function* () {
    const llm = yield* LlmIntegrations
    const meetings = yield* MeetingConnections
    const crm = yield* CrmConnections
    const manager = (yield* Callers).manager("manage integrations")
    return handlePending(handlers, Pending.integrations)
      .handle("listLlmIntegrations", () => Effect.flatMap(manager, (c) => llm.list(c.clientId)))
      .handle("upsertLlmIntegration", ({ payload }) => Effect.flatMap(manager, (c) => llm.upsert(c, payload)))
      .handle("deleteLlmIntegration", ({ path }) => Effect.flatMap(manager, (c) => llm.remove(c, path.provider)))
      .handle("startCalendarConnection", ({ path }) => Effect.flatMap(manager, (c) => meetings.start(c, "calendar", path.closer_id)))
      .handle("completeCalendarConnection", ({ urlParams }) => meetings.complete("calendar", urlParams))
      .handle("disconnectCalendar", ({ path }) => Effect.flatMap(manager, (c) => meetings.disconnect(c, "calendar", path.closer_id)))
      .handle("startVideoConnection", ({ path }) => Effect.flatMap(manager, (c) => meetings.start(c, "video", path.closer_id)))
      .handle("completeVideoConnection", ({ urlParams }) => meetings.complete("video", urlParams))
      .handle("disconnectVideo", ({ path }) => Effect.flatMap(manager, (c) => meetings.disconnect(c, "video", path.closer_id)))
      .handle("getCrmAIntegration", () => Effect.flatMap(manager, (c) => crm.getCrmA(c.clientId)))
      .handle("upsertCrmAIntegration", ({ payload }) => Effect.flatMap(manager, (c) => crm.upsertCrmA(c, payload)))
      .handle("deleteCrmAIntegration", () => Effect.flatMap(manager, (c) => crm.deleteCrmA(c)))
      .handle("listCrmProviders", () => Effect.map(manager, () => crm.providers()))
      .handle("getCrmStatus", () => Effect.flatMap(manager, (c) => crm.status(c.clientId)))
      .handle("connectCrm", ({ payload }) => Effect.flatMap(manager, (c) => crm.connect(c, payload)))
      .handle("disconnectCrm", ({ path }) => Effect.flatMap(manager, (c) => crm.disconnect(c, path.provider)))
  })
).pipe(Layer.provide([LlmIntegrations.Default, MeetingConnections.Default, CrmConnections.Default, Callers.Default]))
