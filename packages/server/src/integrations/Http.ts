/**
 * Handlers of the `integrations` group (spec 4.4): the tenant's LLM and speech-to-text providers
 * are built; the calendar and video connections of closers and the CRM connections answer 501
 * until their part of the issue lands (`Pending.integrations`). Owners and admins only.
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { handlePending } from "../http/Pending.js"
import { Callers } from "../tenancy/Caller.js"
import { LlmIntegrations } from "./LlmIntegrations.js"

export const IntegrationsHttpLive = HttpApiBuilder.group(CallsightApi, "integrations", (handlers) =>
  Effect.gen(function* () {
    const llm = yield* LlmIntegrations
    const manager = (yield* Callers).manager("manage integrations")
    return handlePending(handlers, Pending.integrations)
      .handle("listLlmIntegrations", () => Effect.flatMap(manager, (c) => llm.list(c.clientId)))
      .handle("upsertLlmIntegration", ({ payload }) => Effect.flatMap(manager, (c) => llm.upsert(c, payload)))
      .handle("deleteLlmIntegration", ({ path }) => Effect.flatMap(manager, (c) => llm.remove(c, path.provider)))
  })
).pipe(Layer.provide([LlmIntegrations.Default, Callers.Default]))
