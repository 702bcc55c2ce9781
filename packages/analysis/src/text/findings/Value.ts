/**
 * The rep's value claims: value language or a relative figure (the rules), or what the value model
 * hears, each tied to the buyer's words it answers (a number, a back reference, a pain).
 */
import type { NumberMention } from "../lexicon/Numbers.js"
import { APPLIED_FIGURE, BACK_REFERENCE, PAIN_CUES, RELATIVE_VALUE, VALUE_CUES } from "../lexicon/Value.js"
import { type Moment, stripMoment } from "../Moment.js"
import { momentOfSentence, runsOf, type Sentence } from "../Sentences.js"
import type { BuyerFinding } from "./Pains.js"
import { isBusinessNumber } from "./Statements.js"
import { likeliest } from "../../models/TurnModel.js"
import { VALUE_MODEL } from "../../models/ValueModel.js"

export interface ValueClaim extends Moment {
  /** The buyer's words the claim is tied to, or null for a generic claim. */
  readonly linked_to: Moment | null
  readonly link: "number" | "back_reference" | "pain" | null
  /** The claim has a number of its own (a payback time, a saving). */
  readonly quantified: boolean
}

/** Numbers of the buyer worth tying a claim to: business figures, or counts over a dozen. */
const isSignificant = (n: NumberMention) => isBusinessNumber(n) || n.value > 12

/** A before/after in numbers: "close went from ten days to six", "from forty minutes down to about six". */
const beforeAfter = (s: Sentence): boolean =>
  s.numbers.some((a, i) => {
    const before = s.tokens.slice(Math.max(0, a.from - 3), a.from).map((t) => t.word)
    if (!before.includes("from")) return false
    return s.numbers.slice(i + 1).some((b) => b.from - a.to <= 6 && s.tokens.slice(Math.max(a.to, b.from - 3), b.from).some((t) => t.word === "to"))
  })

/** A result measured in a trial, with its figure: "during the pilot, the median time to notice was six minutes". */
const TRIAL_RESULT = /(?:^|\s)(?:during|after|since|over|in) the (?:pilot|trial|test|rollout|first [a-z]+ weeks?)(?=\s|$)/

/**
 * The rep's value claims: value language (`VALUE_CUES`), or a relative figure that answers what
 * the buyer said (`RELATIVE_VALUE`: a share of time or cost taken off, a ratio, capacity that
 * covers growth; a before/after in numbers; a trial's measured result; the rep's figure applied to
 * the buyer's own number). Questions are not claims, nor features described without a figure.
 * A claim is tied to the buyer's words by a number they said, a back-reference ("you told me…")
 * in the claim or earlier in the rep's run, or a pain stated before (a relative figure, or pain
 * words, answer the last pain). With a back-reference and no pain stated in this call (a pain from
 * an earlier call), the rep's restatement of the buyer's words is what the claim is tied to.
 */
export const findValueClaims = (sentences: ReadonlyArray<Sentence>, pains: ReadonlyArray<BuyerFinding>): Array<ValueClaim> => {
  const claimed = sentences.flatMap((s) => {
    const c = s.side === "rep" && !s.question ? claimAt(s, sentences, pains, false) : null
    return c === null ? [] : [{ s, c }]
  })
  // a rep's run with no claim the rules hear: the learned model (`ValueModel.ts`) may hear one, at its most likely sentence
  const runs = runsOf(sentences)
  const learned = runs.flatMap((run, r) => {
    if (run[0]!.side !== "rep" || claimed.some((x) => x.s.run === run[0]!.run)) return []
    const heard = run.filter((s) => !s.question)
    const buyerBefore = runs[r - 1]?.[0]?.side === "buyer" ? runs[r - 1]! : []
    const s = likeliest(heard, buyerBefore, VALUE_MODEL)
    const c = s === null ? null : claimAt(s, sentences, pains, true)
    return s === null || c === null ? [] : [{ s, c }]
  })
  return [...claimed, ...learned].sort((a, b) => a.s.index - b.s.index).map((x) => x.c)
}

/**
 * A rep sentence as a value claim, tied to the buyer's words it answers: a figure of the buyer's it
 * repeats, a back reference ("that's the problem you mentioned") or the pain just before; null when
 * the rules hear no claim in it (a value word, a relative figure, a figure of the buyer's applied),
 * unless the learned model already did (`learned`).
 */
const claimAt = (s: Sentence, sentences: ReadonlyArray<Sentence>, pains: ReadonlyArray<BuyerFinding>, learned: boolean): ValueClaim | null => {
  const cue = VALUE_CUES.test(s.plain)
  const relative = RELATIVE_VALUE.test(s.plain) || beforeAfter(s) || (s.numbers.length > 0 && TRIAL_RESULT.test(s.plain))
  const own = s.numbers.filter(isSignificant).map((n) => n.value)
  const earlier = sentences.filter((b) => b.side === "buyer" && b.end <= s.start)
  const byNumber = own.length === 0 ? undefined : earlier.find((b) => b.numbers.some((n) => isSignificant(n) && own.includes(n.value)))
  const applied = byNumber !== undefined && APPLIED_FIGURE.test(s.plain)
  if (!learned && !cue && !relative && !applied) return null
  const painBefore = [...pains].reverse().find((p) => p.end <= s.start) ?? null
  const backRef = BACK_REFERENCE.test(s.plain)
    ? s
    : sentences.find((r) => r.run === s.run && r.index < s.index && BACK_REFERENCE.test(r.plain)) ?? null
  let linked_to: Moment | null = null
  let link: ValueClaim["link"] = null
  if (byNumber !== undefined) {
    linked_to = momentOfSentence(byNumber)
    link = "number"
  } else if (backRef !== null && (painBefore !== null || relative)) {
    linked_to = painBefore ?? momentOfSentence(backRef)
    link = "back_reference"
  } else if (painBefore !== null && (relative || applied || PAIN_CUES.test(s.plain) || (learned && answersRun(painBefore, s, sentences)))) {
    linked_to = painBefore
    link = "pain"
  }
  return { ...momentOfSentence(s), linked_to: linked_to === null ? null : stripMoment(linked_to), link, quantified: s.numbers.length > 0 || relative }
}

/** The pain was told in the buyer's run just before the rep's run that holds the claim: the claim answers it. */
const answersRun = (pain: Moment, claim: Sentence, sentences: ReadonlyArray<Sentence>): boolean =>
  sentences.some((b) => b.run === claim.run - 1 && b.side === "buyer" && b.start <= pain.start && pain.start < b.end)
