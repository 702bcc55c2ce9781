/**
 * How a structured-output request is sent to an LLM provider: JSON in, JSON out, within an overall
 * time limit, retried with exponential back-off (1 s, doubling, `Retry-After` honoured) on 429,
 * 5xx and transport errors, failing at once on other 4xx. The key is sent in a header and never
 * written anywhere else: a provider's answer that echoes it has it blanked out before any message
 * is made of it. The adapters (`OpenAI.ts`, `Anthropic.ts`) only say where to send what and how
 * to read the answer.
 */
import { HttpClientRequest, type HttpClient, type HttpClientResponse } from "@effect/platform"
import { Data, Duration, Effect, ParseResult, Redacted, Schema } from "effect"

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

/** How each request is sent. */
export interface RequestPolicy {
  /** The longest the request may take, retries and waits included. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Retries after the first attempt, on 429, 5xx and transport errors (default 3). */
  readonly maxRetries?: number | undefined
  /** The first back-off; it doubles on each retry (default 1 s). */
  readonly retryBaseDelay?: Duration.DurationInput | undefined
  /** The longest single wait, `Retry-After` included (default 30 s). */
  readonly maxRetryDelay?: Duration.DurationInput | undefined
}

interface Policy {
  readonly timeout: Duration.Duration
  readonly maxRetries: number
  readonly retryBaseDelay: Duration.Duration
  readonly maxRetryDelay: Duration.Duration
}

export const resolvePolicy = (p: RequestPolicy): Policy => ({
  timeout: Duration.decode(p.timeout ?? Duration.minutes(2)),
  maxRetries: Math.max(0, Math.floor(p.maxRetries ?? 3)),
  retryBaseDelay: Duration.decode(p.retryBaseDelay ?? Duration.seconds(1)),
  maxRetryDelay: Duration.decode(p.maxRetryDelay ?? Duration.seconds(30))
})

/** Base URLs are kept without a trailing slash. */
export const trimBaseUrl = (url: string) => url.replace(/\/+$/, "")

class Retryable extends Data.TaggedError("Retryable")<{
  readonly status?: number | undefined
  readonly detail: string
  readonly retryAfter?: Duration.Duration | undefined
}> {}

class Fatal extends Data.TaggedError("Fatal")<{ readonly status?: number | undefined; readonly message: string }> {}

/** The provider's own words for what went wrong, short, with the key blanked out should it be echoed. */
export const errorDetail = (text: string, apiKey: Redacted.Redacted<string> | undefined): string => {
  let detail = text.trim()
  try {
    const body = JSON.parse(text) as any
    const candidates = [body?.error?.message, body?.error, body?.message, body?.detail]
    const found = candidates.find((c) => typeof c === "string" && c.length > 0)
    if (found !== undefined) detail = found
  } catch {
    // not JSON: the text itself
  }
  const key = apiKey === undefined ? "" : Redacted.value(apiKey)
  if (key.length > 0) detail = detail.split(key).join("[the key]")
  detail = detail.replace(/\s+/g, " ")
  return detail.length > 200 ? `${detail.slice(0, 200)}…` : detail
}

const retryAfter = (value: string | undefined): Duration.Duration | undefined => {
  if (value === undefined || value.trim() === "") return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Duration.seconds(Math.max(0, seconds))
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Duration.millis(Math.max(0, date - Date.now()))
}

const describeCause = (cause: unknown): string => {
  const parts: Array<string> = []
  let current: any = cause
  for (let i = 0; i < 4 && current != null; i++) {
    const text = typeof current.message === "string" && current.message !== "" ? current.message : undefined
    if (text !== undefined && !parts.includes(text)) parts.push(text)
    current = current.cause
  }
  return parts.length > 0 ? parts.join(": ") : String(cause)
}

/**
 * POSTs `body` as JSON to `url` with `headers` (the key among them) and decodes the JSON answer
 * with `schema`, retrying and bounded as the module says.
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
}): Effect.Effect<A, LlmFailed> => {
  const { apiKey, client, policy, provider, schema } = options
  const name = DISPLAY[provider]
  const decode = Schema.decodeUnknown(schema)
  const request = HttpClientRequest.post(options.url).pipe(
    HttpClientRequest.setHeaders(options.headers),
    HttpClientRequest.bodyUnsafeJson(options.body)
  )

  const readAnswer = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<A, Retryable | Fatal> => {
    if (response.status >= 200 && response.status < 300) {
      return response.text.pipe(
        Effect.mapError((e) => new Retryable({ detail: `the answer was cut off: ${describeCause(e.cause ?? e)}` })),
        Effect.flatMap((text) =>
          Effect.try({
            try: () => JSON.parse(text) as unknown,
            catch: () => new Fatal({ status: response.status, message: `${name} answered with something that is not JSON` })
          })
        ),
        Effect.flatMap((json) =>
          decode(json).pipe(
            Effect.mapError((error) =>
              new Fatal({
                status: response.status,
                message: `${name} answered in an unexpected shape: ${
                  ParseResult.TreeFormatter.formatErrorSync(error).split("\n").slice(0, 4).join(" ").replace(/\s+/g, " ")
                }`
              })
            )
          )
        )
      )
    }
    return response.text.pipe(
      Effect.orElseSucceed(() => ""),
      Effect.flatMap((text): Effect.Effect<never, Retryable | Fatal> => {
        const status = response.status
        const detail = errorDetail(text, apiKey)
        const suffix = detail === "" ? "" : `: ${detail}`
        if (status === 429 || status >= 500) {
          return Effect.fail(new Retryable({ status, detail, retryAfter: retryAfter(response.headers["retry-after"]) }))
        }
        if (status === 401 || status === 403) {
          return Effect.fail(new Fatal({ status, message: `${name} refused the API key (HTTP ${status})${suffix}` }))
        }
        return Effect.fail(new Fatal({ status, message: `${name} rejected the request (HTTP ${status})${suffix}` }))
      })
    )
  }

  const attempt = client.execute(request).pipe(
    Effect.mapError((e) => new Retryable({ detail: describeCause(e.cause ?? e) })),
    Effect.flatMap(readAnswer),
    Effect.scoped
  )

  const delayFor = (retry: number, error: Retryable): Duration.Duration => {
    const backoff = Duration.times(policy.retryBaseDelay, 2 ** retry)
    const wanted = error.retryAfter !== undefined ? Duration.max(backoff, error.retryAfter) : backoff
    return Duration.min(wanted, policy.maxRetryDelay)
  }

  const withRetries = (retry: number): Effect.Effect<A, Retryable | Fatal> =>
    attempt.pipe(
      Effect.catchTag("Retryable", (error) => {
        if (retry >= policy.maxRetries) return Effect.fail(error)
        const delay = delayFor(retry, error)
        return Effect.logWarning(`${name} failed the assessment request; retrying`).pipe(
          Effect.annotateLogs({ provider, status: error.status ?? "transport", retry: retry + 1, delay_ms: Duration.toMillis(delay) }),
          Effect.zipRight(Effect.sleep(delay)),
          Effect.zipRight(withRetries(retry + 1))
        )
      })
    )

  const attempts = policy.maxRetries + 1
  return withRetries(0).pipe(
    Effect.catchTags({
      Retryable: (e) =>
        Effect.fail(
          new LlmFailed({
            provider,
            status: e.status,
            message: e.status === undefined
              ? `could not reach ${name} after ${attempts} attempt(s): ${e.detail}`
              : `${name} failed the request (HTTP ${e.status}) after ${attempts} attempt(s)${e.detail === "" ? "" : `: ${e.detail}`}`
          })
        ),
      Fatal: (e) => Effect.fail(new LlmFailed({ provider, status: e.status, message: e.message }))
    }),
    Effect.timeoutFail({
      duration: policy.timeout,
      onTimeout: () => new LlmFailed({ provider, message: `${name} did not answer within ${Duration.format(policy.timeout)}` })
    })
  )
}
