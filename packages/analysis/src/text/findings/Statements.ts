/**
 * What one sentence states, as the findings read it: the objection a buyer sentence raises, a
 * problem stated (a pain), a business figure and a metric. Shared by the objections, the pains, the
 * value claims and the qualification.
 */
import { actsIn } from "../Commitments.js"
import { METRIC_UNITS, type NumberMention } from "../lexicon/Numbers.js"
import { objectionKind } from "../lexicon/Objections.js"
import { APPROVAL, BURDEN, hasPainCue, METRIC_CUES, PROPORTION } from "../lexicon/Value.js"
import { CATEGORY_KIND, experienceOf, isSettled, pushbackOf } from "../Pushback.js"
import type { Sentence } from "../Sentences.js"
import type { ObjectionItem } from "../../Types.js"

/** A number that is a business figure: with a unit such as %, $, days or reps, or 1,000 and more. */
export const isBusinessNumber = (n: NumberMention) => (n.unit !== null && METRIC_UNITS.has(n.unit)) || n.value >= 1000

/**
 * The objection a buyer sentence raises: push-back in negotiation language first (`Pushback.ts`,
 * with its finer category), else the early-stage lexicon (`objectionKind`, its kind as category).
 * A sentence that only tells what happened ("the field team stopped after the reorg", "we did a
 * trial with another company in 2021") raises no push-back, and no early-stage timing or need
 * objection: every verb in it is past.
 */
const PROPOSAL = /^(let us|lets|let's)\s/

export const objectionOf = (s: Sentence): { kind: ObjectionItem["kind"]; category: string } | null => {
  const narrative = () => {
    const acts = actsIn(s.tokens)
    return acts.length > 0 && acts.every((a) => a.past)
  }
  if (isSettled(s.plain)) return null
  const category = pushbackOf(s.plain)
  if (category !== null) {
    // told in the past: only a bad experience or a concern someone reported still stands
    if (narrative() && experienceOf(s.plain) === null) return null
    return { kind: CATEGORY_KIND[category], category }
  }
  const kind = objectionKind(s.plain)
  if (kind === null) return null
  // the buyer proposing a step ("let's look at that together after the quarter ends") puts nothing off
  if (kind === "timing" && PROPOSAL.test(s.plain)) return null
  if ((kind === "timing" || kind === "need") && narrative()) return null
  return { kind, category: kind }
}

export const objectionSentences = (sentences: ReadonlyArray<Sentence>) =>
  new Set(sentences.filter((s) => s.side === "buyer" && objectionOf(s) !== null).map((s) => s.index))

/**
 * A sentence that states a problem: a pain cue, once negated problems and turns of phrase are set
 * aside ("I don't have a problem to solve", "here's my problem though", "switching is a pain"), or
 * a figure that is a burden without any pain word (time or people taken up, a share of the day,
 * failures counted, seats paid for against seats used: `BURDEN`).
 */
export const statesPain = (s: Sentence): boolean =>
  hasPainCue(s.plain) || ((s.numbers.length > 0 || PROPORTION.test(s.plain)) && BURDEN.test(s.plain))

/** A buyer sentence whose figures are business metrics: a metric word or a stated problem, and not who approves. */
export const statesMetric = (s: Sentence): boolean => (METRIC_CUES.test(s.plain) || statesPain(s)) && !APPROVAL.test(s.plain)
