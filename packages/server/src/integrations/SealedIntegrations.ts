/**
 * The tenant's own providers for the analysis workers, from its saved integrations (keys opened
 * from their seal): its speech-to-text provider (the floor's `SpeechIntegrations`) and its LLM (the
 * floor's `LlmAssistants`). `main.ts` provides both to the workers.
 */
import type { ClientId } from "@callsight/api-spec"
import { Effect, Layer, Option, Redacted } from "effect"
import { LlmAssistants, LlmAssistantUnreadable } from "../tenancy/LlmAssistants.js"
import { type SecretUnreadable, Secrets } from "../tenancy/Secrets.js"
import { SpeechIntegrations, SpeechIntegrationUnreadable } from "../tenancy/SpeechIntegrations.js"
import { LlmIntegrationsRepo } from "./LlmIntegrationsRepo.js"

interface SealedRow<P> {
  readonly provider: P
  readonly sealed_key: string
  readonly base_url: string | null
  readonly model: string | null
}

/** The tenant's saved integration that `find` picks, its key opened; `unreadable` when no key opens it. */
const opened = <P extends string, E>(
  secrets: Secrets,
  find: (clientId: ClientId) => Effect.Effect<Option.Option<SealedRow<P>>, unknown>,
  unreadable: (provider: P, error: SecretUnreadable) => E
) =>
(clientId: ClientId) =>
  Effect.gen(function* () {
    const saved = yield* Effect.orDie(find(clientId))
    if (Option.isNone(saved)) return Option.none()
    const row = saved.value
    const key = yield* secrets.decrypt(row.sealed_key).pipe(Effect.mapError((e) => unreadable(row.provider, e)))
    return Option.some({ provider: row.provider, apiKey: Redacted.make(key), baseUrl: row.base_url, model: row.model })
  })

export const SpeechIntegrationsLive = Layer.effect(
  SpeechIntegrations,
  Effect.gen(function* () {
    const repo = yield* LlmIntegrationsRepo
    const secrets = yield* Secrets
    return {
      forTenant: opened(secrets, repo.speech, (provider, e) => new SpeechIntegrationUnreadable({ provider, message: e.message }))
    }
  })
).pipe(Layer.provide([LlmIntegrationsRepo.Default, Secrets.Default]))

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
