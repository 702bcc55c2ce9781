/**
 * The language model a tenant's chat talks to (issue 16): its own LLM integration, through
 * `@effect/ai`'s providers, with the same base URL and model choice as the call assessments
 * (`resolveAssistant`): OpenAI and OpenAI-compatible servers through `@effect/ai-openai` (the
 * Responses API, `POST {base}/v1/responses`, with function tools), Anthropic through
 * `@effect/ai-anthropic` (`POST {base}/v1/messages` with tools). No integration: none, and the chat
 * answers by its intent rules. The model is made per request (scoped), for the tenant asking. The
 * provider's library is loaded by the first chat that uses it (megabytes of generated API schemas
 * and tokenizers that a server need not load before it listens, nor ever without such a tenant).
 */
import type { ClientId } from "@callsight/api-spec"
import type { LanguageModel } from "@effect/ai"
import { HttpClient } from "@effect/platform"
import { Effect, Option, type Redacted, type Scope } from "effect"
import { AppConfig } from "../config.js"
import { OutboundHttpClient } from "../lib/Outbound.js"
import { statusReason } from "../lib/ProviderRequests.js"
import { redactedExcerpt } from "../lib/Redact.js"
import { LlmAssistants, type LlmAssistantUnreadable } from "../ports/LlmAssistants.js"
import { resolveAssistant } from "./Assessors.js"
import { trimBaseUrl } from "./ProviderHttp.js"

export interface ChatModel {
  readonly provider: string
  readonly model: string
  readonly languageModel: LanguageModel.Service
  /** The integration's key, only to blank it out of what is logged of a failure. */
  readonly apiKey: Redacted.Redacted<string>
}

/**
 * What became of a chat request the model failed: `stored`, a reason of ours for the integration's
 * `last_error` (the status and `statusReason`, never the provider's words, which `@effect/ai`'s
 * errors carry); `detail`, the error's own text for the log, blanked of the key and short.
 */
export const chatFailure = (model: ChatModel, error: unknown): { readonly stored: string; readonly detail: string } => {
  const status = (error as { readonly response?: { readonly status?: unknown } } | null)?.response?.status
  const text = String((error as { readonly message?: unknown } | null)?.message ?? error)
  const stored = typeof status === "number"
    ? `the model answered HTTP ${status}: ${statusReason(status)}`
    : (error as { readonly _tag?: unknown } | null)?._tag === "TimeoutException" || /^no answer within/.test(text)
    ? "the model did not answer in time"
    : "the model could not be reached or gave no usable answer"
  return { stored, detail: redactedExcerpt(text, [model.apiKey]) }
}

/** `@effect/ai-openai` appends `/responses` to its URL: the base with `/v1`, whether given with it or not. */
const openAiUrl = (base: string) => {
  const trimmed = trimBaseUrl(base)
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`
}

/** The providers' libraries, each loaded by the first chat that uses it. */
const anthropic = Effect.promise(() => import("@effect/ai-anthropic"))
const openAi = Effect.promise(() => import("@effect/ai-openai"))

export class ChatModels extends Effect.Service<ChatModels>()("ChatModels", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const assistants = yield* LlmAssistants
    const client = yield* HttpClient.HttpClient

    /** The tenant's chat model, if it saved an LLM integration. */
    const forTenant = (clientId: ClientId): Effect.Effect<Option.Option<ChatModel>, LlmAssistantUnreadable, Scope.Scope> =>
      Effect.gen(function* () {
        const own = yield* assistants.forTenant(clientId)
        if (Option.isNone(own)) return Option.none()
        const a = own.value
        const { baseUrl, model } = resolveAssistant(config, a)
        const languageModel = a.provider === "anthropic"
          ? yield* Effect.flatMap(anthropic, ({ AnthropicClient, AnthropicLanguageModel }) =>
            AnthropicLanguageModel.make({ model }).pipe(
              Effect.provideServiceEffect(AnthropicClient.AnthropicClient, AnthropicClient.make({ apiKey: a.apiKey, apiUrl: trimBaseUrl(baseUrl) }))
            ))
          : yield* Effect.flatMap(openAi, ({ OpenAiClient, OpenAiLanguageModel }) =>
            OpenAiLanguageModel.make({ model }).pipe(
              Effect.provideServiceEffect(OpenAiClient.OpenAiClient, OpenAiClient.make({ apiKey: a.apiKey, apiUrl: openAiUrl(baseUrl) }))
            ))
        return Option.some({ provider: a.provider, model, languageModel, apiKey: a.apiKey })
      }).pipe(Effect.provideService(HttpClient.HttpClient, client))

    return { forTenant, recordUse: assistants.recordUse } as const
  }),
  dependencies: [OutboundHttpClient]
}) {}
