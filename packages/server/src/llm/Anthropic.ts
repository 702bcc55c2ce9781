/**
 * Anthropic messages with structured output through a forced tool: `POST {base}/v1/messages` with
 * `x-api-key: KEY` and `anthropic-version: 2023-06-01`, the system prompt, one user message, one
 * tool whose `input_schema` is the requested schema, and `tool_choice: {type: "tool", name}` so the
 * model must call it. The answer is the `input` of that `tool_use` block; an answer stopped by
 * `max_tokens` is a failure.
 */
import { HttpClient } from "@effect/platform"
import { Effect, Redacted, Schema } from "effect"
import type { StructuredRequest } from "@callsight/analysis"
import type { AssessorService } from "./Assessor.js"
import { LlmFailed, postJson, type RequestPolicy, resolvePolicy, trimBaseUrl } from "./ProviderHttp.js"

export const ANTHROPIC_DEFAULT_MODEL = "claude-sonnet-4-5"
export const ANTHROPIC_VERSION = "2023-06-01"
/** Room for the answer: a long call's findings, quoted. */
const MAX_TOKENS = 8192

export interface AnthropicSettings extends RequestPolicy {
  readonly apiKey: Redacted.Redacted<string>
  readonly baseUrl: string
  readonly model: string
}

const Message = Schema.Struct({
  stop_reason: Schema.optional(Schema.NullOr(Schema.String)),
  content: Schema.Array(Schema.Struct({
    type: Schema.String,
    name: Schema.optional(Schema.String),
    input: Schema.optional(Schema.Unknown)
  }))
})

/** The body of the request: the model, the system prompt, the message, the one tool it must use. */
export const messagesBody = (model: string, request: StructuredRequest) => ({
  model,
  max_tokens: MAX_TOKENS,
  system: request.system,
  messages: [{ role: "user", content: request.prompt }],
  tools: [{ name: request.name, description: request.description, input_schema: request.schema }],
  tool_choice: { type: "tool", name: request.name }
})

export const makeAnthropic = (settings: AnthropicSettings): Effect.Effect<AssessorService, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const { apiKey, model } = settings
    const policy = resolvePolicy(settings)
    const assess = (request: StructuredRequest) =>
      postJson({
        client,
        provider: "anthropic",
        policy,
        url: `${trimBaseUrl(settings.baseUrl)}/v1/messages`,
        headers: { "x-api-key": Redacted.value(apiKey), "anthropic-version": ANTHROPIC_VERSION },
        apiKey,
        body: messagesBody(model, request),
        schema: Message
      }).pipe(
        Effect.flatMap((answer) => {
          if (answer.stop_reason === "max_tokens") {
            return Effect.fail(new LlmFailed({ provider: "anthropic", message: "Anthropic's answer was cut off at max_tokens" }))
          }
          const call = answer.content.find((b) => b.type === "tool_use" && b.name === request.name)
          return call === undefined || call.input === undefined
            ? Effect.fail(new LlmFailed({ provider: "anthropic", message: `Anthropic answered without using the ${request.name} tool` }))
            : Effect.succeed(call.input)
        }),
        Effect.withSpan("llm.anthropic.assess", { attributes: { provider: "anthropic", model } })
      )
    return { provider: "anthropic" as const, model, assess }
  })
