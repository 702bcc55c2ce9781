/**
 * What the three speech-to-text adapters share: the failure they all end in, how a request is sent
 * (lib/ProviderRequests.ts: an overall time limit, retries with exponential back-off on 429, 5xx
 * and transport errors, `Retry-After` honoured), and how an audio file is streamed from disk
 * without being read into memory. The adapters only say where to send what and how to read the answer.
 */
import type { HttpClient, HttpClientRequest } from "@effect/platform"
import * as NodeStream from "@effect/platform-node/NodeStream"
import { Data, Duration, Effect, type Redacted, type Schema, type Stream } from "effect"
import { createReadStream, openAsBlob } from "node:fs"
import { stat } from "node:fs/promises"
import type { AudioFormat } from "@callsight/analysis"
import {
  describeCause,
  type Policy,
  type RequestPolicy,
  requestJson as sendJson,
  resolvePolicy as resolveWith
} from "../lib/ProviderRequests.js"

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

export type { RequestPolicy } from "../lib/ProviderRequests.js"
export { trimBaseUrl } from "../lib/ProviderRequests.js"

export const DEFAULT_TIMEOUT = Duration.minutes(10)

/** The policy of a speech-to-text request: 10 minutes in all, waits of at most 60 s. */
export const resolvePolicy = (p: RequestPolicy): Policy => resolveWith(p, { timeout: DEFAULT_TIMEOUT, maxRetryDelay: Duration.seconds(60) })

export const audioContentType = (format: AudioFormat): string =>
  format === "mp3" ? "audio/mpeg" : format === "wav" ? "audio/wav" : "audio/mp4"

/**
 * Sends one request to a provider and decodes its JSON answer with `schema` (lib/ProviderRequests.ts:
 * retries on 429, 5xx and transport errors, bounded by `timeout`); `build` runs again for each
 * attempt, so a file body is re-opened.
 */
export const requestJson = <A, I>(options: {
  readonly client: HttpClient.HttpClient
  readonly provider: ProviderName
  readonly policy: Policy
  /** What is being done, for messages ("upload", "transcription request", ...). */
  readonly what: string
  readonly build: Effect.Effect<HttpClientRequest.HttpClientRequest, TranscriptionFailed>
  readonly schema: Schema.Schema<A, I>
  /**
   * The key, blanked out of every message and log line (lib/ProviderRequests.ts blanks what the
   * request's credential headers carry too, given or not).
   */
  readonly apiKey?: Redacted.Redacted<string> | undefined
}): Effect.Effect<A, TranscriptionFailed> =>
  sendJson({ ...options, name: DISPLAY[options.provider], annotations: { provider: options.provider } }).pipe(
    Effect.catchTag("ProviderFailure", (e) =>
      Effect.fail(new TranscriptionFailed({ provider: options.provider, status: e.status, message: e.message })))
  )

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
