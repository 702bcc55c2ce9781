/**
 * What the buyer tells of their business: the sentences that state the call's pains (the rules'
 * and the learned pain model's), and the buyer's business numbers.
 */
import type { NumberMention } from "../lexicon/Numbers.js"
import type { Moment } from "../Moment.js"
import { bySpeaker, momentOfSentence, runsOf, type Sentence } from "../Sentences.js"
import { isBusinessNumber, objectionSentences, statesMetric, statesPain } from "./Statements.js"
import { PAIN_MODEL } from "../../models/PainModel.js"
import { likeliest } from "../../models/TurnModel.js"

export interface Quantity {
  readonly value: number
  readonly unit: string | null
}

/** A buyer sentence with a pain cue, or with a business number; the numbers it holds. */
export interface BuyerFinding extends Moment {
  readonly numbers: ReadonlyArray<Quantity>
}

const quantities = (numbers: ReadonlyArray<NumberMention>): Array<Quantity> => numbers.map((n) => ({ value: n.value, unit: n.unit }))

/**
 * The sentences that tell the call's pains: each buyer sentence that states one (objections excluded); and where a
 * buyer's turn states none, the learned model (`PainModel.ts`) may hear one, at the sentence it
 * finds most likely.
 */
export const painSentences = (sentences: ReadonlyArray<Sentence>): Array<Sentence> => {
  const objections = objectionSentences(sentences)
  const runs = runsOf(sentences)
  const told = runs.flatMap((run, r) => {
    if (run[0]!.side !== "buyer") return []
    const repBefore = runs[r - 1]?.[0]?.side === "rep" ? runs[r - 1]! : []
    return bySpeaker(run).flatMap((voice) => {
      const heard = voice.filter((s) => !objections.has(s.index))
      const stated = heard.filter(statesPain)
      if (stated.length > 0) return stated
      const heardOnly = likeliest(heard, repBefore, PAIN_MODEL)
      return heardOnly === null ? [] : [heardOnly]
    })
  })
  return told
}

export const painOf = (s: Sentence): BuyerFinding => ({ ...momentOfSentence(s), numbers: quantities(s.numbers) })

export const findBusinessNumbers = (sentences: ReadonlyArray<Sentence>): Array<BuyerFinding> =>
  sentences
    .filter((s) => s.side === "buyer" && s.numbers.some(isBusinessNumber) && statesMetric(s))
    .map((s) => ({ ...momentOfSentence(s), numbers: quantities(s.numbers.filter(isBusinessNumber)) }))
