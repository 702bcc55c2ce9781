/** The OpenAI adapter against a local server speaking `/v1/audio/transcriptions`, in both modes. */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel, Redacted } from "effect"
import { readFileSync, statSync } from "node:fs"
import { makeOpenAI, type OpenAISettings, verboseWords } from "../../src/transcription/OpenAI.js"
import { fixturePath, truth } from "../../../../test/utils/Fixtures.js"
import { FAST_POLICY, sha256, type SpeechProviderServer, speakerLetter, startOpenAI } from "../utils/SpeechProviders.js"
import { truthWords } from "../../../../test/utils/TruthWords.js"

const AUDIO = fixturePath("discovery-short.wav")
const AUDIO_SIZE = statSync(AUDIO).size
const AUDIO_SHA256 = sha256(readFileSync(AUDIO))
const TRUTH = truth("discovery-short")
const EXPECTED = truthWords(TRUTH)

const transcribe = (server: SpeechProviderServer, settings: Partial<OpenAISettings> = {}) =>
  makeOpenAI({ apiKey: Redacted.make("k"), baseUrl: server.url, ...FAST_POLICY, ...settings }).pipe(
    Effect.flatMap((openai) => openai.transcribe(AUDIO, "wav")),
    Effect.provide(NodeHttpClient.layerUndici),
    // the retries' warnings are expected here
    Logger.withMinimumLogLevel(LogLevel.Error)
  )

describe("OpenAI transcription with gpt-4o-transcribe-diarize (the default)", () => {
  it.scopedLive("spreads each speaker segment's words over it, with the segment's speaker", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI({ apiKey: "k" })
      const transcript = yield* transcribe(server)
      expect(transcript.provider).toBe("openai")
      expect(transcript.model).toBe("gpt-4o-transcribe-diarize")
      // diarized_json says no language
      expect(transcript.language).toBeNull()
      expect(transcript.words.length).toBe(EXPECTED.length)
      expect(transcript.words.map((w) => w.text)).toEqual(EXPECTED.map((w) => w.text))
      expect(transcript.words.map((w) => w.speaker)).toEqual(EXPECTED.map((w) => speakerLetter(TRUTH, w.speaker)))
      // the provider gives no confidence
      expect(new Set(transcript.words.map((w) => w.confidence))).toEqual(new Set([1]))
      const first = TRUTH.turns[0]!
      const last = TRUTH.turns.at(-1)!
      expect(transcript.words[0]).toMatchObject({ text: "Hi", start: first.start, speaker: "A" })
      // "Hi" is 2 of the turn's letters
      const letters = first.text.replace(/\s+/g, "").length
      expect(transcript.words[0]!.end).toBeCloseTo(first.start + ((first.end - first.start) * 2) / letters, 3)
      expect(transcript.words.at(-1)!.text).toBe(EXPECTED.at(-1)!.text)
      expect(transcript.words.at(-1)!.end).toBe(last.end)
      // every word inside its segment, in order, without overlap
      let i = 0
      for (const turn of TRUTH.turns) {
        const n = turn.text.split(/\s+/).length
        const words = transcript.words.slice(i, i + n)
        i += n
        expect(words[0]!.start).toBe(turn.start)
        expect(words.at(-1)!.end).toBe(turn.end)
        for (let k = 1; k < words.length; k++) expect(words[k]!.start).toBe(words[k - 1]!.end)
      }
    }))

  it.scopedLive("sends the audio as multipart `file` with diarized_json and chunking_strategy=auto, key as Bearer", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI()
      yield* transcribe(server)
      expect(server.requests.length).toBe(1)
      const request = server.requests[0]!
      expect(request.method).toBe("POST")
      expect(request.path).toBe("/v1/audio/transcriptions")
      expect(request.headers["authorization"]).toBe("Bearer k")
      expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/)
      // a known length, not chunked: some self-hosted servers read a chunked upload as empty
      expect(request.headers["content-length"]).toBe(String(request.bodySize))
      expect(request.headers["transfer-encoding"]).toBeUndefined()
      expect(request.form!.fields).toEqual({
        model: ["gpt-4o-transcribe-diarize"],
        response_format: ["diarized_json"],
        chunking_strategy: ["auto"]
      })
      expect(request.form!.files).toEqual({ file: { name: "audio.wav", type: "audio/wav", size: AUDIO_SIZE, sha256: AUDIO_SHA256 } })
    }))
})

describe("OpenAI transcription with word timestamps (whisper-1, self-hosted servers)", () => {
  it.scopedLive("answers the words with their times, no speaker, punctuation from the segments", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI()
      const transcript = yield* transcribe(server, { model: "whisper-1" })
      expect(transcript.model).toBe("whisper-1")
      expect(transcript.language).toBe("english")
      expect(transcript.words.length).toBe(EXPECTED.length)
      expect(transcript.words[0]).toEqual({ text: "Hi", start: 0.7, end: EXPECTED[0]!.end, speaker: undefined, confidence: 0.819 })
      expect(transcript.words.at(-1)!.end).toBe(EXPECTED.at(-1)!.end)
      // whisper-1 words have no punctuation: "Dana," and "talk?" come back from the segment text
      expect(transcript.words).toEqual(
        EXPECTED.map((w) => ({ text: w.text, start: w.start, end: w.end, speaker: undefined, confidence: 0.819 }))
      )
      expect(transcript.words.some((w) => w.speaker !== undefined)).toBe(false)
    }))

  it.scopedLive("asks for verbose_json with word and segment timestamps", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI()
      yield* transcribe(server, { model: "whisper-1", language: "en" })
      const request = server.requests[0]!
      expect(request.headers["authorization"]).toBe("Bearer k")
      expect(request.form!.fields).toEqual({
        model: ["whisper-1"],
        response_format: ["verbose_json"],
        "timestamp_granularities[]": ["word", "segment"],
        language: ["en"]
      })
      expect(request.form!.files["file"]!.size).toBe(AUDIO_SIZE)
    }))

  it.scopedLive("a self-hosted server without a key gets no Authorization; a base URL ending in /v1 works", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI()
      const transcript = yield* transcribe(server, {
        apiKey: undefined,
        baseUrl: `${server.url}/v1/`,
        model: "Systran/faster-whisper-small"
      })
      const request = server.requests[0]!
      expect(request.path).toBe("/v1/audio/transcriptions")
      expect(request.headers["authorization"]).toBeUndefined()
      expect(transcript.words.length).toBe(EXPECTED.length)
    }))

  it("servers that put the words in their segments, with a probability each, are read too", () => {
    const words = verboseWords({
      language: "en",
      segments: [
        {
          start: 0,
          end: 2,
          text: "Hello, Dana.",
          avg_logprob: -0.5,
          words: [
            { word: " Hello,", start: 0, end: 0.8, probability: 0.97 },
            { word: " Dana.", start: 1, end: 1.6, probability: null }
          ]
        },
        { start: 3, end: 4, text: "Is it?", avg_logprob: null, words: [{ word: "is", start: 3, end: 3.2 }, { word: "it", start: 3.3, end: 3.9 }] }
      ]
    })
    expect(words).toEqual([
      { text: "Hello,", start: 0, end: 0.8, speaker: undefined, confidence: 0.97 },
      { text: "Dana.", start: 1, end: 1.6, speaker: undefined, confidence: 0.607 },
      { text: "Is", start: 3, end: 3.2, speaker: undefined, confidence: 1 },
      { text: "it?", start: 3.3, end: 3.9, speaker: undefined, confidence: 1 }
    ])
  })
})

describe("OpenAI failures", () => {
  it.scopedLive("a 500 is retried, and the second answer is used", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI({ failFirst: [{ status: 500 }] })
      const transcript = yield* transcribe(server)
      expect(server.requests.length).toBe(2)
      // the file is sent whole again on the retry
      expect(server.requests.map((r) => r.form?.files["file"]?.size)).toEqual([AUDIO_SIZE, AUDIO_SIZE])
      expect(transcript.words.length).toBe(EXPECTED.length)
    }))

  it.scopedLive("a 429 waits at least its Retry-After before the retry", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI({ failFirst: [{ status: 429, retryAfter: "0.3", body: "{\"error\":{\"message\":\"Rate limit reached\"}}" }] })
      const transcript = yield* transcribe(server, { model: "whisper-1" })
      expect(server.requests.length).toBe(2)
      expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(300)
      expect(transcript.words.length).toBe(EXPECTED.length)
    }))

  it.scopedLive("a refused key is a 401 failure at once, without retry", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI({ apiKey: "the-right-key" })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.provider).toBe("openai")
      expect(error.status).toBe(401)
      expect(error.message).toBe("OpenAI answered the transcription request with HTTP 401: the key was refused")
      expect(server.requests.length).toBe(1)
    }))

  // 2 s, not less: on a loaded machine the upload itself may take longer than a few hundred ms to arrive
  it.scopedLive("a server that never answers fails after the timeout", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI({ hang: true })
      const error = yield* Effect.flip(transcribe(server, { timeout: "2 seconds" }))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toBe("OpenAI did not answer the transcription request within 2s")
      expect(server.requests.length).toBe(1)
    }))

  it.scopedLive("a 200 that is not JSON is a failure, not a defect", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI({ badAnswer: "not-json" })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toBe("OpenAI answered the transcription request with something that is not JSON")
      expect(server.requests.length).toBe(1)
    }))

  it.scopedLive("a diarized answer without segments is a failure naming what is missing", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI({ badAnswer: "wrong-shape" })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toContain("OpenAI answered the transcription request in an unexpected shape")
      expect(error.message).toContain("segments")
    }))

  it.scopedLive("a word-timestamp answer without words or segments is a failure, not an empty transcript", () =>
    Effect.gen(function* () {
      const server = yield* startOpenAI({ badAnswer: "wrong-shape" })
      const error = yield* Effect.flip(transcribe(server, { model: "whisper-1" }))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toBe(
        "OpenAI answered the transcription request without word timestamps (whisper-1 must support verbose_json with timestamp_granularities[]=word)"
      )
    }))
})
