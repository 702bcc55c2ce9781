/** The AssemblyAI adapter against a local server speaking AssemblyAI's v2 upload, transcript and polling. */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel, Redacted } from "effect"
import { readFileSync, statSync } from "node:fs"
import { type AssemblyAISettings, assemblyAIWords, makeAssemblyAI } from "../../src/transcription/AssemblyAI.js"
import { fixturePath, truth } from "../../../../test/utils/Fixtures.js"
import { FAST_POLICY, sha256, type SpeechProviderServer, speakerLetter, startAssemblyAI } from "../utils/SpeechProviders.js"
import { truthWords } from "../../../../test/utils/TruthWords.js"

const AUDIO = fixturePath("discovery-short.wav")
const AUDIO_SIZE = statSync(AUDIO).size
const AUDIO_SHA256 = sha256(readFileSync(AUDIO))
const TRUTH = truth("discovery-short")
const EXPECTED = truthWords(TRUTH)

const transcribe = (server: SpeechProviderServer, settings: Partial<AssemblyAISettings> = {}) =>
  makeAssemblyAI({ apiKey: Redacted.make("k"), baseUrl: server.url, pollInterval: "5 millis", ...FAST_POLICY, ...settings }).pipe(
    Effect.flatMap((assemblyai) => assemblyai.transcribe(AUDIO, "wav")),
    Effect.provide(NodeHttpClient.layerUndici),
    // the retries' warnings are expected here
    Logger.withMinimumLogLevel(LogLevel.Error)
  )

const route = (r: { method: string; path: string }) => `${r.method} ${r.path.replace(/^\/v2\/transcript\/.+$/, "/v2/transcript/{id}")}`

describe("AssemblyAI transcription", () => {
  it.scopedLive("answers every word in seconds (AssemblyAI's are in ms) with its letter speaker", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI({ apiKey: "k" })
      const transcript = yield* transcribe(server)
      expect(transcript.provider).toBe("assemblyai")
      // the model AssemblyAI says it used, the first of the list we sent
      expect(transcript.model).toBe("universal-3-pro")
      expect(transcript.language).toBe("en")
      expect(transcript.words.length).toBe(EXPECTED.length)
      expect(transcript.words[0]).toEqual({ text: "Hi", start: 0.7, end: EXPECTED[0]!.end, speaker: "A", confidence: 0.9 })
      expect(transcript.words.at(-1)!.text).toBe(EXPECTED.at(-1)!.text)
      expect(transcript.words.at(-1)!.end).toBe(EXPECTED.at(-1)!.end)
      expect(transcript.words).toEqual(
        EXPECTED.map((w) => ({ text: w.text, start: w.start, end: w.end, speaker: speakerLetter(TRUTH, w.speaker), confidence: w.confidence }))
      )
      expect(new Set(transcript.words.map((w) => w.speaker))).toEqual(new Set(["A", "B"]))
    }))

  it.scopedLive("uploads the audio with the bare key, asks for speaker labels, then polls until completed", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI()
      const service = yield* makeAssemblyAI({ apiKey: Redacted.make("k"), baseUrl: server.url }).pipe(
        Effect.provide(NodeHttpClient.layerUndici)
      )
      expect(service.model).toBe("universal-3-pro,universal-2")
      yield* transcribe(server)
      expect(server.requests.map(route)).toEqual([
        "POST /v2/upload",
        "POST /v2/transcript",
        "GET /v2/transcript/{id}",
        "GET /v2/transcript/{id}",
        "GET /v2/transcript/{id}"
      ])
      for (const r of server.requests) expect(r.headers["authorization"]).toBe("k")
      const [upload, create, poll] = server.requests
      expect(upload!.headers["content-type"]).toBe("application/octet-stream")
      expect(upload!.bodySize).toBe(AUDIO_SIZE)
      expect(upload!.bodySha256).toBe(AUDIO_SHA256)
      expect(create!.json).toEqual({
        audio_url: expect.stringMatching(new RegExp(`^${server.url}/files/`)),
        speech_models: ["universal-3-pro", "universal-2"],
        speaker_labels: true,
        punctuate: true,
        format_text: true,
        language_detection: true
      })
      // the transcript polled is the one created
      expect(server.requests.slice(2).every((r) => r.path === poll!.path)).toBe(true)
    }))

  it.scopedLive("a configured model and language are sent as speech_models and language_code", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI()
      const transcript = yield* transcribe(server, { model: "universal-2", language: "en_us" })
      const create = server.requests.find((r) => r.path === "/v2/transcript")!
      expect(create.json).toMatchObject({ speech_models: ["universal-2"], language_code: "en_us" })
      expect(create.json).not.toHaveProperty("language_detection")
      expect(transcript.model).toBe("universal-2")
      expect(transcript.language).toBe("en_us")
    }))

  it("a completed transcript without words (no speech heard) has none", () => {
    expect(assemblyAIWords({ status: "completed", words: null })).toEqual([])
  })
})

describe("AssemblyAI failures", () => {
  it.scopedLive("a 500 on the upload is retried, and the transcription goes on", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI({ path: "/v2/upload", failFirst: [{ status: 500 }] })
      const transcript = yield* transcribe(server)
      expect(server.requests.map(route).slice(0, 3)).toEqual(["POST /v2/upload", "POST /v2/upload", "POST /v2/transcript"])
      expect(server.requests[1]!.bodySize).toBe(AUDIO_SIZE)
      expect(transcript.words.length).toBe(EXPECTED.length)
    }))

  it.scopedLive("a 429 on a status request waits its Retry-After, then polling goes on", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI({ path: "/v2/transcript/", failFirst: [{ status: 429, retryAfter: "0.3" }] })
      const transcript = yield* transcribe(server)
      const polls = server.requests.filter((r) => r.method === "GET")
      // the refused one, then queued, processing, completed
      expect(polls.length).toBe(4)
      expect(polls[1]!.receivedAt - polls[0]!.receivedAt).toBeGreaterThanOrEqual(300)
      expect(transcript.words.length).toBe(EXPECTED.length)
    }))

  it.scopedLive("a refused key is a 401 failure at once, without retry", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI({ failAlways: 401 })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.provider).toBe("assemblyai")
      expect(error.status).toBe(401)
      // the provider, the status and our reason; never the provider's own words
      expect(error.message).toBe("AssemblyAI answered the upload with HTTP 401: the key was refused")
      expect(error.message).not.toContain("Invalid API key")
      expect(server.requests.length).toBe(1)
    }))

  it.scopedLive("a transcript that ends `error` fails with our message, not AssemblyAI's words", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI({ transcriptError: "Audio duration is too short." })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.status).toBeUndefined()
      expect(error.message).toBe("AssemblyAI could not transcribe the call: its transcript ended in error")
      expect(server.requests.filter((r) => r.method === "GET").length).toBe(3)
    }))

  it.scopedLive("a server that never answers fails after the timeout", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI({ hang: true })
      const error = yield* Effect.flip(transcribe(server, { timeout: "300 millis" }))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toMatch(/^AssemblyAI did not (answer the upload|finish the transcription) within 300ms$/)
      expect(server.requests.length).toBe(1)
    }))

  it.scopedLive("the timeout bounds the whole polling, not each request", () =>
    Effect.gen(function* () {
      // every status request is answered at once, but the transcript stays queued
      const server = yield* startAssemblyAI({ pendingPolls: 1_000_000 })
      const started = Date.now()
      // (a second: a loaded machine may spend a few hundred ms on the upload before the first poll)
      const error = yield* Effect.flip(transcribe(server, { timeout: "1 second", pollInterval: "20 millis" }))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toBe("AssemblyAI did not finish the transcription within 1s")
      expect(Date.now() - started).toBeLessThan(6_000)
      expect(server.requests.filter((r) => r.method === "GET").length).toBeGreaterThan(3)
    }))

  it.scopedLive("a status answer that is not JSON is a failure, not a defect", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI({ path: "/v2/transcript/", badAnswer: "not-json" })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toBe("AssemblyAI answered the transcript status request with something that is not JSON")
    }))

  it.scopedLive("an upload answer of another shape is a failure", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI({ path: "/v2/upload", badAnswer: "wrong-shape" })
      const error = yield* Effect.flip(transcribe(server))
      expect(error._tag).toBe("TranscriptionFailed")
      expect(error.message).toContain("AssemblyAI answered the upload in an unexpected shape")
      expect(error.message).toContain("upload_url")
      expect(server.requests.length).toBe(1)
    }))
})
