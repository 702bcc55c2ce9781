/**
 * Which speech-to-text provider transcribes a tenant's calls: the tenant's own speech-to-text
 * integration (`SpeechIntegrations`: its key, base URL and model), else its `transcriber` runtime
 * flag, else the server's `TRANSCRIBER`. `none` means an acoustic-only analysis. The same order,
 * without opening keys, tells uploads, the status, the doctor and onboarding whether a tenant has
 * one (`lib/SpeechToTextSetup.ts`).
 *
 * Without an integration the adapters take their keys, base URLs and model from the
 * configuration. A tenant whose flag
 * names a provider the server has no key for gets `TranscriptionFailed`: its calls fail with
 * `transcription_failed` and no credit, rather than silently losing their transcript.
 */
import type { ClientId } from "@callsight/api-spec"
import { HttpClient } from "@effect/platform"
import { Duration, Effect, Option, type Redacted } from "effect"
import { type SpeechIntegration, SpeechIntegrations } from "../ports/SpeechIntegrations.js"
import { AppConfig } from "../config.js"
import { OutboundHttpClient } from "../lib/Outbound.js"
import { makeAssemblyAI } from "./AssemblyAI.js"
import { makeDeepgram } from "./Deepgram.js"
import { type ProviderName, TranscriptionFailed } from "./ProviderHttp.js"
import { makeOpenAI } from "./OpenAI.js"
import { isTranscriberChoice, type TranscriberChoice } from "../lib/SpeechToTextSetup.js"
import type { TranscriberService } from "./Transcriber.js"

export class Transcribers extends Effect.Service<Transcribers>()("Transcribers", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const integrations = yield* SpeechIntegrations
    const client = yield* HttpClient.HttpClient
    const timeout = Duration.seconds(config.transcriberTimeoutSeconds)
    const pollInterval = Duration.millis(config.assemblyaiPollMs)

    const needsKey = (provider: ProviderName, variable: string) =>
      new TranscriptionFailed({ provider, message: `this server has no ${variable}: ${provider} cannot be used` })

    const withKey = (
      key: Option.Option<Redacted.Redacted<string>>,
      provider: ProviderName,
      variable: string,
      make: (apiKey: Redacted.Redacted<string>) => Effect.Effect<TranscriberService, never, HttpClient.HttpClient>
    ) => Option.match(key, { onNone: () => Effect.fail(needsKey(provider, variable)), onSome: make })

    /** The adapter of one provider, configured from the environment. */
    const adapter = (provider: ProviderName): Effect.Effect<TranscriberService, TranscriptionFailed> => {
      const made = provider === "deepgram"
        ? withKey(config.deepgramApiKey, provider, "DEEPGRAM_API_KEY", (apiKey) =>
          makeDeepgram({ apiKey, baseUrl: config.deepgramBaseUrl, timeout }))
        : provider === "assemblyai"
        ? withKey(config.assemblyaiApiKey, provider, "ASSEMBLYAI_API_KEY", (apiKey) =>
          makeAssemblyAI({ apiKey, baseUrl: config.assemblyaiBaseUrl, timeout, pollInterval }))
        : makeOpenAI({
          apiKey: Option.getOrUndefined(config.openaiApiKey),
          baseUrl: config.openaiBaseUrl,
          model: config.openaiTranscribeModel,
          timeout
        })
      return Effect.provideService(made, HttpClient.HttpClient, client)
    }

    /** The adapter of the tenant's own integration: its key, and its base URL and model when it set them. */
    const integrationAdapter = (i: SpeechIntegration): Effect.Effect<TranscriberService> => {
      const settings = { apiKey: i.apiKey, baseUrl: i.baseUrl ?? undefined, model: i.model ?? undefined, timeout }
      const made = i.provider === "deepgram"
        ? makeDeepgram({ ...settings, baseUrl: settings.baseUrl ?? config.deepgramBaseUrl })
        : i.provider === "assemblyai"
        ? makeAssemblyAI({ ...settings, baseUrl: settings.baseUrl ?? config.assemblyaiBaseUrl, pollInterval })
        : makeOpenAI({
          ...settings,
          baseUrl: settings.baseUrl ?? config.openaiBaseUrl,
          model: settings.model ?? config.openaiTranscribeModel
        })
      return Effect.provideService(made, HttpClient.HttpClient, client)
    }

    /** The provider chosen for a tenant: its runtime flag, else the server default. */
    const choiceFor = (clientId: ClientId) =>
      Effect.map(integrations.transcriberFlag(clientId), (flag): TranscriberChoice => {
        const saved = Option.getOrUndefined(flag)
        return isTranscriberChoice(saved) ? saved : config.transcriber
      })

    /** The transcriber of a tenant's calls; none for an acoustic-only analysis. */
    const forTenant = Effect.fn("Transcribers.forTenant")(function* (clientId: ClientId) {
      const own = yield* integrations.forTenant(clientId).pipe(
        Effect.mapError((e) =>
          new TranscriptionFailed({
            provider: e.provider === "openai-compatible" ? "openai" : e.provider,
            message: `the tenant's ${e.provider} key cannot be opened: ${e.message}`
          })
        )
      )
      if (Option.isSome(own)) return Option.some(yield* integrationAdapter(own.value))
      const choice = yield* choiceFor(clientId)
      if (choice === "none") return Option.none<TranscriberService>()
      return Option.some(yield* adapter(choice))
    })

    return { forTenant, choiceFor } as const
  }),
  dependencies: [OutboundHttpClient]
}) {}
