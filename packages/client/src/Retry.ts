/**
 * Retries and timeouts of the client, as one `HttpClient` middleware (`resilient`) under the
 * client derived from the declaration: every operation goes through it, so the answers and the
 * typed errors after the last attempt are decoded exactly as before.
 *
 * What is retried (at most `maxRetries` times, with exponential back-off and full jitter):
 * - an idempotent request (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`) answered 408, 429, 500,
 *   502, 503 or 504, or that got no answer (connection refused or reset, DNS, per-attempt timeout);
 * - a `POST` carrying an `Idempotency-Key` (the audio upload: the client always sends one), on the
 *   same answers except 500 (a server error on an upload is most likely to happen again, and
 *   resending a whole recording for it is waste) and on no answer; the server answers a repeated
 *   key with the first upload's 202 body, so a retry never makes a second call;
 * - any other `POST` (or `PATCH`) only when the connection failed before the request could have
 *   been sent (connection refused, DNS): when the client cannot tell, it does not retry.
 *
 * A `Retry-After` header (seconds or an HTTP date) on a retried answer sets the pause instead of
 * the back-off; one asking for more than `MAX_RETRY_AFTER_MS` ends the retries at once (the
 * answer, e.g. `TooManyRequests`, is the caller's).
 */
import { HttpClient, HttpClientError, type HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Data, Duration, Effect, Schedule } from "effect"

/** Retries after the first attempt, by default. */
export const DEFAULT_MAX_RETRIES = 2
/** The time limit of one attempt (until the answer's headers), by default. */
export const DEFAULT_TIMEOUT_MS = 60_000
/** The time limit of one attempt of a request with a streamed or multipart body (an upload), by default. */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 10 * 60_000
/** The first back-off step: the first pause is drawn from 0–500 ms, then 0–1 s, 0–2 s, ... */
export const BASE_DELAY_MS = 500
/** The longest back-off step (before jitter). */
export const MAX_DELAY_MS = 8_000
/** The longest `Retry-After` the client waits for; a longer one ends the retries. */
export const MAX_RETRY_AFTER_MS = 60_000

export interface RetryOptions {
  /** Retries after the first attempt (default 2; 0 disables retries). */
  readonly maxRetries?: number | undefined
  /** Time limit of each attempt in milliseconds, until the answer's headers arrive (default 60 s). */
  readonly timeoutMs?: number | undefined
  /** Time limit of each attempt of an upload (a streamed or multipart body; default 10 minutes). */
  readonly uploadTimeoutMs?: number | undefined
}

/**
 * An attempt got no answer within its time limit: the `cause` of the `RequestError` (reason
 * `"Transport"`) the operation fails with once the retries are spent. The Promise facade rejects
 * with a `CallsightError` of tag `"Timeout"`.
 */
export class RequestTimeout extends Data.TaggedError("RequestTimeout")<{
  readonly message: string
  /** The time limit of the attempt. */
  readonly timeout_ms: number
}> {}

/** Whether an error of an operation is a timed-out request (`RequestError` caused by `RequestTimeout`). */
export const isRequestTimeout = (error: unknown): error is HttpClientError.RequestError & { readonly cause: RequestTimeout } =>
  HttpClientError.isHttpClientError(error) && error._tag === "RequestError" && error.cause instanceof RequestTimeout

/** How safe a request is to send again. */
type Safety = "idempotent" | "keyed" | "unsafe"

const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"])

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key"

const safetyOf = (request: HttpClientRequest.HttpClientRequest): Safety =>
  IDEMPOTENT_METHODS.has(request.method)
    ? "idempotent"
    : (request.headers[IDEMPOTENCY_KEY_HEADER] ?? "") !== ""
    ? "keyed"
    : "unsafe"

const isUpload = (request: HttpClientRequest.HttpClientRequest): boolean =>
  request.body._tag === "Stream" || request.body._tag === "FormData"

/** Answers worth another attempt: the request was refused for now, or a gateway failed. */
const RETRIED_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504])

/**
 * Error codes of a connection that failed before anything was sent (Node.js and undici): a request
 * that is not idempotent may be retried after these only.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT"
])

const errorCodes = (error: unknown): Array<string> => {
  const codes: Array<string> = []
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === "string") codes.push(code)
  }
  return codes
}

/** A response to retry, carried as a failure through `Effect.retry` and answered as it is after the last attempt. */
class RetriedResponse {
  constructor(readonly response: HttpClientResponse.HttpClientResponse) {}
}

type AttemptError = HttpClientError.HttpClientError | RetriedResponse

/**
 * The pause a `Retry-After` value asks for, in milliseconds (`undefined` without a valid one):
 * delay-seconds (`"120"`) or an HTTP date.
 */
export const retryAfterMs = (value: string | undefined, now: number = Date.now()): number | undefined => {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

const retryAfterOf = (error: AttemptError): number | undefined =>
  error instanceof RetriedResponse ? retryAfterMs(error.response.headers["retry-after"]) : undefined

const retryable = (safety: Safety) => (error: AttemptError): boolean => {
  if (error instanceof RetriedResponse) {
    const after = retryAfterOf(error)
    return after === undefined || after <= MAX_RETRY_AFTER_MS
  }
  if (error._tag !== "RequestError" || error.reason !== "Transport") return false
  if (safety !== "unsafe") return true
  // not idempotent: only when the request cannot have reached the server
  return !(error.cause instanceof RequestTimeout) && errorCodes(error.cause).some((code) => NOT_SENT_CODES.has(code))
}

const retriedStatus = (safety: Safety, status: number): boolean =>
  safety !== "unsafe" && (RETRIED_STATUSES.has(status) || (status === 500 && safety === "idempotent"))

/**
 * The pauses between attempts: exponential from `BASE_DELAY_MS` (doubling, at most `MAX_DELAY_MS`)
 * with full jitter (a random pause between 0 and the step), at most `maxRetries` of them, while the
 * failure is retryable; a `Retry-After` replaces the drawn pause.
 */
export const retrySchedule = (maxRetries: number, safety: Safety) =>
  Schedule.exponential(Duration.millis(BASE_DELAY_MS), 2).pipe(
    Schedule.union(Schedule.spaced(Duration.millis(MAX_DELAY_MS))),
    Schedule.jitteredWith({ min: 0, max: 1 }),
    Schedule.intersect(Schedule.recurs(maxRetries)),
    Schedule.intersect(Schedule.identity<AttemptError>()),
    Schedule.whileInput(retryable(safety)),
    Schedule.modifyDelay(([, error], delay) => {
      const after = retryAfterOf(error)
      return after === undefined ? delay : Duration.millis(after)
    })
  )

const formatMs = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`)

const positive = (value: number | undefined, fallback: number): number =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback

/**
 * The client with retries and per-attempt time limits (see the module's comment). Each attempt is
 * the same request: the same headers (an `Idempotency-Key` included) and the same body, which is
 * read again from its source (a stream body must be re-runnable).
 */
export const resilient = (client: HttpClient.HttpClient, options: RetryOptions = {}): HttpClient.HttpClient => {
  const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? DEFAULT_MAX_RETRIES))
  const timeoutMs = positive(options.timeoutMs, DEFAULT_TIMEOUT_MS)
  const uploadTimeoutMs = positive(options.uploadTimeoutMs, DEFAULT_UPLOAD_TIMEOUT_MS)
  return HttpClient.transform(client, (effect, request) => {
    const limit = isUpload(request) ? uploadTimeoutMs : timeoutMs
    const safety = safetyOf(request)
    const attempt: Effect.Effect<HttpClientResponse.HttpClientResponse, AttemptError> = effect.pipe(
      Effect.timeoutFail({
        duration: Duration.millis(limit),
        onTimeout: () =>
          new HttpClientError.RequestError({
            request,
            reason: "Transport",
            cause: new RequestTimeout({ message: `no answer within ${formatMs(limit)}`, timeout_ms: limit }),
            description: `no answer within ${formatMs(limit)}`
          })
      }),
      Effect.flatMap((response) =>
        retriedStatus(safety, response.status) ? Effect.fail(new RetriedResponse(response)) : Effect.succeed(response)
      )
    )
    if (maxRetries === 0) return attempt.pipe(Effect.catchIf(isRetried, (e) => Effect.succeed(e.response)))
    return attempt.pipe(
      Effect.retry(retrySchedule(maxRetries, safety)),
      Effect.catchIf(isRetried, (e) => Effect.succeed(e.response))
    )
  })
}

const isRetried = (e: AttemptError): e is RetriedResponse => e instanceof RetriedResponse
