/**
 * Report inputs for the report's tests: the discovery-short fixture's truth turns as our speaker
 * turns, scored acoustic-only; and the same call with its truth as the transcript and a content
 * analysis written by hand (the content engine is tested on its own).
 */
import { readFileSync } from "node:fs"
import { METHOD_VERSION } from "../src/Method.js"
import type { ReportInput } from "../src/report/Report.js"
import { findMoments } from "../src/scoring/Moments.js"
import { scoreCall } from "../src/scoring/Scorecard.js"
import type { Metrics, SpeakerSummary, Turn } from "../src/Types.js"

export const truth = JSON.parse(
  readFileSync(new URL("../../../test/fixtures/discovery-short.truth.json", import.meta.url), "utf8")
) as { duration: number; turns: Array<{ speaker: string; start: number; end: number; text: string }> }

/** The call scored acoustic-only. */
export const sample = (overrides: Partial<ReportInput> = {}): ReportInput => {
  const turns: Array<Turn> = truth.turns.map((t) => ({
    speaker: t.speaker === "rep" ? "S1" : "S2",
    role: t.speaker === "rep" ? "rep" : "buyer",
    start: t.start,
    end: t.end
  }))
  const duration = truth.duration
  const m = findMoments({ speaker_turns: turns, speakers: [], duration_s: duration })
  const speakers: Array<SpeakerSummary> = [
    { speaker: "S1", role: "rep", role_confidence: 0.86, talk_time_s: m.repTalk_s, talk_share: m.repTalk_s / (m.repTalk_s + m.buyerTalk_s) },
    { speaker: "S2", role: "buyer", role_confidence: 0.86, talk_time_s: m.buyerTalk_s, talk_share: m.buyerTalk_s / (m.repTalk_s + m.buyerTalk_s) }
  ]
  const metrics: Metrics = {
    talk_ratio: m.repTalk_s / (m.repTalk_s + m.buyerTalk_s),
    longest_monologue_s: m.monologues[0]!.end - m.monologues[0]!.start,
    longest_customer_story_s: m.stories[0]!.end - m.stories[0]!.start,
    interactivity: m.switches / (duration / 60),
    patience_s: 0.8,
    interruptions: m.interruptions.length,
    silence_ratio: 1 - (m.repTalk_s + m.buyerTalk_s) / duration,
    question_count: null,
    question_rate: null,
    words_per_minute: null,
    filler_rate: null
  }
  const scored = scoreCall({ metrics, speaker_turns: turns, speakers, duration_s: duration })
  return {
    call_id: "call_01JQ8ZK4V3M2N7P5R6S8T9W0XY",
    external_call_id: "ACME-0412",
    created_at: "2025-04-12T14:03:27Z",
    duration_s: duration,
    channels: 1,
    method_version: METHOD_VERSION,
    speakers,
    speaker_turns: turns,
    metrics,
    scorecard: scored.scorecard,
    evidence: scored.evidence,
    transcript: null,
    ...overrides
  }
}

/** The rep's words and the buyer's, as the fixture's truth has them. */
export const SEGMENTS = truth.turns.map((t) => ({ speaker: t.speaker === "rep" ? "S1" : "S2", start: t.start, end: t.end, text: t.text }))
export const at = (start: number) => SEGMENTS.find((s) => s.start === start)!

/**
 * The same call with a transcript (the truth's turns as segments) and a content analysis written
 * by hand: MEDDPICC with scores 0/1/2, a price objection answered with a question back after
 * 1.4 s, a competitor one answered at length, a dated next step with an owner and one with neither.
 */
export const withTranscript = (overrides: Partial<ReportInput> = {}): ReportInput => {
  const base = sample()
  const quote = (start: number, text: string, dimension: string, effect: number) => ({
    dimension,
    start,
    end: at(start).end,
    speaker: at(start).speaker,
    quote: text,
    effect
  })
  const evidence = [
    ...base.evidence,
    quote(11.495, "What prompted you to look at call coaching tools right now?", "discovery", 10),
    quote(30.306, "How is that showing up in the pipeline numbers?", "discovery", 10),
    quote(61.138, "Could we book thirty minutes next Tuesday with you and your revenue operations lead", "next_steps", 25)
  ]
  const assessedNow: Record<string, [number, string]> = {
    discovery: [70, "4 rep questions, 2 open; a pain and a number uncovered"],
    next_steps: [75, "a dated next step with an owner"]
  }
  const dimensions = base.scorecard.dimensions.map((d) =>
    d.dimension in assessedNow ? { ...d, score: assessedNow[d.dimension]![0], assessed: true, reason: assessedNow[d.dimension]![1] } : d
  )
  const scored = dimensions.filter((d) => d.assessed && d.score !== null)
  const overall = Math.round(scored.reduce((s, d) => s + d.score! * d.weight, 0) / scored.reduce((s, d) => s + d.weight, 0))
  const element = (name: string, score: 0 | 1 | 2, start: number | null, text = "") => ({
    element: name,
    score,
    evidence: start === null ? null : quote(start, text, "qualification", score)
  })
  return {
    ...base,
    metrics: { ...base.metrics, question_count: 4, question_rate: 5.3, words_per_minute: { rep: 152, buyer: 141 }, filler_rate: 0.8 },
    scorecard: { overall, dimensions },
    evidence,
    transcript: SEGMENTS,
    qualification: {
      framework: "MEDDPICC",
      elements: [
        element("metrics", 2, 35.311, "We are about four hundred thousand dollars behind plan for the half."),
        element("economic_buyer", 2, 35.311, "My boss, the VP of sales, signs off on anything over fifty thousand"),
        element("decision_criteria", 0, null),
        element("decision_process", 1, 52.332, "Me, our revenue operations lead, and then procurement and legal"),
        element("paper_process", 2, 52.332, "procurement and legal review the contract"),
        element("identify_pain", 2, 16.38, "our win rate dropped from thirty one percent to twenty four percent last quarter"),
        element("champion", 0, null),
        element("competition", 1, 52.332, "We are also looking at one other vendor.")
      ]
    },
    objections: [
      { kind: "price", at: 35.311, quote: "We are about four hundred thousand dollars behind plan", response: "question_back", response_pause_s: 1.4 },
      { kind: "competitor", at: 58.9, quote: "We are also looking at one other vendor.", response: "long_pitch", response_pause_s: null }
    ],
    next_steps: [
      { at: 61.138, quote: "Could we book thirty minutes next Tuesday?", owner: "S1", due: "Tuesday 14:00" },
      { at: 72.5, quote: "Send me the invite.", owner: null, due: null }
    ],
    transcription: { provider: "deepgram", model: "nova-3", language: "en", diarization_agreement: 0.934 },
    ...overrides
  }
}
