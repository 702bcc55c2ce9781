/**
 * Content analysis benchmark: the words of a 60-minute call (the fixtures' ground-truth turns
 * cycled, about 9,000 words) attached to their speaker turns, analysed (questions, objections,
 * next steps, qualification) and scored, beside the least any use of a provider's answer costs:
 * `JSON.parse` of the same words in Deepgram's JSON. Medians of 7 runs after 2 warm-ups.
 *
 *   npx tsx --conditions=source bench/content.bench.ts
 */
import { performance } from "node:perf_hooks"
import { analyzeContent, type Metrics, scoreCall, type Turn, type Word } from "@callsight/analysis"
import { truth } from "../test/utils/Fixtures.js"
import { truthWords } from "../test/utils/TruthWords.js"

const CALLS = ["discovery-short", "demo-objection", "renewal-stereo", "rep-monologue"]
const MINUTES = 60

/** The fixtures' turns and words, one call after another with a 2 s gap, up to `MINUTES`. */
const buildCall = () => {
  const turns: Array<Turn> = []
  const words: Array<Word> = []
  let offset = 0
  for (let i = 0; offset < MINUTES * 60; i++) {
    const t = truth(CALLS[i % CALLS.length]!)
    for (const turn of t.turns) {
      const rep = turn.speaker === "rep"
      turns.push({ speaker: rep ? "S1" : "S2", role: rep ? "rep" : "buyer", start: turn.start + offset, end: turn.end + offset })
    }
    for (const w of truthWords(t)) {
      words.push({ text: w.text, start: w.start + offset, end: w.end + offset, speaker: w.speaker === "rep" ? "0" : "1", confidence: w.confidence })
    }
    offset += t.duration + 2
  }
  return { turns, words, duration: offset }
}

const median = (runs: ReadonlyArray<number>) => [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!

const time = (f: () => unknown): number => {
  for (let i = 0; i < 2; i++) f()
  const runs: Array<number> = []
  for (let i = 0; i < 7; i++) {
    const start = performance.now()
    f()
    runs.push(performance.now() - start)
  }
  return median(runs)
}

const { turns, words, duration } = buildCall()
const deepgramAnswer = JSON.stringify({
  results: {
    channels: [{
      alternatives: [{
        words: words.map((w) => ({
          word: w.text.toLowerCase(),
          punctuated_word: w.text,
          start: w.start,
          end: w.end,
          confidence: w.confidence,
          speaker: Number(w.speaker)
        }))
      }]
    }]
  }
})

const acousticMetrics: Metrics = {
  talk_ratio: 0.5,
  longest_monologue_s: 60,
  longest_customer_story_s: 40,
  interactivity: 5,
  patience_s: 0.8,
  interruptions: 0,
  silence_ratio: 0.1,
  question_count: null,
  question_rate: null,
  words_per_minute: null,
  filler_rate: null
}

const analyse = () => {
  const content = analyzeContent({ words, speaker_turns: turns, speakers: [], duration_s: duration, framework: "MEDDPICC" })
  return scoreCall({
    metrics: { ...acousticMetrics, ...content.metrics },
    speaker_turns: turns,
    speakers: [],
    duration_s: duration,
    content
  })
}

const parseMs = time(() => JSON.parse(deepgramAnswer))
const analyseMs = time(analyse)
const scored = analyse()

console.log(`${(duration / 60).toFixed(1)}-minute transcript: ${words.length} words, ${turns.length} turns, ${(deepgramAnswer.length / 1e6).toFixed(1)} MB of Deepgram JSON`)
console.log(`  content analysis + scorecard: ${analyseMs.toFixed(1)} ms (overall ${scored.scorecard.overall}, ${scored.evidence.length} evidence items)`)
console.log(`  JSON.parse of the answer:     ${parseMs.toFixed(1)} ms  → analysis / parse = ${(analyseMs / parseMs).toFixed(1)}×`)
