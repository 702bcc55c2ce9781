/** The tenant's LLM integration for the analysis workers (the floor's `LlmAssistants`). */
import { Effect, Layer, Option, Redacted } from "effect"
import { LlmAssistants, LlmAssistantUnreadable } from "../tenancy/LlmAssistants.js"
import { Secrets } from "../tenancy/Secrets.js"
import { LlmIntegrationsRepo } from "./LlmIntegrationsRepo.js"

export const LlmAssistantsLive = Layer.effect(
  LlmAssistants,
  Effect.gen(function* () {
    const repo = yield* LlmIntegrationsRepo
    const secrets = yield* Secrets
    return {
      forTenant: (clientId) =>
        Effect.gen(function* () {
          const saved = yield* Effect.orDie(repo.llm(clientId))
          if (Option.isNone(saved)) return Option.none()
          const row = saved.value
          const key = yield* secrets.decrypt(row.sealed_key).pipe(
            Effect.mapError((e) => new LlmAssistantUnreadable({ provider: row.provider, message: e.message }))
          )
          return Option.some({ provider: row.provider, apiKey: Redacted.make(key), baseUrl: row.base_url, model: row.model })
        }),
      recordUse: (clientId, provider, error) =>
        repo.recordUse({ tenantId: clientId, provider, error }).pipe(
          Effect.catchAll((e) => Effect.logWarning("could not record the LLM integration's use", e))
        )
    }
  })
).pipe(Layer.provide([LlmIntegrationsRepo.Default, Secrets.Default]))
