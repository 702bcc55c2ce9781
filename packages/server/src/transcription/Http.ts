/**
 * What the three speech-to-text adapters share: the failure they all end in, how a request is sent
 * (an overall time limit, retries with exponential back-off on 429, 5xx and transport errors,
 * `Retry-After` honoured), and how an audio file is streamed from disk without being read into
 * memory. The adapters themselves only say where to send what and how to read the answer.
 */
import type { HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import * as NodeStream from "@effect/platform-node/NodeStream"
import { Data, Duration, Effect, ParseResult, Schema, type Stream } from "effect"
import { createReadStream, openAsBlob } from "node:fs"
import { stat } from "node:fs/promises"
import type { AudioFormat } from "../analysis/Types.js"

export type ProviderName = "deepgram" | "assemblyai" | "openai"

const DISPLAY: Record<ProviderName, string> = { deepgram: "Deepgram", assemblyai: "AssemblyAI", openai: "OpenAI" }

/**
 * A speech-to-text provider could not transcribe the call: unreachable, timed out, refused the key,
 * rejected the file, or answered something we cannot read. The analysis ends `failed` with
 * `error.code = "transcription_failed"` (no credit is used; it can be retried).
 */
export class TranscriptionFailed extends Data.TaggedError("TranscriptionFailed")<{
  readonly provider: ProviderName
  /** The provider's HTTP status, when it answered with one. */
  readonly status?: number | undefined
  readonly message: string
}> {
  /** The analysis's `error.code` for this failure. */
  readonly code = "transcription_failed" as const
}

/** How each request to a provider is sent. */
export interface RequestPolicy {
  /** The longest one request may take, retries and waits included (then TranscriptionFailed). */
  readonly timeout?: Duration.DurationInput | undefined
  /** Retries after the first attempt, on 429, 5xx and transport errors (default 3). */
  readonly maxRetries?: number | undefined
  /** The first back-off; it doubles on each retry (default 1 s). */
  readonly retryBaseDelay?: Duration.DurationInput | undefined
  /** The longest single wait, `Retry-After` included (default 60 s). */
  readonly maxRetryDelay?: Duration.DurationInput | undefined
}

export const DEFAULT_TIMEOUT = Duration.minutes(10)

interface Policy {
  readonly timeout: Duration.Duration
  readonly maxRetries: number
  readonly retryBaseDelay: Duration.Duration
  readonly maxRetryDelay: Duration.Duration
}

export const resolvePolicy = (p: RequestPolicy): Policy => ({
  timeout: Duration.decode(p.timeout ?? DEFAULT_TIMEOUT),
  maxRetries: Math.max(0, Math.floor(p.maxRetries ?? 3)),
  retryBaseDelay: Duration.decode(p.retryBaseDelay ?? Duration.seconds(1)),
  maxRetryDelay: Duration.decode(p.maxRetryDelay ?? Duration.seconds(60))
})

/** A failure worth another attempt (429, 5xx, the connection). */
class Retryable extends Data.TaggedError("Retryable")<{
  readonly status?: number | undefined
  readonly detail: string
  readonly retryAfter?: Duration.Duration | undefined
}> {}

/** A failure another attempt would not cure. */
class Fatal extends Data.TaggedError("Fatal")<{ readonly status?: number | undefined; readonly message: string }> {}

/** Base URLs are kept without a trailing slash. */
export const trimBaseUrl = (url: string) => url.replace(/\/+$/, "")

export const audioContentType = (format: AudioFormat): string =>
  format === "mp3" ? "audio/mpeg" : format === "wav" ? "audio/wav" : "audio/mp4"

/** The provider's own words for what went wrong, from the usual error shapes, kept short. */
const errorDetail = (text: string): string => {
  let detail = text.trim()
  try {
    const body = JSON.parse(text) as any
    const candidates = [body?.err_msg, body?.error?.message, body?.error, body?.message, body?.detail, body?.reason]
    const found = candidates.find((c) => typeof c === "string" && c.length > 0)
    if (found !== undefined) detail = found
  } catch {
    // not JSON: the text itself
  }
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

const describeCause = (cause: unknown): string => {
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
 * Sends one request to a provider and decodes its JSON answer with `schema`, retrying with
 * exponential back-off (`retryBaseDelay` × 2^n, at least `Retry-After`, at most `maxRetryDelay`) on
 * 429, 5xx and transport errors, failing at once on other 4xx. The whole exchange, waits included,
 * is bounded by `timeout`. `build` runs again for each attempt, so a file body is re-opened.
 */
export const requestJson = <A, I>(options: {
  readonly client: HttpClient.HttpClient
  readonly provider: ProviderName
  readonly policy: Policy
  /** What is being done, for messages ("upload", "transcription request", ...). */
  readonly what: string
  readonly build: Effect.Effect<HttpClientRequest.HttpClientRequest, TranscriptionFailed>
  readonly schema: Schema.Schema<A, I>
}): Effect.Effect<A, TranscriptionFailed> => {
  const { client, provider, policy, what, schema } = options
  const name = DISPLAY[provider]
  const decode = Schema.decodeUnknown(schema)

  const readAnswer = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<A, Retryable | Fatal> => {
    if (response.status >= 200 && response.status < 300) {
      return response.text.pipe(
        Effect.mapError((e) => new Retryable({ detail: `the answer was cut off: ${describeCause(e.cause ?? e)}` })),
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
                  ParseResult.TreeFormatter.formatErrorSync(error).split("\n").slice(0, 6).join(" ")
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
        const detail = errorDetail(text)
        const suffix = detail === "" ? "" : `: ${detail}`
        if (status === 429 || status >= 500) {
          return Effect.fail(new Retryable({ status, detail, retryAfter: retryAfter(response.headers["retry-after"]) }))
        }
        if (status === 401) {
          return Effect.fail(new Fatal({ status, message: `${name} refused the API key (HTTP 401)${suffix}` }))
        }
        if (status === 403) {
          return Effect.fail(new Fatal({ status, message: `${name} denied access with this API key (HTTP 403)${suffix}` }))
        }
        return Effect.fail(new Fatal({ status, message: `${name} rejected the ${what} (HTTP ${status})${suffix}` }))
      })
    )
  }

  const attempt: Effect.Effect<A, Retryable | Fatal | TranscriptionFailed> = Effect.gen(function* () {
    const request = yield* options.build
    const response = yield* client.execute(request).pipe(
      Effect.mapError((e) => new Retryable({ detail: describeCause(e.cause ?? e) }))
    )
    return yield* readAnswer(response)
  })

  const delayFor = (retry: number, error: Retryable): Duration.Duration => {
    const backoff = Duration.times(policy.retryBaseDelay, 2 ** retry)
    const wanted = error.retryAfter !== undefined ? Duration.max(backoff, error.retryAfter) : backoff
    return Duration.min(wanted, policy.maxRetryDelay)
  }

  const withRetries = (retry: number): Effect.Effect<A, Retryable | Fatal | TranscriptionFailed> =>
    attempt.pipe(
      Effect.catchTag("Retryable", (error) => {
        if (retry >= policy.maxRetries) return Effect.fail(error)
        const delay = delayFor(retry, error)
        return Effect.logWarning(`${name} ${what} failed; retrying`).pipe(
          Effect.annotateLogs({
            provider,
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
  return withRetries(0).pipe(
    Effect.catchTags({
      Retryable: (e) =>
        Effect.fail(
          new TranscriptionFailed({
            provider,
            status: e.status,
            message: e.status === undefined
              ? `could not reach ${name} for the ${what} after ${attempts} attempt(s): ${e.detail}`
              : `${name} failed the ${what} (HTTP ${e.status}) after ${attempts} attempt(s)${e.detail === "" ? "" : `: ${e.detail}`}`
          })
        ),
      Fatal: (e) => Effect.fail(new TranscriptionFailed({ provider, status: e.status, message: e.message }))
    }),
    Effect.timeoutFail({
      duration: policy.timeout,
      onTimeout: () =>
        new TranscriptionFailed({
          provider,
          message: `${name} did not answer the ${what} within ${Duration.format(policy.timeout)}`
        })
    })
  )
}

/** The audio file as a byte stream read from disk as it is sent (re-opened on each run), and its size. */
export const fileBody = (
  provider: ProviderName,
  path: string
): Effect.Effect<{ readonly stream: Stream.Stream<Uint8Array, unknown>; readonly size: number }, TranscriptionFailed> =>
  Effect.tryPromise({
    try: () => stat(path),
    catch: (cause) => new TranscriptionFailed({ provider, message: `cannot read the audio file: ${describeCause(cause)}` })
  }).pipe(
    Effect.map((s) => ({
      size: s.size,
      stream: NodeStream.fromReadable<unknown, Uint8Array>(
        () => createReadStream(path, { highWaterMark: 256 * 1024 }),
        (error) => error
      )
    }))
  )

/** The audio file as a Blob backed by the file (read lazily while a multipart body is sent). */
export const fileBlob = (provider: ProviderName, path: string, format: AudioFormat): Effect.Effect<Blob, TranscriptionFailed> =>
  Effect.tryPromise({
    try: () => openAsBlob(path, { type: audioContentType(format) }),
    catch: (cause) => new TranscriptionFailed({ provider, message: `cannot read the audio file: ${describeCause(cause)}` })
  })

/** Seconds to the millisecond (times we compute ourselves, e.g. words spread over a segment). */
export const round3 = (seconds: number) => Math.round(seconds * 1000) / 1000
