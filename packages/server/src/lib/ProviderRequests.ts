/**
 * How a request goes to an outside provider (speech-to-text, LLM) and its JSON answer comes back:
 * within an overall time limit, retried with exponential back-off (`retryBaseDelay` × 2^n, at least
 * `Retry-After`, at most `maxRetryDelay`) on 429, 5xx and transport errors, failing at once on
 * other 4xx, the answer decoded by schema. The provider's key, when given, is blanked out of every
 * message made of its answers. The engines (`transcription/`, `llm/`) turn `ProviderFailure` into
 * their own error and say only where to send what and how to read the answer.
 */
import type { HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Data, Duration, Effect, ParseResult, Redacted, Schema } from "effect"

/** How each request is sent. */
export interface RequestPolicy {
  /** The longest one request may take, retries and waits included. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Retries after the first attempt, on 429, 5xx and transport errors (default 3). */
  readonly maxRetries?: number | undefined
  /** The first back-off; it doubles on each retry (default 1 s). */
  readonly retryBaseDelay?: Duration.DurationInput | undefined
  /** The longest single wait, `Retry-After` included. */
  readonly maxRetryDelay?: Duration.DurationInput | undefined
}

export interface Policy {
  readonly timeout: Duration.Duration
  readonly maxRetries: number
  readonly retryBaseDelay: Duration.Duration
  readonly maxRetryDelay: Duration.Duration
}

/** The policy with each engine's defaults for what it leaves out. */
export const resolvePolicy = (
  p: RequestPolicy,
  defaults: { readonly timeout: Duration.DurationInput; readonly maxRetryDelay: Duration.DurationInput }
): Policy => ({
  timeout: Duration.decode(p.timeout ?? defaults.timeout),
  maxRetries: Math.max(0, Math.floor(p.maxRetries ?? 3)),
  retryBaseDelay: Duration.decode(p.retryBaseDelay ?? Duration.seconds(1)),
  maxRetryDelay: Duration.decode(p.maxRetryDelay ?? defaults.maxRetryDelay)
})

/** Base URLs are kept without a trailing slash. */
export const trimBaseUrl = (url: string) => url.replace(/\/+$/, "")

/** The provider gave no usable answer; `message` is ready to show (the key blanked out). */
export class ProviderFailure extends Data.TaggedError("ProviderFailure")<{
  readonly status?: number | undefined
  readonly message: string
}> {}

/** A failure worth another attempt (429, 5xx, the connection). */
class Retryable extends Data.TaggedError("Retryable")<{
  readonly status?: number | undefined
  readonly detail: string
  readonly retryAfter?: Duration.Duration | undefined
}> {}

/** A failure another attempt would not cure. */
class Fatal extends Data.TaggedError("Fatal")<{ readonly status?: number | undefined; readonly message: string }> {}

/** The provider's own words for what went wrong, from the usual error shapes, short, the key blanked out. */
export const errorDetail = (text: string, apiKey?: Redacted.Redacted<string> | undefined): string => {
  let detail = text.trim()
  try {
    const body: unknown = JSON.parse(text)
    const field = (o: unknown, key: string): unknown =>
      typeof o === "object" && o !== null ? (o as Record<string, unknown>)[key] : undefined
    // `description`: the Telegram Bot API's word for it
    const candidates = ["err_msg", "error", "message", "detail", "reason", "description"].map((key) => field(body, key))
    candidates.splice(1, 0, field(field(body, "error"), "message"))
    const found = candidates.find((c): c is string => typeof c === "string" && c.length > 0)
    if (found !== undefined) detail = found
  } catch {
    // not JSON: the text itself
  }
  const key = apiKey === undefined ? "" : Redacted.value(apiKey)
  if (key.length > 0) detail = detail.split(key).join("[the key]")
  detail = detail.replace(/\s+/g, " ")
  return detail.length > 200 ? `${detail.slice(0, 200)}…` : detail
}

/** `Retry-After` as seconds or an HTTP date. */
const retryAfter = (value: string | undefined): Duration.Duration | undefined => {
  if (value === undefined || value.trim() === "") return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Duration.seconds(Math.max(0, seconds))
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Duration.millis(Math.max(0, date - Date.now()))
}

/** An error and its causes, as one line. */
export const describeCause = (cause: unknown): string => {
  const parts: Array<string> = []
  let current: any = cause
  for (let i = 0; i < 4 && current != null; i++) {
    const text = typeof current.message === "string" && current.message !== "" ? current.message : undefined
    const code = typeof current.code === "string" ? current.code : undefined
    if (text !== undefined && !parts.includes(text)) parts.push(code !== undefined && !text.includes(code) ? `${text} (${code})` : text)
    current = current.cause
  }
  return parts.length > 0 ? parts.join(": ") : String(cause)
}

/**
 * Sends one request and decodes its JSON answer with `schema`, retrying and bounded as the module
 * says. `build` runs again for each attempt (a file body is re-opened).
 */
export const requestJson = <A, I, E>(options: {
  readonly client: HttpClient.HttpClient
  /** The provider as messages name it ("Deepgram"). */
  readonly name: string
  /** What is being done, for messages ("upload", "transcription request", ...). */
  readonly what: string
  readonly policy: Policy
  readonly build: Effect.Effect<HttpClientRequest.HttpClientRequest, E>
  readonly schema: Schema.Schema<A, I>
  /** The key, only to blank it out of messages. */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** Log annotations of a retry. */
  readonly annotations?: Readonly<Record<string, unknown>>
  /**
   * How long the provider asks to wait, read from its answer's body (the Telegram Bot API puts it in
   * `parameters.retry_after`); the longer of it and `Retry-After` is honoured.
   */
  readonly retryAfterFromBody?: ((text: string) => Duration.Duration | undefined) | undefined
  /**
   * Whether 401 and 403 mean the key was refused (the default). A messaging platform answers 403 for
   * a chat that blocked the bot: with false, they are told as any other refusal.
   */
  readonly keyStatuses?: boolean | undefined
}): Effect.Effect<A, ProviderFailure | E> => {
  const { client, name, policy, what } = options
  const decode = Schema.decodeUnknown(options.schema)
  const key = options.apiKey === undefined ? "" : Redacted.value(options.apiKey)
  /** The key blanked out of a message (a transport error may carry the URL, where some providers put it). */
  const blank = (text: string) => (key.length > 0 ? text.split(key).join("[the key]") : text)

  const readAnswer = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<A, Retryable | Fatal> => {
    if (response.status >= 200 && response.status < 300) {
      return response.text.pipe(
        Effect.mapError((e) => new Retryable({ detail: blank(`the answer was cut off: ${describeCause(e.cause ?? e)}`) })),
        Effect.flatMap((text) =>
          Effect.try({
            try: () => JSON.parse(text) as unknown,
            catch: () => new Fatal({ status: response.status, message: `${name} answered the ${what} with something that is not JSON` })
          })
        ),
        Effect.flatMap((json) =>
          decode(json).pipe(
            Effect.mapError((error) =>
              new Fatal({
                status: response.status,
                message: `${name} answered the ${what} in an unexpected shape: ${
                  ParseResult.TreeFormatter.formatErrorSync(error).split("\n").slice(0, 6).join(" ").replace(/\s+/g, " ")
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
        const detail = errorDetail(text, options.apiKey)
        const suffix = detail === "" ? "" : `: ${detail}`
        if (status === 429 || status >= 500) {
          const header = retryAfter(response.headers["retry-after"])
          const body = options.retryAfterFromBody?.(text)
          const wait = header === undefined ? body : body === undefined ? header : Duration.max(header, body)
          return Effect.fail(new Retryable({ status, detail, retryAfter: wait }))
        }
        if (options.keyStatuses === false) {
          return Effect.fail(new Fatal({ status, message: `${name} rejected the ${what} (HTTP ${status})${suffix}` }))
        }
        if (status === 401) return Effect.fail(new Fatal({ status, message: `${name} refused the API key (HTTP 401)${suffix}` }))
        if (status === 403) {
          return Effect.fail(new Fatal({ status, message: `${name} denied access with this API key (HTTP 403)${suffix}` }))
        }
        return Effect.fail(new Fatal({ status, message: `${name} rejected the ${what} (HTTP ${status})${suffix}` }))
      })
    )
  }

  const attempt: Effect.Effect<A, Retryable | Fatal | E> = Effect.gen(function* () {
    const request = yield* options.build
    const response = yield* client.execute(request).pipe(
      Effect.mapError((e) => new Retryable({ detail: blank(describeCause(e.cause ?? e)) }))
    )
    return yield* readAnswer(response)
  }).pipe(Effect.scoped)

  const delayFor = (retry: number, error: Retryable): Duration.Duration => {
    const backoff = Duration.times(policy.retryBaseDelay, 2 ** retry)
    const wanted = error.retryAfter !== undefined ? Duration.max(backoff, error.retryAfter) : backoff
    return Duration.min(wanted, policy.maxRetryDelay)
  }

  const withRetries = (retry: number): Effect.Effect<A, Retryable | Fatal | E> =>
    attempt.pipe(
      Effect.catchIf((e): e is Retryable => e instanceof Retryable, (error) => {
        if (retry >= policy.maxRetries) return Effect.fail(error)
        const delay = delayFor(retry, error)
        return Effect.logWarning(`${name} ${what} failed; retrying`).pipe(
          Effect.annotateLogs({
            ...options.annotations,
            status: error.status ?? "transport",
            detail: error.detail,
            retry: retry + 1,
            delay_ms: Duration.toMillis(delay)
          }),
          Effect.zipRight(Effect.sleep(delay)),
          Effect.zipRight(withRetries(retry + 1))
        )
      })
    )

  const attempts = policy.maxRetries + 1
  const failure = (e: Retryable | Fatal) =>
    new ProviderFailure({
      status: e.status,
      message: e._tag === "Fatal"
        ? e.message
        : e.status === undefined
        ? `could not reach ${name} for the ${what} after ${attempts} attempt(s): ${e.detail}`
        : `${name} failed the ${what} (HTTP ${e.status}) after ${attempts} attempt(s)${e.detail === "" ? "" : `: ${e.detail}`}`
    })
  return withRetries(0).pipe(
    Effect.catchIf((e): e is Retryable | Fatal => e instanceof Retryable || e instanceof Fatal, (e) => Effect.fail(failure(e))),
    Effect.timeoutFail({
      duration: policy.timeout,
      onTimeout: () => new ProviderFailure({ message: `${name} did not answer the ${what} within ${Duration.format(policy.timeout)}` })
    })
  )
}
