/**
 * OpenAI chat completions with structured output, for OpenAI and OpenAI-compatible servers (vLLM,
 * llama.cpp, Ollama, LM Studio ...): `POST {base}/v1/chat/completions` with `Authorization: Bearer
 * KEY`, the model, a system and a user message, and `response_format: {type: "json_schema",
 * json_schema: {name, strict: true, schema}}`. The answer is `choices[0].message.content`, the
 * JSON as text; a `refusal` instead, or a reply cut off by the length limit, is a failure.
 */
import { HttpClient } from "@effect/platform"
import { Effect, Redacted, Schema } from "effect"
import type { StructuredRequest } from "@callsight/analysis"
import { redactedExcerpt } from "../lib/Redact.js"
import type { AssessorService } from "./Assessor.js"
import { DISPLAY, LlmFailed, type LlmProviderName, postJson, type RequestPolicy, resolvePolicy, trimBaseUrl } from "./ProviderHttp.js"

export const OPENAI_LLM_DEFAULT_MODEL = "gpt-4.1-mini"

export interface OpenAIChatSettings extends RequestPolicy {
  readonly provider: Extract<LlmProviderName, "openai" | "openai-compatible">
  /** Absent for a self-hosted server that takes none: then no `Authorization` header is sent. */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** The server's root, with or without `/v1`. */
  readonly baseUrl: string
  readonly model: string
}

const ChatCompletion = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({
    finish_reason: Schema.optional(Schema.NullOr(Schema.String)),
    message: Schema.Struct({
      content: Schema.optional(Schema.NullOr(Schema.String)),
      refusal: Schema.optional(Schema.NullOr(Schema.String))
    })
  }))
})

/** `…/v1/chat/completions` whether the base URL ends in `/v1` or not. */
export const chatCompletionsUrl = (baseUrl: string) => {
  const base = trimBaseUrl(baseUrl)
  return base.endsWith("/v1") ? `${base}/chat/completions` : `${base}/v1/chat/completions`
}

/** The body of the request: the model, the two messages, the schema in strict mode. */
export const chatBody = (model: string, request: StructuredRequest) => ({
  model,
  messages: [
    { role: "system", content: request.system },
    { role: "user", content: request.prompt }
  ],
  response_format: {
    type: "json_schema",
    json_schema: { name: request.name, description: request.description, strict: true, schema: request.schema }
  }
})

export const makeOpenAIChat = (settings: OpenAIChatSettings): Effect.Effect<AssessorService, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const { apiKey, model, provider } = settings
    const policy = resolvePolicy(settings)
    const name = DISPLAY[provider]
    const assess = (request: StructuredRequest) =>
      postJson({
        client,
        provider,
        policy,
        url: chatCompletionsUrl(settings.baseUrl),
        headers: apiKey === undefined ? {} : { authorization: `Bearer ${Redacted.value(apiKey)}` },
        apiKey,
        body: chatBody(model, request),
        schema: ChatCompletion
      }).pipe(
        Effect.flatMap((answer) => {
          const choice = answer.choices[0]
          const refusal = choice.message.refusal
          if (typeof refusal === "string" && refusal.length > 0) {
            // the model's own words go to the log only (blanked), never into a message
            return Effect.logWarning(`${name} refused to assess the call`).pipe(
              Effect.annotateLogs({ provider, model, detail: redactedExcerpt(refusal, [apiKey]) }),
              Effect.zipRight(Effect.fail(new LlmFailed({ provider, message: `${name} refused to assess the call (the model answered with a refusal)` })))
            )
          }
          if (choice.finish_reason === "length") {
            return Effect.fail(new LlmFailed({ provider, message: `${name}'s answer was cut off at the model's length limit` }))
          }
          const content = choice.message.content ?? ""
          return Effect.try({
            try: () => JSON.parse(content) as unknown,
            catch: () => new LlmFailed({ provider, message: `${name} answered with something that is not the requested JSON` })
          })
        }),
        Effect.withSpan("llm.openai.assess", { attributes: { provider, model } })
      )
    return { provider, model, assess }
  })
