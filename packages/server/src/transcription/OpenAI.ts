/**
 * OpenAI transcription: `POST {base}/v1/audio/transcriptions`, multipart/form-data with the audio
 * as `file` (streamed from disk, with its length) and `model`, `Authorization: Bearer KEY` when there is a
 * key. Two modes, chosen by the model's name:
 *
 * - **Diarizing** (`gpt-4o-transcribe-diarize`, the default; any model whose name has `diarize`):
 *   `response_format=diarized_json` and `chunking_strategy=auto` (required for audio over 30 s).
 *   The answer is speaker segments without word times: each segment's words are spread over it in
 *   proportion to their length, with the segment's speaker.
 * - **Word timestamps** (`whisper-1`, and OpenAI-compatible self-hosted servers: faster-whisper,
 *   whisper.cpp, vLLM ...): `response_format=verbose_json` with `timestamp_granularities[]` `word`
 *   and `segment`. Words come with their times and no speaker.
 *
 * Confidence: OpenAI gives none per word. We take the word's own `probability` when a compatible
 * server sends one (faster-whisper does), else `exp(avg_logprob)` of the segment the word falls in,
 * else 1 (diarized segments carry nothing; nothing downstream filters on confidence).
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, Schema, Stream } from "effect"
import { randomUUID } from "node:crypto"
import type { AudioFormat, Transcript, Word } from "@callsight/analysis"
import { audioContentType, fileBody, type RequestPolicy, requestJson, resolvePolicy, round3, trimBaseUrl, TranscriptionFailed } from "./ProviderHttp.js"
import type { TranscriberService } from "./Transcriber.js"

export const OPENAI_BASE_URL = "https://api.openai.com"
export const OPENAI_DEFAULT_MODEL = "gpt-4o-transcribe-diarize"

/** The confidence of a word when the provider gives none. */
const NO_CONFIDENCE = 1

export interface OpenAISettings extends RequestPolicy {
  /** Absent for a self-hosted server that takes none: then no `Authorization` header is sent. */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /**
   * The server's root WITHOUT `/v1` (default https://api.openai.com; `http://localhost:8000` for
   * a self-hosted one). A trailing `/v1` is dropped, so both forms work.
   */
  readonly baseUrl?: string | undefined
  /** Default gpt-4o-transcribe-diarize. */
  readonly model?: string | undefined
  /** An ISO-639-1 language ("en"); when absent the model detects it. */
  readonly language?: string | undefined
}

/** Whether the model answers speaker segments (`diarized_json`) rather than word timestamps. */
export const isDiarizingModel = (model: string) => model.includes("diarize")

const DiarizedSegment = Schema.Struct({
  start: Schema.Number,
  end: Schema.Number,
  text: Schema.String,
  speaker: Schema.optional(Schema.NullOr(Schema.String))
})

/** The parts of a `diarized_json` answer we read. */
export const OpenAIDiarizedResponse = Schema.Struct({ segments: Schema.Array(DiarizedSegment) })

const VerboseWord = Schema.Struct({
  word: Schema.String,
  start: Schema.Number,
  end: Schema.Number,
  probability: Schema.optional(Schema.NullOr(Schema.Number))
})

const VerboseSegment = Schema.Struct({
  start: Schema.Number,
  end: Schema.Number,
  text: Schema.String,
  avg_logprob: Schema.optional(Schema.NullOr(Schema.Number)),
  /** whisper.cpp and some other servers put the words in their segment. */
  words: Schema.optional(Schema.NullOr(Schema.Array(VerboseWord)))
})

/** The parts of a `verbose_json` answer we read. */
export const OpenAIVerboseResponse = Schema.Struct({
  language: Schema.optional(Schema.NullOr(Schema.String)),
  words: Schema.optional(Schema.NullOr(Schema.Array(VerboseWord))),
  segments: Schema.optional(Schema.NullOr(Schema.Array(VerboseSegment)))
})

const tokensOf = (text: string) => text.split(/\s+/).filter((t) => t.length > 0)

/** A segment's words spread over its time in proportion to their length (no provider word times). */
export const spreadWords = (
  segment: { readonly start: number; readonly end: number; readonly text: string },
  speaker: string | undefined,
  confidence: number
): Array<Word> => {
  const tokens = tokensOf(segment.text)
  const letters = tokens.reduce((n, t) => n + t.length, 0)
  const span = Math.max(0, segment.end - segment.start)
  let at = segment.start
  return tokens.map((text) => {
    const start = at
    at += (span * text.length) / letters
    return { text, start: round3(start), end: round3(at), speaker, confidence }
  })
}

export const diarizedWords = (answer: typeof OpenAIDiarizedResponse.Type): Array<Word> =>
  answer.segments.flatMap((s) => spreadWords(s, s.speaker ?? undefined, NO_CONFIDENCE))

const bare = (text: string) => text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "").toLowerCase()

type VerboseSegmentType = typeof VerboseSegment.Type

/**
 * The words of a `verbose_json` answer. whisper-1 gives them without punctuation, which the
 * content analysis reads sentences and questions from: each word takes its written form from its
 * segment's text when that reads the same word (looked for a few tokens ahead).
 */
export const verboseWords = (answer: typeof OpenAIVerboseResponse.Type): Array<Word> => {
  const segments: ReadonlyArray<VerboseSegmentType> = answer.segments ?? []
  const words = answer.words ?? segments.flatMap((s) => s.words ?? [])
  if (words.length === 0 && answer.words == null) {
    // no word times at all (a server that ignores the granularities): the segments spread
    return segments.flatMap((s) => spreadWords(s, undefined, segmentConfidence(s)))
  }
  let segmentIndex = 0
  let current: VerboseSegmentType | undefined
  let tokens: Array<string> = []
  let tokenIndex = 0
  const result: Array<Word> = []
  for (const w of words) {
    const text = w.word.trim()
    if (text === "") continue
    const middle = (w.start + w.end) / 2
    // words come in time order, as the segments do
    while (segmentIndex < segments.length && segments[segmentIndex]!.end < middle) segmentIndex++
    const segment = segments[segmentIndex]
    const inSegment = segment !== undefined && segment.start <= middle
    if (inSegment && segment !== current) {
      current = segment
      tokens = tokensOf(segment.text)
      tokenIndex = 0
    }
    let written = text
    if (inSegment) {
      const key = bare(text)
      for (let i = tokenIndex; i < Math.min(tokens.length, tokenIndex + 4); i++) {
        if (bare(tokens[i]!) === key) {
          written = tokens[i]!
          tokenIndex = i + 1
          break
        }
      }
    }
    result.push({
      text: written,
      start: w.start,
      end: w.end,
      speaker: undefined,
      confidence: w.probability ?? (inSegment ? segmentConfidence(segment) : NO_CONFIDENCE)
    })
  }
  return result
}

const segmentConfidence = (segment: VerboseSegmentType): number =>
  segment.avg_logprob == null ? NO_CONFIDENCE : round3(Math.min(1, Math.exp(segment.avg_logprob)))

/**
 * A multipart/form-data body (RFC 7578): the text fields, then the audio file streamed from disk,
 * with its exact `Content-Length`. Not `HttpClientRequest.bodyFormData` with a file Blob: the undici
 * client we run on (`NodeHttpClient.layerUndici`, undici 7) cannot encode Node's global FormData,
 * and the platform's own encoder (`new Response(form)`) gives no length, so the body would go
 * chunked, which some self-hosted servers read as empty.
 */
const multipartBody = (
  fields: ReadonlyArray<readonly [string, string]>,
  file: { readonly name: string; readonly filename: string; readonly contentType: string },
  audio: { readonly stream: Stream.Stream<Uint8Array, unknown>; readonly size: number }
) => {
  const boundary = `----callsight-${randomUUID()}`
  const quoted = (value: string) => value.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")
  const encoder = new TextEncoder()
  const head = encoder.encode(
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`).join("") +
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; filename="${quoted(file.filename)}"\r\n` +
      `Content-Type: ${file.contentType}\r\n\r\n`
  )
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`)
  return HttpClientRequest.bodyStream(
    Stream.make(head).pipe(Stream.concat(audio.stream), Stream.concat(Stream.make(tail))),
    { contentType: `multipart/form-data; boundary=${boundary}`, contentLength: head.length + audio.size + tail.length }
  )
}

export const makeOpenAI = (settings: OpenAISettings): Effect.Effect<TranscriberService, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = HttpClient.withTracerPropagation(yield* HttpClient.HttpClient, false)
    const policy = resolvePolicy(settings)
    const baseUrl = trimBaseUrl(settings.baseUrl ?? OPENAI_BASE_URL).replace(/\/v1$/, "")
    const model = settings.model ?? OPENAI_DEFAULT_MODEL
    const diarize = isDiarizingModel(model)
    const fields: ReadonlyArray<readonly [string, string]> = [
      ["model", model],
      ...(diarize
        ? [["response_format", "diarized_json"], ["chunking_strategy", "auto"]] as const
        : [["response_format", "verbose_json"], ["timestamp_granularities[]", "word"], ["timestamp_granularities[]", "segment"]] as const),
      ...(settings.language !== undefined ? [["language", settings.language] as const] : [])
    ]

    const request = (path: string, format: AudioFormat) =>
      Effect.map(fileBody("openai", path), (audio) =>
        HttpClientRequest.post(`${baseUrl}/v1/audio/transcriptions`).pipe(
          settings.apiKey !== undefined
            ? HttpClientRequest.bearerToken(Redacted.value(settings.apiKey))
            : (r) => r,
          HttpClientRequest.acceptJson,
          multipartBody(fields, { name: "file", filename: `audio.${format}`, contentType: audioContentType(format) }, audio)
        ))

    const transcribe = (path: string, format: AudioFormat): Effect.Effect<Transcript, TranscriptionFailed> =>
      Effect.gen(function* () {
        const build = request(path, format)
        if (diarize) {
          const answer = yield* requestJson({
            client, provider: "openai", policy, what: "transcription request", schema: OpenAIDiarizedResponse, build, apiKey: settings.apiKey
          })
          return { provider: "openai" as const, model, language: settings.language ?? null, words: diarizedWords(answer) }
        }
        const answer = yield* requestJson({
          client, provider: "openai", policy, what: "transcription request", schema: OpenAIVerboseResponse, build, apiKey: settings.apiKey
        })
        if (answer.words == null && answer.segments == null) {
          return yield* new TranscriptionFailed({
            provider: "openai",
            message: `OpenAI answered the transcription request without word timestamps (${model} must support verbose_json with timestamp_granularities[]=word)`
          })
        }
        return {
          provider: "openai" as const,
          model,
          language: answer.language ?? settings.language ?? null,
          words: verboseWords(answer)
        }
      }).pipe(Effect.withSpan("Transcriber.openai", { attributes: { model } }))

    return { provider: "openai", model, transcribe } satisfies TranscriberService
  })
