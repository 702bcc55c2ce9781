/**
 * The content analysis of a call (docs/method.md steps 4–7): the provider's words attached to our
 * speaker turns, and what the lexicon's rules (`lexicon/`) find in them — questions, fillers, pains and
 * numbers, objections and the rep's responses, value claims, next steps and the qualification
 * checklist. Pure and deterministic: the same input (words in any order) gives the same output.
 *
 * This module composes the parts: `Attach.ts` (words onto turns, the provider's labels mapped to
 * ours), `Sentences.ts` (segments, sentences, runs), `ContentMetrics.ts`, and in `findings/` what
 * a sentence states (`Statements.ts`), the pains and numbers, the objections, the value claims,
 * the next steps and the qualification.
 *
 * Decisions, in one place:
 * - **Attachment.** Every word goes to the turn it overlaps most (ties: the earlier turn), else to
 *   the nearest turn. The transcript's segments are runs of one speaker's words, split at a pause
 *   over 2 s, and at a sentence end once a segment is 30 s long.
 * - **Sentences** end at ".", "?", "!" and never cross a segment; when the provider gave no end
 *   punctuation at all, a pause of 0.8 s ends one too.
 * - **Sides.** The rep is the speaker whose role is `rep`; everyone else is the buyer side (as in
 *   the scorecard).
 * - **Objections** (one per concern a buyer voice raises in a buyer run, i.e. consecutive buyer
 *   sentences of one speaker, each in its own sentence or clause: `findings/Objections.ts`; the
 *   concerns of a run share the rep's response, as two buyers speaking in turn do). The response is the
 *   rep's next run: `question_back` when it asks a question within its first 30 s and 80 words;
 *   otherwise `long_pitch` when it runs past 30 s or 80 words; otherwise `pause` when the rep
 *   waited 1 s or more; otherwise `other`. `response_pause_s` is always the wait (end of the buyer's
 *   last turn before the rep answered → start of the rep's turn), so a pause and a question back
 *   are both visible; null when the rep never answered.
 * - **Next steps** are dated commitments (issue 14): every due chrono-node finds in a sentence
 *   (`Dates.ts`: "by Monday", "on the fifteenth", "Thursday the 21st at two") is tied to the verb
 *   that governs it, read with compromise (`Commitments.ts`): "I will…" / "our installers…" → the
 *   speaker; "let us…" / "we will…" / "shall we…" → the speaker who proposed it; "you send me…" /
 *   "can you send…" → the other side; a past, negated or third-party verb makes no step, nor does a
 *   request without its own date. Several steps in one turn are each found (one per verb). The
 *   other side's reply naming the same day confirms a step and may add the time ("Tuesday at two
 *   works" → "Tuesday 14:00"); a proposal without a day takes the reply's day only when the reply
 *   agrees; an offer ("I can…") needs the reply's agreement. `due` is the phrase as said,
 *   normalised, never a calendar date (the recording date is unknown): "Tuesday 14:00", "the 4th",
 *   "in 2 weeks", "end of the quarter".
 * - **Objections** in negotiation language (contract terms, discounts, approval limits, proof,
 *   security, timing, status quo: `Pushback.ts`) are tried before the early-stage lexicon; each
 *   finding keeps its finer `category`, the public `kind` is the nearest of the product's kinds.
 * - **Qualification.** Each element of the framework is scored on the sentences that match its cue:
 *   0 = none, 1 = a match (vague), 2 = a match with a specific (a number, a title or named party, a
 *   date, a named competitor). SPIN elements are the rep's questions, specific when the buyer's
 *   answer is. The evidence is the earliest sentence with the best score; its `dimension` is
 *   "qualification" and its `effect` the element's score (not scorecard points).
 */
import { attachWords, speakerMapping } from "./Attach.js"
import { contentMetrics, type ContentMetrics } from "./ContentMetrics.js"
import { findNextSteps, type NextStepFinding } from "./findings/NextSteps.js"
import { findObjections, type ObjectionFinding } from "./findings/Objections.js"
import { type BuyerFinding, findBusinessNumbers, painOf, painSentences } from "./findings/Pains.js"
import { qualificationOf } from "./findings/Qualification.js"
import { findValueClaims, type ValueClaim } from "./findings/Value.js"
import { isOpenQuestion } from "./lexicon/Questions.js"
import { endsClause, endsSentence } from "./lexicon/Tokens.js"
import type { Moment } from "./Moment.js"
import { round } from "./Round.js"
import { latestEnd, momentOfSentence, runMoment, runsOf, segmentsOf, type Sentence, sentencesOf, textOf } from "./Sentences.js"
import type { ContentInput } from "./Transcript.js"
import type { NextStepItem, ObjectionItem, QualificationResult, TranscriptSegmentItem } from "../Types.js"

// ---------------------------------------------------------------------------------------------
// Types

export interface QuestionFinding extends Moment {
  readonly open: boolean
}

/** What scoring reads: the moments behind the public fields. */
export interface ContentFindings {
  /** The rep's questions, in time order. */
  readonly questions: ReadonlyArray<QuestionFinding>
  /** Buyer sentences with a pain cue (objections excluded). */
  readonly pains: ReadonlyArray<BuyerFinding>
  /** Buyer sentences with a business number (a unit such as %, $, days, or 1,000 and more). */
  readonly numbers: ReadonlyArray<BuyerFinding>
  readonly value_claims: ReadonlyArray<ValueClaim>
  readonly objections: ReadonlyArray<ObjectionFinding>
  readonly next_steps: ReadonlyArray<NextStepFinding>
  /** The rep's longest run of sentences (absence evidence points here). */
  readonly longest_rep_run: Moment | null
  /** The rep's last sentence (where a missing next step shows). */
  readonly last_rep_sentence: Moment | null
  readonly rep_words: number
  readonly buyer_words: number
  readonly rep_fillers: number
}

export interface ContentAnalysis {
  readonly transcript: ReadonlyArray<TranscriptSegmentItem>
  /** Share of word time on which the provider's speaker labels agree with ours; null without provider labels. */
  readonly diarization_agreement: number | null
  readonly metrics: ContentMetrics
  readonly qualification: QualificationResult
  readonly objections: ReadonlyArray<ObjectionItem>
  readonly next_steps: ReadonlyArray<NextStepItem>
  readonly findings: ContentFindings
}

// ---------------------------------------------------------------------------------------------
// Diarization agreement

/** The share of word time on which the provider's speaker labels agree with ours; null without labels. */
export const diarizationAgreement = (
  words: ReadonlyArray<{ readonly provider: string | null; readonly speaker: string; readonly start: number; readonly end: number }>
): number | null => speakerMapping(words)?.agreement ?? null

// ---------------------------------------------------------------------------------------------
// The analysis

/** Analyse the words of a call against our speaker turns. Pure: no clock, no randomness. */
export const analyzeContent = (input: ContentInput): ContentAnalysis => {
  const duration = Number.isFinite(input.duration_s) && input.duration_s > 0 ? input.duration_s : 0
  const { words, turns, agreement } = attachWords(input)
  const segments = segmentsOf(words)
  const punctuated = words.some((w) => endsSentence(w.text))
  const sentences = sentencesOf(segments, punctuated, words.some((w) => endsClause(w.text)))
  const { metrics, repWords, buyerWords, fillers } = contentMetrics(sentences, turns, input.speakers, duration)

  const questions = sentences
    .filter((s) => s.side === "rep" && s.question)
    .map((s) => ({ ...momentOfSentence(s), open: isOpenQuestion(s.tokens) }))
  const painSaid = painSentences(sentences)
  const pains = painSaid.map(painOf)
  const objections = findObjections(sentences, turns)
  const nextSteps = findNextSteps(sentences)
  const repRuns = runsOf(sentences).filter((r) => r[0]!.side === "rep")
  const longestRun = repRuns.reduce<ReadonlyArray<Sentence> | null>(
    (best, r) => (best === null || r[r.length - 1]!.end - r[0]!.start > best[best.length - 1]!.end - best[0]!.start ? r : best),
    null
  )
  const lastRep = [...sentences].reverse().find((s) => s.side === "rep")

  return {
    transcript: segments.map((seg) => ({
      speaker: seg[0]!.speaker,
      start: round(seg[0]!.start, 3),
      end: round(latestEnd(seg), 3),
      text: textOf(seg)
    })),
    diarization_agreement: agreement,
    metrics,
    qualification: qualificationOf(input.framework, sentences, new Set(painSaid.map((s) => s.index))),
    objections: objections.map((o) => o.objection),
    next_steps: nextSteps.map((n) => n.step),
    findings: {
      questions,
      pains,
      numbers: findBusinessNumbers(sentences),
      value_claims: findValueClaims(sentences, pains),
      objections,
      next_steps: nextSteps,
      longest_rep_run: longestRun === null ? null : runMoment(longestRun),
      last_rep_sentence: lastRep === undefined ? null : momentOfSentence(lastRep),
      rep_words: repWords,
      buyer_words: buyerWords,
      rep_fillers: fillers
    }
  }
}
