/**
 * How a request goes to an outside provider (speech-to-text, LLM, the companion's messengers) and
 * its JSON answer comes back: within an overall time limit, retried with exponential back-off
 * (`retryBaseDelay` × 2^n, at least `Retry-After`, at most `maxRetryDelay`) on 429, 5xx and
 * transport errors, failing at once on other 4xx, the answer decoded by schema. The engines
 * (`transcription/`, `llm/`) turn `ProviderFailure` into their own error and say only where to send
 * what and how to read the answer.
 *
 * Never an upstream's body to a caller: a failure's message names the provider, what was asked, the
 * HTTP status and a short reason of ours (`statusReason`), and nothing the provider wrote. What the
 * provider wrote goes to one WARN log line for operators, blanked and cut short. Every text made
 * here (messages, log lines) is blanked (lib/Redact.ts, every encoding) of the secrets the request
 * carries: the `apiKey` and `secrets` given, and what the built request itself carries in its
 * credential headers (`authorization` and its token, the user and password of `Basic`, any header
 * named like a key, token or secret) and in its URL (a password, query parameters named so).
 */
import type { HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Data, Duration, Effect, ParseResult, type Redacted, Schema } from "effect"
import { redact, redactedExcerpt, type SecretInput } from "./Redact.js"

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

/**
 * Our short reason for an HTTP status, never the provider's words: what a failure's message says
 * after the provider's name and the status.
 */
export const statusReason = (status: number): string => {
  switch (status) {
    case 400:
      return "the request was refused"
    case 401:
      return "the key was refused"
    case 402:
      return "the account has no credit or plan for this"
    case 403:
      return "access was denied"
    case 404:
      return "nothing answers at that address"
    case 405:
      return "the method is not allowed at that address"
    case 408:
      return "the request timed out"
    case 409:
      return "the request conflicted with the provider's state"
    case 413:
      return "the request was too large"
    case 415:
      return "the media type was refused"
    case 422:
      return "the request could not be processed"
    case 429:
      return "rate limited"
  }
  if (status >= 500) return "the provider failed"
  if (status >= 400) return "the request was refused"
  if (status >= 300) return "an unexpected redirect"
  return "an unexpected answer"
}

/**
 * The error codes of OAuth 2 (RFC 6749 4.1.2.1 and 5.2, RFC 7009 2.2.1): a fixed vocabulary, not
 * the provider's prose, so a message may name one (`invalid_grant`). `error_description` and any
 * other code are the provider's words: they go to the log only.
 */
export const OAUTH_ERROR_CODES: ReadonlySet<string> = new Set([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "access_denied",
  "unsupported_response_type",
  "server_error",
  "temporarily_unavailable",
  "unsupported_token_type"
])

/** The OAuth 2 error code of an answer's body (`{"error": "invalid_grant", ...}`), when it is one of the RFCs'. */
export const oauthErrorCode = (text: string): string | undefined => {
  try {
    const body: unknown = JSON.parse(text)
    const error = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["error"] : undefined
    return typeof error === "string" && OAUTH_ERROR_CODES.has(error) ? error : undefined
  } catch {
    return undefined
  }
}

/** The names of headers and query parameters whose values are credentials. */
const CREDENTIAL_NAME = /auth|key|token|secret|passw|signature|session|cookie|^sig$/i

/**
 * The secrets a built request carries: its credential headers (and the token after the scheme, and
 * the user and password of `Basic`), the password of its URL, and its query parameters named as
 * credentials. What the provider may echo, whether or not the adapter said so.
 */
export const requestSecrets = (request: HttpClientRequest.HttpClientRequest): Array<string> => {
  const found: Array<string> = []
  for (const [name, value] of Object.entries(request.headers)) {
    if (!CREDENTIAL_NAME.test(name) || typeof value !== "string") continue
    found.push(value)
    const scheme = /^(\S+)\s+(\S.*)$/.exec(value.trim())
    if (scheme === null) continue
    found.push(scheme[2]!)
    if (scheme[1]!.toLowerCase() === "basic") {
      const decoded = Buffer.from(scheme[2]!, "base64").toString("utf8")
      const colon = decoded.indexOf(":")
      found.push(decoded)
      if (colon >= 0) found.push(decoded.slice(0, colon), decoded.slice(colon + 1))
    }
  }
  for (const [name, value] of request.urlParams) if (CREDENTIAL_NAME.test(name)) found.push(value)
  try {
    const url = new URL(request.url)
    if (url.password !== "") found.push(decodeURIComponent(url.password))
    for (const [name, value] of url.searchParams) if (CREDENTIAL_NAME.test(name)) found.push(value)
  } catch {
    // not an absolute URL: nothing to read in it
  }
  return found
}

/** The provider gave no usable answer; `message` is ours, ready to show (no upstream text, no secret). */
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

/** A failure another attempt would not cure; `detail`: what the provider wrote, for the log only. */
class Fatal extends Data.TaggedError("Fatal")<{
  readonly status?: number | undefined
  readonly message: string
  readonly detail?: string | undefined
}> {}

/**
 * The provider's own words for what went wrong, from the usual error shapes, on one line, short,
 * blanked of `secrets`: for a log line, never for a message.
 */
export const errorDetail = (text: string, secrets: Iterable<SecretInput> = []): string => {
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
  return redactedExcerpt(detail, secrets, 300)
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
  /**
   * The key, only to blank it out of messages and log lines (the credentials the built request
   * carries in its headers and URL are blanked whether or not they are given here).
   */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** Other secrets to blank out (a token that is part of the URL's path, say). */
  readonly secrets?: ReadonlyArray<SecretInput> | undefined
  /** Log annotations of a retry. */
  readonly annotations?: Readonly<Record<string, unknown>>
  /**
   * How long the provider asks to wait, read from its answer's body (the Telegram Bot API puts it in
   * `parameters.retry_after`); the longer of it and `Retry-After` is honoured.
   */
  readonly retryAfterFromBody?: ((text: string) => Duration.Duration | undefined) | undefined
  /**
   * Whether 401 means the key was refused (the default). A messaging platform answers 401 and 403
   * for a chat that blocked the bot as well: with false, both are told as "access was denied".
   */
  readonly keyStatuses?: boolean | undefined
}): Effect.Effect<A, ProviderFailure | E> => {
  const { client, name, policy, what } = options
  const decode = Schema.decodeUnknown(options.schema)
  /** Every secret known so far: those given, and those of each request built. */
  const secrets = new Set<SecretInput>([options.apiKey, ...(options.secrets ?? [])])
  /** The secrets blanked out of a text (a transport error may carry the URL, where some providers put the key). */
  const blank = (text: string) => redact(text, secrets)
  const reasonOf = (status: number) =>
    options.keyStatuses === false && (status === 401 || status === 403) ? "access was denied" : statusReason(status)

  const readAnswer = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<A, Retryable | Fatal> => {
    if (response.status >= 200 && response.status < 300) {
      return response.text.pipe(
        Effect.mapError((e) => new Retryable({ detail: blank(`the answer was cut off: ${describeCause(e.cause ?? e)}`) })),
        Effect.flatMap((text) =>
          Effect.try({
            try: () => JSON.parse(text) as unknown,
            catch: () =>
              new Fatal({
                status: response.status,
                message: `${name} answered the ${what} with something that is not JSON`,
                detail: redactedExcerpt(text, secrets)
              })
          })
        ),
        Effect.flatMap((json) =>
          decode(json).pipe(
            Effect.mapError((error) => {
              // where in the answer the shape breaks (our schema's field names), not what it holds
              const first = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
              const at = first === undefined || first.path.length === 0 ? "" : ` (at ${first.path.map(String).join(".")})`
              return new Fatal({
                status: response.status,
                message: `${name} answered the ${what} in an unexpected shape${at}`,
                detail: redactedExcerpt(ParseResult.TreeFormatter.formatErrorSync(error), secrets)
              })
            })
          )
        )
      )
    }
    return response.text.pipe(
      Effect.orElseSucceed(() => ""),
      Effect.flatMap((text): Effect.Effect<never, Retryable | Fatal> => {
        const status = response.status
        const detail = errorDetail(text, secrets)
        if (status === 429 || status >= 500) {
          const header = retryAfter(response.headers["retry-after"])
          const body = options.retryAfterFromBody?.(text)
          const wait = header === undefined ? body : body === undefined ? header : Duration.max(header, body)
          return Effect.fail(new Retryable({ status, detail, retryAfter: wait }))
        }
        return Effect.fail(new Fatal({ status, message: `${name} answered the ${what} with HTTP ${status}: ${reasonOf(status)}`, detail }))
      })
    )
  }

  const attempt: Effect.Effect<A, Retryable | Fatal | E> = Effect.gen(function* () {
    const request = yield* options.build
    for (const secret of requestSecrets(request)) secrets.add(secret)
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
      message: blank(
        e._tag === "Fatal"
          ? e.message
          : e.status === undefined
          ? `could not reach ${name} for the ${what} after ${attempts} attempt(s): ${e.detail}`
          : `${name} answered the ${what} with HTTP ${e.status}: ${statusReason(e.status)}, after ${attempts} attempt(s)`
      )
    })
  /** The provider's words, for operators only: one WARN line, blanked and short. */
  const logged = (e: Retryable | Fatal, message: string) =>
    Effect.logWarning(`${name} ${what} failed: ${message}`).pipe(
      Effect.annotateLogs({ ...options.annotations, status: e.status ?? "transport", detail: blank(e.detail ?? "") })
    )
  return withRetries(0).pipe(
    Effect.catchIf((e): e is Retryable | Fatal => e instanceof Retryable || e instanceof Fatal, (e) => {
      const failed = failure(e)
      return Effect.zipRight(logged(e, failed.message), Effect.fail(failed))
    }),
    Effect.timeoutFail({
      duration: policy.timeout,
      onTimeout: () => new ProviderFailure({ message: `${name} did not answer the ${what} within ${Duration.format(policy.timeout)}` })
    })
  )
}
