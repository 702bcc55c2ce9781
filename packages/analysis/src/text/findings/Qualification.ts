/**
 * The qualification checklist (see `Content.ts`, "Qualification"): each element of the framework
 * scored 0, 1 or 2 on the sentences that match its cue, with the earliest best sentence as evidence.
 */
import { MONEY_UNITS } from "../lexicon/Numbers.js"
import {
  CHAMPION_ACTION,
  DATES,
  FRAMEWORK_ELEMENTS,
  FIRM_REQUIREMENT,
  isAuthorityStatement,
  NAMED_COMPETITORS,
  PARTIES,
  partiesIn,
  QUALIFICATION_CUES,
  type QualificationElementName,
  type Specific,
  TITLES
} from "../lexicon/Qualification.js"
import { APPROVAL, BACK_REFERENCE, NOT_PAIN, SHARE } from "../lexicon/Value.js"
import { runsOf, type Sentence } from "../Sentences.js"
import type { Framework } from "../Transcript.js"
import { isBusinessNumber, statesMetric } from "./Statements.js"
import type { EvidenceItem, QualificationResult } from "../../Types.js"

/** A threshold in a process ("anything over fifty thousand", "before we go live"). */
const THRESHOLD = /(?:^|\s)(?:anything|everything|purchases?|spend) (?:over|above|under|below|more than)(?=\s|$)|(?:^|\s)(?:before|until) (?:we|you|they|it) (?:go live|sign|start|roll out)(?=\s|$)/

const hasSpecific = (s: Sentence, kinds: ReadonlyArray<Specific>): boolean =>
  kinds.some((k) => {
    switch (k) {
      case "number":
        return s.numbers.length > 0
      case "money":
        return s.numbers.some((n) => (n.unit !== null && MONEY_UNITS.has(n.unit)) || n.value >= 1000)
      case "business":
        return s.numbers.some(isBusinessNumber) || SHARE.test(s.plain)
      case "party":
        return PARTIES.test(s.plain) || TITLES.test(s.plain)
      case "date":
        return DATES.test(s.plain)
      case "competitor":
        return NAMED_COMPETITORS.test(s.plain)
      case "authority":
        return isAuthorityStatement(s.plain)
      case "firm":
        return FIRM_REQUIREMENT.test(s.plain)
      case "action":
        return CHAMPION_ACTION.test(s.plain)
      case "comparison":
        return s.numbers.some((n) => n.unit === "percent" || (n.unit !== null && MONEY_UNITS.has(n.unit)))
      case "steps": {
        // two parties or steps of the process, or one with a date or a threshold; who signs up to what is the economic buyer's evidence, not steps
        if (isAuthorityStatement(s.plain)) return false
        const parties = partiesIn(s.plain)
        return parties.size >= 2 || (parties.size === 1 && (DATES.test(s.plain) || THRESHOLD.test(s.plain) || s.numbers.some(isBusinessNumber)))
      }
    }
  })

const isSpecificFor = (element: QualificationElementName, s: Sentence): boolean => hasSpecific(s, QUALIFICATION_CUES[element].specific)

/**
 * Whether a sentence touches an element. Pains (identify pain, need) are the call's pains
 * (`painSentences`: the rules' and the learned model's); Metrics are a
 * metric word or a stated problem; a sentence about who approves is neither Metrics nor a criterion.
 */
const cuedFor = (element: QualificationElementName, cue: RegExp, s: Sentence, pains: ReadonlySet<number>): boolean => {
  switch (element) {
    case "identify_pain":
      return pains.has(s.index)
    case "need":
      return pains.has(s.index) || cue.test(s.plain.replace(NOT_PAIN, " "))
    case "metrics":
      return statesMetric(s)
    case "decision_criteria":
      return cue.test(s.plain) && !APPROVAL.test(s.plain)
    default:
      return cue.test(s.plain)
  }
}

export const qualificationOf = (framework: Framework, sentences: ReadonlyArray<Sentence>, pains: ReadonlySet<number>): QualificationResult => {
  const runs = runsOf(sentences)
  return {
    framework,
    elements: FRAMEWORK_ELEMENTS[framework].map((element) => {
      const { cue, from } = QUALIFICATION_CUES[element]
      let best: { s: Sentence; score: 1 | 2 } | null = null
      for (const s of sentences) {
        // the rep restating the buyer's figures ("you said an hour of downtime costs you twenty thousand") shows the metric is known
        const restated = element === "metrics" && s.side === "rep" && !s.question && BACK_REFERENCE.test(s.plain)
        if (from === "buyer" && s.side !== "buyer" && !restated) continue
        if (from === "rep_question" && !(s.side === "rep" && s.question)) continue
        if (!cuedFor(element, cue, s, pains) && !restated) continue
        const evidence = from === "rep_question" ? runs[s.run + 1] ?? [] : [s]
        const score: 1 | 2 = evidence.some((e) => isSpecificFor(element, e)) ? 2 : 1
        if (best === null || score > best.score) best = { s, score }
        if (score === 2) break
      }
      const evidence: EvidenceItem | null = best === null
        ? null
        : { dimension: "qualification", start: best.s.start, end: best.s.end, speaker: best.s.speaker, quote: best.s.quote, effect: best.score }
      return { element, score: best?.score ?? 0, evidence }
    })
  }
}
