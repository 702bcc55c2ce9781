/**
 * Answers without punctuation through the Deepgram and AssemblyAI adapters (issue 35, item 3): a
 * short renewal call as Deepgram answers it with `punctuate=false` (each word only `word`, no
 * `punctuated_word`, lower case, numbers as words since `smart_format` is off) and as AssemblyAI
 * answers it with `punctuate: false, format_text: false` (each word's `text` lower case and bare,
 * `utterances` by speaker), recorded in each provider's documented shape in `fixtures/`. A local
 * server speaking the provider's protocol serves the recording; the adapter's own request and
 * parsing run, and the content analysis reads the words it returns.
 *
 * The adapters ask for punctuation themselves (Deepgram `punctuate=true&smart_format=true`,
 * AssemblyAI `punctuate: true, format_text: true`, checked below): an answer without it comes back
 * when the provider cannot punctuate (AssemblyAI: "exact results … can vary by language") or from
 * a provider configured without it, and the words must still come through and be read.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { analyzeContent, type ContentInput, type SpeakerSummary, type Turn, type Word } from "@callsight/analysis"
import { makeAssemblyAI } from "../../src/transcription/AssemblyAI.js"
import { makeDeepgram } from "../../src/transcription/Deepgram.js"
import { fixturePath } from "../../../../test/utils/Fixtures.js"
import { FAST_POLICY, startAssemblyAI, startDeepgram } from "../utils/SpeechProviders.js"

const recorded = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"))

interface DeepgramRecording {
  readonly results: {
    readonly channels: ReadonlyArray<{ readonly alternatives: ReadonlyArray<{ readonly transcript: string; readonly words: ReadonlyArray<{ readonly word: string; readonly start: number; readonly end: number; readonly confidence: number; readonly speaker: number }> }> }>
    readonly utterances: ReadonlyArray<{ readonly speaker: number; readonly start: number; readonly end: number; readonly transcript: string }>
  }
}
interface AssemblyAIRecording {
  readonly text: string
  readonly words: ReadonlyArray<{ readonly text: string; readonly start: number; readonly end: number; readonly confidence: number; readonly speaker: string }>
  readonly utterances: ReadonlyArray<{ readonly speaker: string; readonly start: number; readonly end: number; readonly text: string }>
}

const DEEPGRAM: DeepgramRecording = recorded("deepgram-unpunctuated.json")
const ASSEMBLYAI: AssemblyAIRecording = recorded("assemblyai-unpunctuated.json")
/** Any audio: the servers answer with the recording whatever they are sent. */
const AUDIO = fixturePath("discovery-short.wav")

const quiet = <A, E>(effect: Effect.Effect<A, E, never>) => effect.pipe(Logger.withMinimumLogLevel(LogLevel.Error))

/**
 * The content analysis' input for a transcript's words: our speaker turns are the runs of one
 * provider label (as when our diarization agrees with the provider's), the first voice the rep.
 */
const contentInput = (words: ReadonlyArray<Word>): ContentInput => {
  const rep = words[0]!.speaker!
  const turns: Array<Turn> = []
  for (const w of words) {
    const last = turns[turns.length - 1]
    const speaker = w.speaker === rep ? "S1" : "S2"
    if (last !== undefined && last.speaker === speaker) turns[turns.length - 1] = { ...last, end: w.end }
    else turns.push({ speaker, role: speaker === "S1" ? "rep" : "buyer", start: w.start, end: w.end })
  }
  const talk = (s: string) => turns.filter((t) => t.speaker === s).reduce((n, t) => n + t.end - t.start, 0)
  const all = talk("S1") + talk("S2")
  const speakers: Array<SpeakerSummary> = ["S1", "S2"].map((s) => ({
    speaker: s,
    role: s === "S1" ? "rep" : "buyer",
    role_confidence: 1,
    talk_time_s: talk(s),
    talk_share: talk(s) / all
  }))
  return { words, speaker_turns: turns, speakers, duration_s: words[words.length - 1]!.end + 0.4, framework: "MEDDPICC" }
}

/** What every punctuation-free transcript of the call must give the analysis. */
const expectReadable = (words: ReadonlyArray<Word>) => {
  // no word carries punctuation or a capital: the analysis gets the bare words
  for (const w of words) expect(w.text).toMatch(/^[a-z0-9']+$/)
  const content = analyzeContent(contentInput(words))
  // the buyer's plainly stated objection: over the budget
  const budget = content.objections.find((o) => o.quote.includes("more than we budgeted"))
  expect(budget, JSON.stringify(content.objections)).toBeDefined()
  expect(["price", "budget"]).toContain(budget!.kind)
  const said = words.find((w) => w.text === "honestly")!
  expect(budget!.at).toBeGreaterThanOrEqual(said.start - 0.01)
  expect(budget!.at).toBeLessThan(said.start + 5)
  // the rep's dated next step: the revised quote by Friday (and the review on Tuesday at ten)
  const friday = content.next_steps.find((s) => s.due !== null && /friday/i.test(s.due))
  expect(friday, JSON.stringify(content.next_steps)).toBeDefined()
  expect(friday!.owner).toBe("S1")
  expect(friday!.quote).toContain("send you the revised quote")
  return content
}

describe("Deepgram without punctuation", () => {
  const recording = DEEPGRAM.results.channels[0]!.alternatives[0]!.words

  it.scopedLive("words, speakers and times come through from `word` alone, and the analysis reads them", () =>
    Effect.gen(function* () {
      const server = yield* startDeepgram({ apiKey: "k", recording: DEEPGRAM })
      const transcript = yield* quiet(
        makeDeepgram({ apiKey: Redacted.make("k"), baseUrl: server.url, ...FAST_POLICY }).pipe(
          Effect.flatMap((deepgram) => deepgram.transcribe(AUDIO, "wav")),
          Effect.provide(NodeHttpClient.layerUndici)
        )
      )
      // what the adapter asks for: punctuation and smart formatting on (the answer here has neither)
      expect(server.requests[0]!.query).toMatchObject({ punctuate: "true", smart_format: "true", diarize: "true", utterances: "true" })
      expect(transcript.provider).toBe("deepgram")
      expect(transcript.language).toBe("en")
      expect(transcript.words).toEqual(
        recording.map((w) => ({ text: w.word, start: w.start, end: w.end, speaker: String(w.speaker), confidence: w.confidence }))
      )
      expect(transcript.words.map((w) => w.text).join(" ")).toBe(DEEPGRAM.results.channels[0]!.alternatives[0]!.transcript)
      // the numbers as said, in words
      expect(transcript.words.map((w) => w.text).join(" ")).toContain("twelve thousand dollars")
      // each utterance's speaker is its words' speaker, over its times
      for (const u of DEEPGRAM.results.utterances) {
        const inside = transcript.words.filter((w) => w.start >= u.start && w.end <= u.end)
        expect(inside.map((w) => w.text).join(" ")).toBe(u.transcript)
        expect(new Set(inside.map((w) => w.speaker))).toEqual(new Set([String(u.speaker)]))
      }
      expect(new Set(transcript.words.map((w) => w.speaker))).toEqual(new Set(["0", "1"]))
      const content = expectReadable(transcript.words)
      // the provider's labels, mapped to ours, agree with the turns made from them
      expect(content.diarization_agreement).toBe(1)
    }))
})

describe("AssemblyAI without punctuation and formatting", () => {
  it.scopedLive("words (ms to s), letter speakers and times come through, and the analysis reads them", () =>
    Effect.gen(function* () {
      const server = yield* startAssemblyAI({ apiKey: "k", recording: ASSEMBLYAI })
      const transcript = yield* quiet(
        makeAssemblyAI({ apiKey: Redacted.make("k"), baseUrl: server.url, pollInterval: "5 millis", ...FAST_POLICY }).pipe(
          Effect.flatMap((assemblyai) => assemblyai.transcribe(AUDIO, "wav")),
          Effect.provide(NodeHttpClient.layerUndici)
        )
      )
      const create = server.requests.find((r) => r.method === "POST" && r.path === "/v2/transcript")!
      // what the adapter asks for: punctuation and text formatting on (the answer here has neither)
      expect(create.json).toMatchObject({ punctuate: true, format_text: true, speaker_labels: true })
      expect(transcript.provider).toBe("assemblyai")
      expect(transcript.model).toBe("universal-3-pro")
      expect(transcript.language).toBe("en")
      expect(transcript.words).toEqual(
        ASSEMBLYAI.words.map((w) => ({ text: w.text, start: w.start / 1000, end: w.end / 1000, speaker: w.speaker, confidence: w.confidence }))
      )
      expect(transcript.words.map((w) => w.text).join(" ")).toBe(ASSEMBLYAI.text)
      expect(transcript.words.map((w) => w.text).join(" ")).toContain("eight thousand for this year")
      for (const u of ASSEMBLYAI.utterances) {
        const inside = transcript.words.filter((w) => w.start >= u.start / 1000 && w.end <= u.end / 1000)
        expect(inside.map((w) => w.text).join(" ")).toBe(u.text)
        expect(new Set(inside.map((w) => w.speaker))).toEqual(new Set([u.speaker]))
      }
      expect(new Set(transcript.words.map((w) => w.speaker))).toEqual(new Set(["A", "B"]))
      const content = expectReadable(transcript.words)
      expect(content.diarization_agreement).toBe(1)
    }))
})
