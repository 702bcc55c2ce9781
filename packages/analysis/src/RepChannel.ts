/**
 * Which channel of a stereo call carries the rep when the upload (or the tenant) says `auto`
 * (docs/method.md, "The rep's channel"). The acoustic stage has already chosen by the acoustic
 * cues (`assignRolesByCues`: who spoke first, whose turns end like questions); once the words are
 * there, they decide instead:
 *
 * - **who asks the questions**: each channel's share of the call's questions (a sentence ending in
 *   "?", or opening with a question word or an auxiliary and a subject, `isQuestion`; without
 *   punctuation a sentence ends where the sentence-end model reads an end, `sentencesOfText`), weight 0.6;
 * - **who names the price**: each channel's share of the sentences that put a money figure on the
 *   offer ("it's 450 dollars a month", "the licence is £12 per user"), weight 0.4.
 *
 * A cue with nothing to count (no question, no price named) weighs nothing; with neither, the
 * acoustic choice stands and the reason says so. The reason names the counts and which cue won
 * when they disagree.
 */
import { findNumbers, MONEY_UNITS } from "./text/lexicon/Numbers.js"
import { isQuestion } from "./text/lexicon/Questions.js"
import { tokenize } from "./text/lexicon/Tokens.js"
import { sentencesOfText } from "./text/Sentences.js"
import type { AcousticAnalysis, RepChannelDecision } from "./Types.js"

export const QUESTION_WEIGHT = 0.6
export const PRICE_WEIGHT = 0.4

type Channel = "left" | "right"

/** What each channel said that tells the rep: questions asked, prices named. */
export interface ChannelWordCues {
  readonly questions: number
  readonly prices: number
}

/** Words that put a money figure on the offer rather than on the buyer's own costs. */
const OFFER = /\b(price|priced|pricing|cost|costs|per (month|year|user|seat|site|licence|license|head)|a (month|year|seat|user)|monthly|annually|licen[cs]e|subscription|plan|fee|quote|discount|list)\b/

/** Whether a sentence names a price: a money figure with a word of pricing. */
export const namesPrice = (sentence: string): boolean => {
  const tokens = tokenize(sentence)
  const money = findNumbers(tokens).some((n) => n.unit !== null && MONEY_UNITS.has(n.unit))
  return money && OFFER.test(tokens.map((t) => t.word).join(" "))
}

/** The cues of each channel (S1 left, S2 right, as `diarizeChannels` names them) from the transcript's segments. */
export const wordCues = (
  segments: ReadonlyArray<{ readonly speaker: string; readonly text: string }>
): Record<Channel, ChannelWordCues> => {
  const count = { left: { questions: 0, prices: 0 }, right: { questions: 0, prices: 0 } }
  for (const seg of segments) {
    const channel = seg.speaker === "S1" ? "left" : seg.speaker === "S2" ? "right" : null
    if (channel === null) continue
    for (const s of sentencesOfText(seg.text)) {
      if (isQuestion(tokenize(s))) count[channel].questions++
      if (namesPrice(s)) count[channel].prices++
    }
  }
  return count
}

/**
 * The rep's channel by the words; null when they tell nothing (no question and no price), so the
 * acoustic choice stands.
 */
export const decideByWords = (cues: Record<Channel, ChannelWordCues>): { readonly chosen: Channel; readonly confidence: number; readonly reason: string } | null => {
  const questions = cues.left.questions + cues.right.questions
  const prices = cues.left.prices + cues.right.prices
  if (questions === 0 && prices === 0) return null
  const share = (n: number, of: number) => (of === 0 ? 0.5 : n / of)
  const weightQ = questions === 0 ? 0 : QUESTION_WEIGHT
  const weightP = prices === 0 ? 0 : PRICE_WEIGHT
  const score = (c: Channel) =>
    (weightQ * share(cues[c].questions, questions) + weightP * share(cues[c].prices, prices)) / (weightQ + weightP)
  const left = score("left")
  const right = score("right")
  if (left === right) return null
  const chosen: Channel = right > left ? "right" : "left"
  const other: Channel = chosen === "left" ? "right" : "left"
  const asks = questions === 0 ? null : cues[chosen].questions >= cues[other].questions
  const prices_ = prices === 0 ? null : cues[chosen].prices >= cues[other].prices
  const parts = [
    questions === 0 ? "no questions were asked" : `the ${chosen} channel asked ${cues[chosen].questions} of the ${questions} questions`,
    prices === 0 ? "no price was named" : `named the price ${cues[chosen].prices} of ${prices} times`
  ]
  const won = asks === false ? "; the price named outweighed the questions" : prices_ === false ? "; the questions outweighed the price named" : ""
  return {
    chosen,
    confidence: Math.round(Math.min(0.95, 0.5 + Math.abs(right - left) / 2) * 100) / 100,
    reason: `auto, from the words: ${parts.join(" and ")}${won}`
  }
}

/**
 * The acoustic analysis with the rep on the channel the words choose (`auto` only; a channel set
 * by the upload or the tenant stands): the roles of the two channels swapped when the words
 * disagree with the acoustic cues, the decision and its reason in `rep_channel`. `metricsOf`
 * re-derives the metrics that depend on who the rep is.
 */
export const settleRepChannel = (
  acoustic: AcousticAnalysis,
  segments: ReadonlyArray<{ readonly speaker: string; readonly text: string }>,
  metricsOf: (turns: AcousticAnalysis["speaker_turns"]) => AcousticAnalysis["metrics"]
): AcousticAnalysis => {
  const decision = acoustic.rep_channel ?? null
  if (decision === null || decision.requested !== "auto" || acoustic.speakers.length !== 2) return acoustic
  const byWords = decideByWords(wordCues(segments))
  if (byWords === null) {
    return { ...acoustic, rep_channel: { ...decision, reason: `${decision.reason}; the words named no price and asked no question` } }
  }
  const repLabel = byWords.chosen === "left" ? "S1" : "S2"
  const role = (speaker: string) => (speaker === repLabel ? ("rep" as const) : ("buyer" as const))
  const turns = acoustic.speaker_turns.map((t) => ({ ...t, role: role(t.speaker) }))
  const rep_channel: RepChannelDecision = { requested: "auto", chosen: byWords.chosen, reason: byWords.reason }
  return {
    ...acoustic,
    speakers: acoustic.speakers.map((s) => ({ ...s, role: role(s.speaker), role_confidence: byWords.confidence })),
    speaker_turns: turns,
    metrics: byWords.chosen === decision.chosen ? acoustic.metrics : metricsOf(turns),
    rep_channel
  }
}
