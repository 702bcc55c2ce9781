/**
 * Audio analysis helpers of the client (docs/domain.md, "Audio analysis for agents"): the multipart
 * upload from a path, a `Blob`/`File` or bytes, and the polling of an analysis until it ends.
 *
 * The upload body is built here as a stream (the form fields, then the file, read from disk in
 * chunks for a path) so that a file is never held in memory whole and its progress can be
 * reported as the HTTP client pulls it. The request itself still goes through the client derived
 * from the declaration, so its answers and typed errors are decoded exactly like every other
 * operation's.
 */
import type { AnalysisNotice as AnalysisNoticeSchema, AnalysisStatusResponse, CallTypeName, RepChannelSetting } from "@callsight/api-spec"
import { Chunk, Data, Duration, Effect, Stream } from "effect"

// ---------------------------------------------------------------------------------------------
// What can be uploaded
// ---------------------------------------------------------------------------------------------

/**
 * A recording to upload:
 * - a path (`string`, or a `file:` `URL`): streamed from disk (Node.js);
 * - a `Blob` or `File` (a `File`'s name is the filename sent);
 * - bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`), sent as they are.
 */
export type AudioSource = string | URL | Blob | Uint8Array | ArrayBuffer

export interface UploadProgress {
  /** Bytes of the request body handed to the HTTP client so far. */
  readonly sent: number
  /** Bytes of the whole request body (the file and the form around it). */
  readonly total: number
}

export interface UploadAudioOptions {
  /** `external_call_id`: your own id of the call (at most 200 characters). */
  readonly externalCallId?: string | undefined
  /** `closer_email`: the e-mail of the closer (rep) on the call. */
  readonly closerEmail?: string | undefined
  /**
   * `call_type`: the type of the call when you know it (`cold_call`, `discovery`, `demo`,
   * `negotiation`, `renewal`, `support_upsell`); it wins over the type detected from the words and
   * weighs the scorecard's dimensions.
   */
  readonly callType?: typeof CallTypeName.Type | undefined
  /**
   * `rep_channel`: for a stereo recording, the channel that carries the rep (`left`, `right`, or
   * `auto`: decided from the call); unset, the tenant's default (`auto` unless set).
   */
  readonly repChannel?: typeof RepChannelSetting.Type | undefined
  /** `account`: the buyer's company, a domain (`acme.com`) or a name (docs/deals.md). */
  readonly account?: string | undefined
  /** `deal_id`: the deal's id in your system or CRM; calls with the same one are one deal (at most 200 characters). */
  readonly dealId?: string | undefined
  /** `meeting_at`: when the meeting took place (ISO-8601 with its offset, or a `Date`); unset, the upload time. */
  readonly meetingAt?: string | Date | undefined
  /** `attendees`: the meeting's attendees' e-mail addresses (at most 50), sent as the field repeated. */
  readonly attendees?: ReadonlyArray<string> | undefined
  /**
   * `Idempotency-Key` (1–255 characters): the same key and the same file within 24 h answer the
   * first upload's 202 body again, without a new call; the key with another file is `Conflict` (409).
   * Without one, the client draws a random UUID for this upload: its retries all send it, so a
   * retry never makes a second call. Give your own (e.g. your CRM's call id) to make uploads of
   * separate runs of your code idempotent too.
   */
  readonly idempotencyKey?: string | undefined
  /** The file name sent with the file (default: the path's or the `File`'s name, else `audio`). */
  readonly filename?: string | undefined
  /**
   * Called as the body is sent (a few times per 64 KiB at most, and once at the end); a retried
   * upload starts again from `sent: 0`.
   */
  readonly onProgress?: ((progress: UploadProgress) => void) | undefined
}

/** The file could not be read: no such file, a directory, no `node:fs` in this runtime, ... */
export class AudioSourceError extends Data.TaggedError("AudioSourceError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** An audio file opened for the upload: its size, its name and its bytes as a stream. */
export interface OpenedAudio {
  readonly filename: string
  readonly contentType: string
  readonly size: number
  readonly content: Stream.Stream<Uint8Array, AudioSourceError>
  /** The source itself when it is a `Blob` (a browser's `File`): sent whole, not streamed. */
  readonly blob?: Blob | undefined
}

const CHUNK = 64 * 1024

const CONTENT_TYPES: Record<string, string> = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  mp4: "audio/mp4",
  aac: "audio/aac",
  ogg: "audio/ogg",
  webm: "audio/webm",
  flac: "audio/flac"
}

const contentTypeOf = (filename: string, given?: string): string => {
  if (given !== undefined && given !== "") return given
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase()
  return (ext !== undefined ? CONTENT_TYPES[ext] : undefined) ?? "application/octet-stream"
}

const baseName = (path: string): string => path.split(/[\\/]/).filter((s) => s !== "").at(-1) ?? "audio"

/**
 * Bytes in slices of at most 64 KiB (views, not copies), so that progress moves steadily; from
 * the start each time the stream runs (a retried upload sends the bytes again).
 */
const slices = (bytes: Uint8Array): Stream.Stream<Uint8Array> =>
  Stream.suspend(() =>
    Stream.fromIterable(
      (function* () {
        for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, Math.min(at + CHUNK, bytes.length))
      })()
    )
  )

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** Opens a file for streaming with `node:fs` (imported on first use, so browsers never load it). */
const openPath = (path: string | URL, filename: string | undefined): Effect.Effect<OpenedAudio, AudioSourceError> =>
  Effect.gen(function* () {
    const shown = typeof path === "string" ? path : path.href
    const fs = yield* Effect.tryPromise({
      try: () => import("node:fs"),
      catch: (cause) => new AudioSourceError({ message: `cannot read ${shown}: no file system in this runtime`, cause })
    })
    const stats = yield* Effect.tryPromise({
      try: () => fs.promises.stat(path),
      catch: (cause) =>
        new AudioSourceError({
          message: (cause as { code?: unknown }).code === "ENOENT" ? `no such file: ${shown}` : `cannot read ${shown}: ${describe(cause)}`,
          cause
        })
    })
    if (!stats.isFile()) return yield* new AudioSourceError({ message: `not a file: ${shown}` })
    const name = filename ?? baseName(typeof path === "string" ? path : decodeURIComponent(path.pathname))
    return {
      filename: name,
      contentType: contentTypeOf(name),
      size: stats.size,
      // the file is opened each time the stream runs: a retried upload reads it again from the start
      content: Stream.suspend(() =>
        Stream.fromAsyncIterable(
          fs.createReadStream(path, { highWaterMark: CHUNK }) as AsyncIterable<Uint8Array>,
          (cause) => new AudioSourceError({ message: `cannot read ${shown}: ${describe(cause)}`, cause })
        )
      )
    }
  })

/** An `AudioSource` ready to stream. */
export const openAudio = (
  source: AudioSource,
  filename?: string
): Effect.Effect<OpenedAudio, AudioSourceError> => {
  if (typeof source === "string" || source instanceof URL) return openPath(source, filename)
  if (typeof Blob !== "undefined" && source instanceof Blob) {
    const name = filename ?? (typeof (source as { name?: unknown }).name === "string" && (source as File).name !== ""
      ? (source as File).name
      : "audio")
    return Effect.succeed({
      filename: name,
      contentType: contentTypeOf(name, source.type),
      size: source.size,
      blob: source,
      content: Stream.fromReadableStream({
        evaluate: () => source.stream() as ReadableStream<Uint8Array>,
        onError: (cause) => new AudioSourceError({ message: `cannot read the Blob: ${describe(cause)}`, cause })
      })
    })
  }
  const bytes = source instanceof Uint8Array ? source : source instanceof ArrayBuffer ? new Uint8Array(source) : undefined
  if (bytes === undefined) {
    return Effect.fail(new AudioSourceError({ message: "not an audio source: expected a path, a Blob or bytes" }))
  }
  const name = filename ?? "audio"
  return Effect.succeed({ filename: name, contentType: contentTypeOf(name), size: bytes.length, content: slices(bytes) })
}

// ---------------------------------------------------------------------------------------------
// The multipart body
// ---------------------------------------------------------------------------------------------

const encoder = new TextEncoder()

/** A quoted-string parameter value as browsers write it in `Content-Disposition`. */
const quoted = (value: string): string => value.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")

export interface MultipartBody {
  readonly contentType: string
  readonly length: number
  readonly stream: Stream.Stream<Uint8Array, AudioSourceError>
  /** What comes before the file's bytes (the text fields, the file part's headers), and after them. */
  readonly head: Uint8Array
  readonly tail: Uint8Array
}

/**
 * `multipart/form-data` with the text fields first, then the file part `audio`. `onProgress`
 * sees the bytes as the consumer pulls them.
 */
export const multipartBody = (
  audio: OpenedAudio,
  fields: ReadonlyArray<readonly [string, string]>,
  onProgress?: (progress: UploadProgress) => void
): MultipartBody => {
  const boundary = `----callsight${Array.from({ length: 24 }, () => Math.floor(Math.random() * 36).toString(36)).join("")}`
  const head = encoder.encode(
    fields
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`)
      .join("") +
      `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="${quoted(audio.filename)}"\r\n` +
      `Content-Type: ${audio.contentType}\r\n\r\n`
  )
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`)
  const length = head.length + audio.size + tail.length
  const whole: Stream.Stream<Uint8Array, AudioSourceError> = Stream.concatAll(
    Chunk.make(Stream.make(head), audio.content, Stream.make(tail))
  )
  let stream = whole
  if (onProgress !== undefined) {
    stream = Stream.suspend(() => {
      let sent = 0
      return whole.pipe(
        Stream.tap((bytes) =>
          Effect.sync(() => {
            sent += bytes.length
            onProgress({ sent, total: Math.max(length, sent) })
          })
        )
      )
    })
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, length, stream, head, tail }
}

/** The text fields of an upload, in the order they are sent. */
export const uploadFields = (options: UploadAudioOptions): Array<readonly [string, string]> => {
  const fields: Array<readonly [string, string]> = []
  if (options.externalCallId !== undefined) fields.push(["external_call_id", options.externalCallId])
  if (options.closerEmail !== undefined) fields.push(["closer_email", options.closerEmail])
  if (options.callType !== undefined) fields.push(["call_type", options.callType])
  if (options.repChannel !== undefined) fields.push(["rep_channel", options.repChannel])
  if (options.account !== undefined) fields.push(["account", options.account])
  if (options.dealId !== undefined) fields.push(["deal_id", options.dealId])
  if (options.meetingAt !== undefined) {
    fields.push(["meeting_at", typeof options.meetingAt === "string" ? options.meetingAt : options.meetingAt.toISOString()])
  }
  for (const attendee of options.attendees ?? []) fields.push(["attendees", attendee])
  return fields
}

// ---------------------------------------------------------------------------------------------
// Waiting for an analysis
// ---------------------------------------------------------------------------------------------

export type AnalysisStatus = typeof AnalysisStatusResponse.Type

/**
 * What an analysis misses and how to get it, in `notices` of the upload's answer and of the status
 * (absent when there is nothing to say): `no_transcriber`, no speech-to-text provider for the tenant.
 */
export type AnalysisNotice = typeof AnalysisNoticeSchema.Type

export interface WaitForCompletionOptions {
  /** Give up after this long (default 10 minutes): the wait fails with `WaitTimeout`. */
  readonly timeoutMs?: number | undefined
  /** The first pause between two polls (default 500 ms); each pause is 1.5 times the previous one. */
  readonly intervalMs?: number | undefined
  /** The longest pause between two polls (default 5 s). */
  readonly maxIntervalMs?: number | undefined
  /** Called with every status read, the last one included. */
  readonly onStatus?: ((status: AnalysisStatus) => void) | undefined
}

export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60 * 1000

/** The analysis did not end (`completed` or `failed`) within the time limit. */
export class WaitTimeout extends Data.TaggedError("WaitTimeout")<{
  readonly message: string
  readonly call_id: string
  readonly timeout_ms: number
  /** The last status read, if any. */
  readonly last: AnalysisStatus | undefined
}> {}

export const isTerminal = (status: AnalysisStatus): boolean =>
  status.status === "completed" || status.status === "failed"

/** Failures of a poll worth another try before the time limit: no answer, 429, 502–504. */
const isTransient = (error: unknown): boolean => {
  const e = error as { _tag?: unknown; reason?: unknown; response?: { status?: unknown } }
  if (e?._tag === "RequestError") return e.reason === "Transport"
  if (e?._tag === "ServiceUnavailable" || e?._tag === "TooManyRequests") return true
  if (e?._tag === "ResponseError") {
    const status = e.response?.status
    return status === 502 || status === 503 || status === 504
  }
  return false
}

/**
 * Polls `getAnalysis` until the status is `completed` or `failed` and succeeds with that status
 * (a failed analysis is an answer, not an error: read its `error.code`). Pauses grow from
 * `intervalMs` by half each time up to `maxIntervalMs`; transient failures (no answer, 429, 503)
 * are retried within the time limit; after `timeoutMs` it fails with `WaitTimeout`.
 */
export const waitForCompletion = <E>(
  getAnalysis: (callId: string) => Effect.Effect<AnalysisStatus, E>,
  callId: string,
  options: WaitForCompletionOptions = {}
): Effect.Effect<AnalysisStatus, E | WaitTimeout> =>
  Effect.suspend(() => {
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS
    const maxInterval = Math.max(1, options.maxIntervalMs ?? 5_000)
    let interval = Math.min(Math.max(1, options.intervalMs ?? 500), maxInterval)
    let last: AnalysisStatus | undefined
    const pause = () =>
      Effect.suspend(() => {
        const ms = interval
        interval = Math.min(interval * 1.5, maxInterval)
        return Effect.sleep(Duration.millis(ms))
      })
    const poll: Effect.Effect<AnalysisStatus, E> = getAnalysis(callId).pipe(
      Effect.catchIf(isTransient, () => Effect.zipRight(pause(), Effect.suspend(() => poll)))
    )
    const loop: Effect.Effect<AnalysisStatus, E> = Effect.flatMap(poll, (status) => {
      last = status
      options.onStatus?.(status)
      return isTerminal(status) ? Effect.succeed(status) : Effect.zipRight(pause(), Effect.suspend(() => loop))
    })
    return loop.pipe(
      Effect.timeoutFail({
        duration: Duration.millis(timeoutMs),
        onTimeout: () =>
          new WaitTimeout({
            message: `the analysis of ${callId} did not end within ${formatMs(timeoutMs)}` +
              (last === undefined ? "" : ` (last seen: ${last.status}, stage ${last.stage})`),
            call_id: callId,
            timeout_ms: timeoutMs,
            last
          })
      })
    )
  })

const formatMs = (ms: number): string =>
  ms % 60_000 === 0 ? `${ms / 60_000} min` : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
