/**
 * A call of `eval/calls` as the content analysis reads it, for the evaluation (`run.ts`) and any
 * script measuring the analysis on the calls: the ground-truth turns' words spread
 * over their turns as the tests' local speech providers answer them (`truthWords`), the truth
 * turns as our speaker turns (the rep S1, the buyer side S2, S3… in order of appearance). No audio
 * is decoded.
 */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { ContentInput, SpeakerSummary, Turn } from "@callsight/analysis"
import type { Truth } from "../test/utils/Fixtures.js"
import { truthWords } from "../test/utils/TruthWords.js"

export const CALLS = join(dirname(fileURLToPath(import.meta.url)), "calls")

export const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"))

export const truthOf = (id: string): Truth => readJson(join(CALLS, `${id}.truth.json`)) as Truth

/** Truth speakers as our speaker labels: the rep is S1, the buyer side S2, S3… in order of appearance. */
const labelsOf = (truth: Truth): Map<string, string> => {
  const labels = new Map<string, string>([["rep", "S1"]])
  for (const t of truth.turns) if (!labels.has(t.speaker)) labels.set(t.speaker, `S${labels.size + 1}`)
  return labels
}

/** The content analysis' input for a call's truth; its speaker turns are the truth turns, index for index. */
export const contentInputOf = (truth: Truth): ContentInput => {
  const labels = labelsOf(truth)
  const turns: Array<Turn> = truth.turns.map((t) => ({
    speaker: labels.get(t.speaker)!,
    role: t.speaker === "rep" ? "rep" : "buyer",
    start: t.start,
    end: t.end
  }))
  const talk = new Map<string, number>()
  for (const t of turns) talk.set(t.speaker, (talk.get(t.speaker) ?? 0) + t.end - t.start)
  const all = [...talk.values()].reduce((a, b) => a + b, 0)
  const speakers: Array<SpeakerSummary> = [...talk.entries()].map(([speaker, s]) => ({
    speaker,
    role: speaker === "S1" ? "rep" : "buyer",
    role_confidence: 1,
    talk_time_s: s,
    talk_share: s / all
  }))
  return { words: truthWords(truth), speaker_turns: turns, speakers, duration_s: truth.duration, framework: "MEDDPICC" }
}
