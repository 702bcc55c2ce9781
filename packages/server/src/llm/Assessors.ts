/**
 * Which LLM assesses a tenant's calls: its own LLM integration (`LlmAssistants`: OpenAI, Anthropic
 * or an OpenAI-compatible server, with its key, and its base URL and model when it set them), else
 * none. There is no server-wide LLM: the transcript goes to a model only when the tenant chose one.
 *
 * The base URL defaults to the server's `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`, the model to
 * `OPENAI_LLM_MODEL` / `ANTHROPIC_LLM_MODEL`. An OpenAI integration saved for speech-to-text may
 * name a transcription model (`whisper-1`, `gpt-4o-transcribe…`): the LLM default is asked then.
 * A key that cannot be opened gives an assessor that fails at once, so the call keeps its
 * rule-based result and says why.
 */
import type { ClientId } from "@callsight/api-spec"
import { HttpClient } from "@effect/platform"
import { Duration, Effect, Option } from "effect"
import { AppConfig, type AppConfigShape } from "../config.js"
import { OutboundHttpClient } from "../lib/Outbound.js"
import { type LlmAssistant, LlmAssistants } from "../ports/LlmAssistants.js"
import { makeAnthropic } from "./Anthropic.js"
import type { AssessorService } from "./Assessor.js"
import { LlmFailed } from "./ProviderHttp.js"
import { makeOpenAIChat } from "./OpenAI.js"

/** A model that transcribes rather than writes. */
const isSpeechModel = (model: string) => /whisper|transcribe|tts|audio/i.test(model)

/** The base URL and the model an integration is asked at: its own, else the server's defaults. */
export const resolveAssistant = (
  config: Pick<AppConfigShape, "anthropicBaseUrl" | "anthropicLlmModel" | "openaiBaseUrl" | "openaiLlmModel">,
  a: LlmAssistant
): { readonly baseUrl: string; readonly model: string } =>
  a.provider === "anthropic"
    ? { baseUrl: a.baseUrl ?? config.anthropicBaseUrl, model: a.model ?? config.anthropicLlmModel }
    : {
      baseUrl: a.baseUrl ?? config.openaiBaseUrl,
      model: a.model !== null && !isSpeechModel(a.model) ? a.model : config.openaiLlmModel
    }

export class Assessors extends Effect.Service<Assessors>()("Assessors", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const assistants = yield* LlmAssistants
    const client = yield* HttpClient.HttpClient
    const timeout = Duration.seconds(config.llmTimeoutSeconds)

    const adapter = (a: LlmAssistant): Effect.Effect<AssessorService> => {
      const { baseUrl, model } = resolveAssistant(config, a)
      const made = a.provider === "anthropic"
        ? makeAnthropic({ apiKey: a.apiKey, baseUrl, model, timeout })
        : makeOpenAIChat({ provider: a.provider, apiKey: a.apiKey, baseUrl, model, timeout })
      return Effect.provideService(made, HttpClient.HttpClient, client)
    }

    /** The assessor of a tenant's calls; none when the tenant saved no LLM integration. */
    const forTenant = Effect.fn("Assessors.forTenant")(function* (clientId: ClientId) {
      const own = yield* Effect.either(assistants.forTenant(clientId))
      if (own._tag === "Left") {
        const e = own.left
        const unreadable: AssessorService = {
          provider: e.provider,
          model: "unknown",
          assess: () => Effect.fail(new LlmFailed({ provider: e.provider, message: `the tenant's ${e.provider} key cannot be opened: ${e.message}` }))
        }
        return Option.some(unreadable)
      }
      return Option.isNone(own.right) ? Option.none<AssessorService>() : Option.some(yield* adapter(own.right.value))
    })

    return { forTenant, recordUse: assistants.recordUse } as const
  }),
  dependencies: [OutboundHttpClient]
}) {}
