/**
 * The tenant's own LLM (`ports/LlmAssistants.ts`), for the analysis workers and the chat: its
 * saved LLM integration, its key opened from its seal, and a record of each use. `main.ts`
 * provides it.
 */
import { Effect, Layer } from "effect"
import { LlmAssistants, LlmAssistantUnreadable } from "../ports/LlmAssistants.js"
import { Secrets } from "../tenancy/Secrets.js"
import { LlmIntegrationsRepo } from "./LlmIntegrationsRepo.js"
import { opened } from "./SealedIntegrations.js"

export const LlmAssistantsLive = Layer.effect(
  LlmAssistants,
  Effect.gen(function* () {
    const repo = yield* LlmIntegrationsRepo
    const secrets = yield* Secrets
    return {
      forTenant: opened(secrets, repo.llm, (provider, e) => new LlmAssistantUnreadable({ provider, message: e.message })),
      recordUse: (clientId, provider, error) =>
        repo.recordUse({ tenantId: clientId, provider, error }).pipe(
          Effect.catchAll((e) => Effect.logWarning("could not record the LLM integration's use", e))
        )
    }
  })
).pipe(Layer.provide([LlmIntegrationsRepo.Default, Secrets.Default]))
