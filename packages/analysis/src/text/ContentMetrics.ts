/**
 * The content metrics of a call: the rep's questions and their rate, words per minute on each
 * side, and the rep's filler rate.
 */
import { isWord, sideOf } from "./Attach.js"
import { findFillers } from "./lexicon/Fillers.js"
import { round } from "./Round.js"
import type { Sentence } from "./Sentences.js"
import type { Metrics, SpeakerSummary, Turn } from "../Types.js"

export type ContentMetrics = Pick<Metrics, "question_count" | "question_rate" | "words_per_minute" | "filler_rate">

/** Length of the union of spans. */
const unionLength = (spans: ReadonlyArray<{ readonly start: number; readonly end: number }>): number => {
  let total = 0
  let reach = -Infinity
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.end <= reach) continue
    total += s.end - Math.max(s.start, reach)
    reach = s.end
  }
  return total
}

export const contentMetrics = (
  sentences: ReadonlyArray<Sentence>,
  turns: ReadonlyArray<Turn>,
  speakers: ReadonlyArray<SpeakerSummary>,
  duration: number
): { metrics: ContentMetrics; repWords: number; buyerWords: number; fillers: number } => {
  const words = sentences.flatMap((s) => s.words).filter(isWord)
  const repWords = words.filter((w) => w.side === "rep").length
  const buyerWords = words.length - repWords
  const repTime = unionLength(turns.filter((t) => sideOf(t, speakers) === "rep"))
  const buyerTime = unionLength(turns.filter((t) => sideOf(t, speakers) === "buyer"))
  const questions = sentences.filter((s) => s.side === "rep" && s.question).length
  const fillers = sentences.filter((s) => s.side === "rep").reduce((n, s) => n + findFillers(s.tokens).length, 0)
  const perMinute = (n: number, seconds: number) => (seconds > 0 ? round((n / seconds) * 60, 1) : null)
  return {
    metrics: {
      question_count: questions,
      question_rate: duration > 0 ? round(questions / (duration / 600), 1) : null,
      words_per_minute: { rep: perMinute(repWords, repTime), buyer: perMinute(buyerWords, buyerTime) },
      filler_rate: repWords > 0 ? round((fillers / repWords) * 100, 2) : null
    },
    repWords,
    buyerWords,
    fillers
  }
}
