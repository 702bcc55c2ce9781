/** Content analysis of a call written as lines, and a call with no metrics, for the rule tests. */
import { analyzeContent } from "../../src/text/Content.js"
import type { Word } from "../../src/text/Transcript.js"
import type { Metrics, Turn } from "../../src/Types.js"

/** Who says a line: the rep (S1), the buyer (S2), a second buyer (S3). */
export type Who = "rep" | "buyer" | "buyer2"

/** A call from lines [speaker, text]; each line 4 s, words spread evenly. */
export const scriptedCall = (lines: ReadonlyArray<readonly [Who, string]>) => {
  const turns: Array<Turn> = []
  const words: Array<Word> = []
  lines.forEach(([who, text], i) => {
    const start = i * 5
    const speaker = who === "rep" ? "S1" : who === "buyer" ? "S2" : "S3"
    turns.push({ speaker, role: who === "rep" ? "rep" : "buyer", start, end: start + 4 })
    const ws = text.split(/\s+/)
    ws.forEach((w, k) => words.push({ text: w, start: start + (4 * k) / ws.length, end: start + (4 * (k + 1)) / ws.length, confidence: 1 }))
  })
  return analyzeContent({ words, speaker_turns: turns, speakers: [], duration_s: lines.length * 5, framework: "MEDDPICC" })
}

/** Every acoustic metric unknown: a call's metrics before anything was measured. */
export const NO_METRICS: Metrics = {
  talk_ratio: null,
  longest_monologue_s: null,
  longest_customer_story_s: null,
  interactivity: null,
  patience_s: null,
  interruptions: null,
  silence_ratio: null,
  question_count: null,
  question_rate: null,
  words_per_minute: null,
  filler_rate: null
}
