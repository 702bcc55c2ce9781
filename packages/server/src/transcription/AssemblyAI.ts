/**
 * AssemblyAI (API v2), in three steps: `POST {base}/v2/upload` with the audio as the raw body
 * (streamed from disk), then `POST {base}/v2/transcript` with the `upload_url` it answered and
 * `speaker_labels`, then `GET {base}/v2/transcript/{id}` every `pollInterval` until the transcript
 * is `completed` (or `error`). The key goes bare in `Authorization` (no scheme). Word times come in
 * milliseconds and speakers as letters ("A", "B"); we convert to seconds and keep the letters.
 *
 * The policy's `timeout` bounds the whole upload + creation + polling, not only each request.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Duration, Effect, Redacted, Schema } from "effect"
import type { AudioFormat, Transcript, Word } from "@callsight/analysis"
import { fileBody, type RequestPolicy, requestJson, resolvePolicy, round3, trimBaseUrl, TranscriptionFailed } from "./ProviderHttp.js"
import { redactedExcerpt } from "../lib/Redact.js"
import type { TranscriberService } from "./Transcriber.js"

export const ASSEMBLYAI_BASE_URL = "https://api.assemblyai.com"
/**
 * Sent as `speech_models` (AssemblyAI's current parameter; the singular `speech_model` is
 * deprecated): its best model, falling back to the one that covers 99 languages. We always send
 * the list rather than rely on the provider's default, so `model` says what we asked for; the
 * transcript's `model` is the one AssemblyAI reports it used (`speech_model_used`).
 */
export const ASSEMBLYAI_DEFAULT_MODEL = "universal-3-pro,universal-2"
export const ASSEMBLYAI_DEFAULT_POLL_INTERVAL = Duration.seconds(3)

export interface AssemblyAISettings extends RequestPolicy {
  readonly apiKey: Redacted.Redacted<string>
  /** Default https://api.assemblyai.com (AssemblyAI's EU endpoint, or a test server). */
  readonly baseUrl?: string | undefined
  /** One model or a comma-separated priority list, sent as `speech_models` (default `universal-3-pro,universal-2`). */
  readonly model?: string | undefined
  /** An AssemblyAI `language_code` ("en_us", "de" ...); when absent AssemblyAI detects it (`language_detection`). */
  readonly language?: string | undefined
  /** The wait between two status requests (default 3 s). */
  readonly pollInterval?: Duration.DurationInput | undefined
}

const UploadResponse = Schema.Struct({ upload_url: Schema.String })
const CreateResponse = Schema.Struct({ id: Schema.String })

const AssemblyAIWord = Schema.Struct({
  text: Schema.String,
  /** Milliseconds. */
  start: Schema.Number,
  end: Schema.Number,
  confidence: Schema.Number,
  speaker: Schema.optional(Schema.NullOr(Schema.String))
})

/** The parts of `GET /v2/transcript/{id}` we read, by status (other fields are ignored). */
export const AssemblyAITranscript = Schema.Union(
  Schema.Struct({ status: Schema.Literal("queued", "processing") }),
  Schema.Struct({ status: Schema.Literal("error"), error: Schema.optional(Schema.NullOr(Schema.String)) }),
  Schema.Struct({
    status: Schema.Literal("completed"),
    /** Null (or empty) when no speech was heard. */
    words: Schema.NullOr(Schema.Array(AssemblyAIWord)),
    language_code: Schema.optional(Schema.NullOr(Schema.String)),
    speech_model_used: Schema.optional(Schema.NullOr(Schema.String))
  })
)

type Completed = Extract<typeof AssemblyAITranscript.Type, { readonly status: "completed" }>

export const assemblyAIWords = (answer: Completed): ReadonlyArray<Word> =>
  (answer.words ?? []).map((w) => ({
    text: w.text,
    start: round3(w.start / 1000),
    end: round3(w.end / 1000),
    speaker: w.speaker ?? undefined,
    confidence: w.confidence
  }))

export const makeAssemblyAI = (
  settings: AssemblyAISettings
): Effect.Effect<TranscriberService, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = HttpClient.withTracerPropagation(yield* HttpClient.HttpClient, false)
    const policy = resolvePolicy(settings)
    const baseUrl = trimBaseUrl(settings.baseUrl ?? ASSEMBLYAI_BASE_URL)
    const model = settings.model ?? ASSEMBLYAI_DEFAULT_MODEL
    const speechModels = model.split(",").map((m) => m.trim()).filter((m) => m !== "")
    const pollInterval = Duration.decode(settings.pollInterval ?? ASSEMBLYAI_DEFAULT_POLL_INTERVAL)

    const authorized = (request: HttpClientRequest.HttpClientRequest) =>
      request.pipe(
        HttpClientRequest.setHeader("authorization", Redacted.value(settings.apiKey)),
        HttpClientRequest.acceptJson
      )

    const send = <A, I>(
      what: string,
      schema: Schema.Schema<A, I>,
      build: Effect.Effect<HttpClientRequest.HttpClientRequest, TranscriptionFailed>
    ) => requestJson({ client, provider: "assemblyai", policy, what, schema, build: Effect.map(build, authorized), apiKey: settings.apiKey })

    /** Asks for the transcript's status until it is completed; `error` ends in TranscriptionFailed. */
    const poll = (id: string): Effect.Effect<Completed, TranscriptionFailed> => {
      const status = HttpClientRequest.get(`${baseUrl}/v2/transcript/${encodeURIComponent(id)}`)
      const next: Effect.Effect<Completed, TranscriptionFailed> = Effect.sleep(pollInterval).pipe(
        Effect.zipRight(send("transcript status request", AssemblyAITranscript, Effect.succeed(status))),
        Effect.flatMap((answer) => {
          switch (answer.status) {
            case "completed":
              return Effect.succeed(answer)
            case "error":
              // AssemblyAI's own words go to the log only (blanked), never into the call's error
              return Effect.logWarning("AssemblyAI ended the transcript in error").pipe(
                Effect.annotateLogs({ provider: "assemblyai", detail: redactedExcerpt(answer.error ?? "", [settings.apiKey]) }),
                Effect.zipRight(Effect.fail(
                  new TranscriptionFailed({
                    provider: "assemblyai",
                    message: "AssemblyAI could not transcribe the call: its transcript ended in error"
                  })
                ))
              )
            default:
              return next
          }
        })
      )
      return next
    }

    const transcribe = (path: string, _format: AudioFormat): Effect.Effect<Transcript, TranscriptionFailed> =>
      Effect.gen(function* () {
        const upload = yield* send(
          "upload",
          UploadResponse,
          Effect.map(fileBody("assemblyai", path), ({ size, stream }) =>
            HttpClientRequest.post(`${baseUrl}/v2/upload`).pipe(
              HttpClientRequest.bodyStream(stream, { contentType: "application/octet-stream", contentLength: size })
            ))
        )
        const created = yield* send(
          "transcription request",
          CreateResponse,
          Effect.succeed(
            HttpClientRequest.post(`${baseUrl}/v2/transcript`).pipe(
              HttpClientRequest.bodyUnsafeJson({
                audio_url: upload.upload_url,
                speech_models: speechModels,
                speaker_labels: true,
                punctuate: true,
                format_text: true,
                ...(settings.language !== undefined ? { language_code: settings.language } : { language_detection: true })
              })
            )
          )
        )
        const answer = yield* poll(created.id)
        return {
          provider: "assemblyai" as const,
          model: answer.speech_model_used ?? model,
          language: answer.language_code ?? settings.language ?? null,
          words: assemblyAIWords(answer)
        }
      }).pipe(
        Effect.timeoutFail({
          duration: policy.timeout,
          onTimeout: () =>
            new TranscriptionFailed({
              provider: "assemblyai",
              message: `AssemblyAI did not finish the transcription within ${Duration.format(policy.timeout)}`
            })
        }),
        Effect.withSpan("Transcriber.assemblyai", { attributes: { model } })
      )

    return { provider: "assemblyai", model, transcribe } satisfies TranscriberService
  })
