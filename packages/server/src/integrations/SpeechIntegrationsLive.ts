/**
 * What a tenant chose for speech-to-text (`ports/SpeechIntegrations.ts`), for the analysis
 * workers: its saved speech-to-text integration, its key opened from its seal, and its
 * `transcriber` runtime flag. `main.ts` provides it.
 */
import { Effect, Layer, Option } from "effect"
import { SpeechIntegrations, SpeechIntegrationUnreadable } from "../ports/SpeechIntegrations.js"
import { RuntimeFlags } from "../tenancy/RuntimeFlags.js"
import { Secrets } from "../tenancy/Secrets.js"
import { LlmIntegrationsRepo } from "./LlmIntegrationsRepo.js"
import { opened } from "./SealedIntegrations.js"

export const SpeechIntegrationsLive = Layer.effect(
  SpeechIntegrations,
  Effect.gen(function* () {
    const repo = yield* LlmIntegrationsRepo
    const secrets = yield* Secrets
    const flags = yield* RuntimeFlags
    return {
      forTenant: opened(secrets, repo.speech, (provider, e) => new SpeechIntegrationUnreadable({ provider, message: e.message })),
      transcriberFlag: (clientId) => Effect.map(flags.forTenant(clientId), (saved) => Option.fromNullable(saved["transcriber"]))
    }
  })
).pipe(Layer.provide([LlmIntegrationsRepo.Default, Secrets.Default, RuntimeFlags.Default]))
