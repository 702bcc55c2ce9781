/** The Deepgram adapter against a local server speaking Deepgram's `/v1/listen`. */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel, Redacted, Schedule } from "effect"
import { readFileSync, statSync } from "node:fs"
import { type DeepgramSettings, makeDeepgram } from "../../src/transcription/Deepgram.js"
import { fixturePath, truth } from "../../../../test/utils/Fixtures.js"
import { FAST_POLICY, sha256, type SpeechProviderServer, speakerOrder, startDeepgram } from "../utils/SpeechProviders.js"
import { truthWords } from "../../../../test/utils/TruthWords.js"

const AUDIO = fixturePath("discovery-short.wav")
const AUDIO_SIZE = statSync(AUDIO).size
const AUDIO_SHA256 = sha256(readFileSync(AUDIO))
const TRUTH = truth("discovery-short")
const EXPECTED = truthWords(TRUTH)

const transcribe = (server: SpeechProviderServer, settings: Partial<DeepgramSettings> = {}) =>
  makeDeepgram({ apiKey: Redacted.make("k"), baseUrl: server.url, ...FAST_POLICY, ...settings }).pipe(
    Effect.flatMap((deepgram) => deepgram.transcribe(AUDIO, "wav")),
    Effect.provide(NodeHttpClient.layerUndici),
    // the retries' warnings are expected here
    Logger.withMinimumLogLevel(LogLevel.Error)
  )

describe("Deepgram transcription", () => {
  it.scopedLive("answers every word with its time, punctuation, confidence and Deepgram's speaker number", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram({ apiKey: "k" })
      const transcript = yield* transcribe(server)
      const order = speakerOrder(TRUTH)
      expect(transcript.provider).toBe("deepgram")
      expect(transcript.model).toBe("nova-3")
      expect(transcript.language).toBe("en")
      expect(transcript.words.length).toBe(EXPECTED.length)
      expect(transcript.words[0]).toEqual({ text: "Hi", start: 0.7, end: EXPECTED[0]!.end, speaker: "0", confidence: 0.9 })
      expect(transcript.words.at(-1)!.text).toBe(EXPECTED.at(-1)!.text)
      expect(transcript.words.at(-1)!.end).toBe(EXPECTED.at(-1)!.end)
      expect(transcript.words).toEqual(
        EXPECTED.map((w) => ({ text: w.text, start: w.start, end: w.end, speaker: String(order.indexOf(w.speaker)), confidence: w.confidence }))
      )
      expect(new Set(transcript.words.map((w) => w.speaker))).toEqual(new Set(["0", "1"]))
    }))

  it.scopedLive("sends the audio as the body with the key as `Token`, diarize, utterances and punctuation on", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram()
      yield* transcribe(server)
      expect(server.requests.length).toBe(1)
      const request = server.requests[0]!
      expect(request.method).toBe("POST")
      expect(request.path).toBe("/v1/listen")
      expect(request.headers["authorization"]).toBe("Token k")
      expect(request.headers["content-type"]).toBe("audio/wav")
      expect(request.query).toEqual({
        model: "nova-3",
        diarize: "true",
        utterances: "true",
        punctuate: "true",
        smart_format: "true",
        detect_language: "true"
      })
      expect(request.bodySize).toBe(AUDIO_SIZE)
      expect(request.bodySha256).toBe(AUDIO_SHA256)
    }))

  it.scopedLive("a configured language is sent instead of detection", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram()
      const transcript = yield* transcribe(server, { language: "en-US", model: "nova-2" })
      expect(server.requests[0]!.query["language"]).toBe("en-US")
      expect(server.requests[0]!.query["model"]).toBe("nova-2")
      expect(server.requests[0]!.query["detect_language"]).toBeUndefined()
      expect(transcript.language).toBe("en-US")
      expect(transcript.model).toBe("nova-2")
    }))
})

describe("Deepgram failures", () => {
  it.scopedLive("a 500 is retried, and the second answer is used", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram({ failFirst: [{ status: 500 }] })
      const transcript = yield* transcribe(server)
      expect(server.requests.length).toBe(2)
      // the audio is sent whole again on the retry
      expect(server.requests.map((r) => r.bodySize)).toEqual([AUDIO_SIZE, AUDIO_SIZE])
      expect(transcript.words.length).toBe(EXPECTED.length)
    }))

  it.scopedLive("a 429 waits at least its Retry-After before the retry", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram({ failFirst: [{ status: 429, retryAfter: "0.4" }] })
      const transcript = yield* transcribe(server)
      expect(server.requests.length).toBe(2)
      // the back-off alone would be 10 ms
      expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(400)
      expect(transcript.words.length).toBe(EXPECTED.length)
    }))

  it.scopedLive("5xx on every attempt ends in TranscriptionFailed after maxRetries", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram({ failFirst: [{ status: 503 }, { status: 502 }, { status: 500 }] })
      const error = yield* Effect.flip(transcribe(server, { maxRetries: 2 }))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.provider).toBe("deepgram")
      expect(error.status).toBe(500)
      expect(error.message).toContain("after 3 attempt(s)")
      expect(server.requests.length).toBe(3)
    }))

  it.scopedLive("a refused key is a 401 failure at once, without retry", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram({ apiKey: "the-right-key" })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.status).toBe(401)
      expect(error.code).toBe("transcription_failed")
      expect(error.message).toBe("Deepgram answered the transcription request with HTTP 401: the key was refused")
      expect(error.message).not.toContain("Invalid API key")
      expect(server.requests.length).toBe(1)
    }))

  it.scopedLive("a server that never answers fails after the timeout", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram({ hang: true })
      const started = Date.now()
      const error = yield* Effect.flip(transcribe(server, { timeout: "300 millis" }))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toBe("Deepgram did not answer the transcription request within 300ms")
      expect(Date.now() - started).toBeLessThan(5_000)
      // the server records a request once its body is in: on a busy machine that can come after the
      // 300 ms; wait for it, then there is still one request only (the client did not try again)
      yield* Effect.suspend(() => (server.requests.length > 0 ? Effect.void : Effect.fail("not yet"))).pipe(
        Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo("5 seconds"))),
        Effect.orDie
      )
      yield* Effect.sleep("100 millis")
      expect(server.requests.length).toBe(1)
    }))

  it.scopedLive("a 200 that is not JSON is a failure, not a defect", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram({ badAnswer: "not-json" })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toBe("Deepgram answered the transcription request with something that is not JSON")
      expect(server.requests.length).toBe(1)
    }))

  it.scopedLive("a 200 of another shape is a failure naming what is missing", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram({ badAnswer: "wrong-shape" })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toContain("Deepgram answered the transcription request in an unexpected shape")
      expect(error.message).toContain("results")
    }))
})
