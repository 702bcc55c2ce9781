/**
 * Deepgram pre-recorded transcription: `POST {base}/v1/listen` with the audio as the raw body
 * (streamed from disk, `Content-Type: audio/*`), `Authorization: Token KEY`, and
 * `diarize`, `utterances`, `punctuate`, `smart_format` in the query. The words are in
 * `results.channels[0].alternatives[0].words`, each with its time in seconds, its confidence, its
 * speaker (a number) and, with punctuation on, `punctuated_word`.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, Schema } from "effect"
import type { AudioFormat, Transcript, Word } from "@callsight/analysis"
import { audioContentType, fileBody, type RequestPolicy, requestJson, resolvePolicy, trimBaseUrl } from "./ProviderHttp.js"
import type { TranscriberService } from "./Transcriber.js"

export const DEEPGRAM_BASE_URL = "https://api.deepgram.com"
export const DEEPGRAM_DEFAULT_MODEL = "nova-3"

export interface DeepgramSettings extends RequestPolicy {
  readonly apiKey: Redacted.Redacted<string>
  /** Default https://api.deepgram.com (a self-hosted Deepgram, or a test server). */
  readonly baseUrl?: string | undefined
  /** Default nova-3. */
  readonly model?: string | undefined
  /** A BCP-47 language; when absent Deepgram detects it (`detect_language=true`). */
  readonly language?: string | undefined
}

const DeepgramWord = Schema.Struct({
  word: Schema.String,
  start: Schema.Number,
  end: Schema.Number,
  confidence: Schema.Number,
  speaker: Schema.optional(Schema.NullOr(Schema.Number)),
  punctuated_word: Schema.optional(Schema.NullOr(Schema.String))
})

/** The parts of Deepgram's `/v1/listen` answer we read (others are ignored). */
export const DeepgramResponse = Schema.Struct({
  results: Schema.Struct({
    channels: Schema.Array(
      Schema.Struct({
        detected_language: Schema.optional(Schema.NullOr(Schema.String)),
        alternatives: Schema.Array(Schema.Struct({ words: Schema.Array(DeepgramWord) }))
      })
    )
  })
})

export const deepgramWords = (answer: typeof DeepgramResponse.Type): ReadonlyArray<Word> =>
  (answer.results.channels[0]?.alternatives[0]?.words ?? []).map((w) => ({
    text: w.punctuated_word ?? w.word,
    start: w.start,
    end: w.end,
    speaker: w.speaker == null ? undefined : String(w.speaker),
    confidence: w.confidence
  }))

export const makeDeepgram = (settings: DeepgramSettings): Effect.Effect<TranscriberService, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = HttpClient.withTracerPropagation(yield* HttpClient.HttpClient, false)
    const policy = resolvePolicy(settings)
    const baseUrl = trimBaseUrl(settings.baseUrl ?? DEEPGRAM_BASE_URL)
    const model = settings.model ?? DEEPGRAM_DEFAULT_MODEL
    const params: Record<string, string> = {
      model,
      diarize: "true",
      utterances: "true",
      punctuate: "true",
      smart_format: "true",
      ...(settings.language !== undefined ? { language: settings.language } : { detect_language: "true" })
    }

    const transcribe = (path: string, format: AudioFormat): Effect.Effect<Transcript, import("./ProviderHttp.js").TranscriptionFailed> =>
      Effect.gen(function* () {
        const answer = yield* requestJson({
          client,
          provider: "deepgram",
          policy,
          what: "transcription request",
          schema: DeepgramResponse,
          apiKey: settings.apiKey,
          build: Effect.map(fileBody("deepgram", path), ({ size, stream }) =>
            HttpClientRequest.post(`${baseUrl}/v1/listen`).pipe(
              HttpClientRequest.setUrlParams(params),
              HttpClientRequest.setHeader("authorization", `Token ${Redacted.value(settings.apiKey)}`),
              HttpClientRequest.acceptJson,
              HttpClientRequest.bodyStream(stream, { contentType: audioContentType(format), contentLength: size })
            ))
        })
        return {
          provider: "deepgram" as const,
          model,
          language: answer.results.channels[0]?.detected_language ?? settings.language ?? null,
          words: deepgramWords(answer)
        }
      }).pipe(Effect.withSpan("Transcriber.deepgram", { attributes: { model } }))

    return { provider: "deepgram", model, transcribe } satisfies TranscriberService
  })
