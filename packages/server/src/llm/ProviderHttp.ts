/**
 * How a structured-output request is sent to an LLM provider: JSON in, JSON out, within an overall
 * time limit, retried with exponential back-off (1 s, doubling, `Retry-After` honoured) on 429,
 * 5xx and transport errors, failing at once on other 4xx (lib/ProviderRequests.ts, as the
 * speech-to-text adapters do). The key is sent in a header and never written anywhere else: a
 * provider's answer that echoes it has it blanked out before any message is made of it. The
 * adapters (`OpenAI.ts`, `Anthropic.ts`) only say where to send what and how to read the answer.
 */
import { HttpClientRequest, type HttpClient } from "@effect/platform"
import { Data, Duration, Effect, type Redacted, type Schema } from "effect"
import { type Policy, type RequestPolicy, requestJson, resolvePolicy as resolveWith } from "../lib/ProviderRequests.js"

export type LlmProviderName = "openai" | "anthropic" | "openai-compatible"

export const DISPLAY: Record<LlmProviderName, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  "openai-compatible": "the OpenAI-compatible server"
}

/** The LLM gave no usable answer: unreachable, timed out, refused the key or the request, or answered something we cannot read. */
export class LlmFailed extends Data.TaggedError("LlmFailed")<{
  readonly provider: LlmProviderName
  /** The provider's HTTP status, when it answered with one. */
  readonly status?: number | undefined
  readonly message: string
}> {}

export type { RequestPolicy } from "../lib/ProviderRequests.js"
export { trimBaseUrl } from "../lib/ProviderRequests.js"

/** The policy of an assessment request: 2 minutes in all, waits of at most 30 s. */
export const resolvePolicy = (p: RequestPolicy): Policy => resolveWith(p, { timeout: Duration.minutes(2), maxRetryDelay: Duration.seconds(30) })

/**
 * POSTs `body` as JSON to `url` with `headers` (the key among them) and decodes the JSON answer
 * with `schema` (lib/ProviderRequests.ts: retries on 429, 5xx and transport errors, bounded).
 */
export const postJson = <A, I>(options: {
  readonly client: HttpClient.HttpClient
  readonly provider: LlmProviderName
  readonly policy: Policy
  readonly url: string
  readonly headers: Record<string, string>
  /** The key, only to blank it out of messages. */
  readonly apiKey: Redacted.Redacted<string> | undefined
  readonly body: unknown
  readonly schema: Schema.Schema<A, I>
}): Effect.Effect<A, LlmFailed> =>
  requestJson({
    client: options.client,
    name: DISPLAY[options.provider],
    what: "assessment request",
    policy: options.policy,
    build: Effect.succeed(
      HttpClientRequest.post(options.url).pipe(
        HttpClientRequest.setHeaders(options.headers),
        HttpClientRequest.bodyUnsafeJson(options.body)
      )
    ),
    schema: options.schema,
    apiKey: options.apiKey,
    annotations: { provider: options.provider }
  }).pipe(
    Effect.catchTag("ProviderFailure", (e) => Effect.fail(new LlmFailed({ provider: options.provider, status: e.status, message: e.message })))
  )
