/** The tenant's speech-to-text integration for the analysis workers (the floor's `SpeechIntegrations`). */
import { Effect, Layer, Option, Redacted } from "effect"
import { Secrets } from "../tenancy/Secrets.js"
import { SpeechIntegrations, SpeechIntegrationUnreadable } from "../tenancy/SpeechIntegrations.js"
import { LlmIntegrationsRepo } from "./LlmIntegrationsRepo.js"

export const SpeechIntegrationsLive = Layer.effect(
  SpeechIntegrations,
  Effect.gen(function* () {
    const repo = yield* LlmIntegrationsRepo
    const secrets = yield* Secrets
    return {
      forTenant: (clientId) =>
        Effect.gen(function* () {
          const saved = yield* Effect.orDie(repo.speech(clientId))
          if (Option.isNone(saved)) return Option.none()
          const row = saved.value
          const key = yield* secrets.decrypt(row.sealed_key).pipe(
            Effect.mapError((e) => new SpeechIntegrationUnreadable({ provider: row.provider, message: e.message }))
          )
          return Option.some({ provider: row.provider, apiKey: Redacted.make(key), baseUrl: row.base_url, model: row.model })
        })
    }
  })
).pipe(Layer.provide([LlmIntegrationsRepo.Default, Secrets.Default]))
