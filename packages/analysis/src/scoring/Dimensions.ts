/**
 * The dimensions of the scorecard: their names in the order they are reported, labels, weights,
 * where an assessed one starts, why one is not assessed without a transcript, and the overall
 * score with its basis.
 */
import { type CallTypeName, ScorecardDimensionName } from "@callsight/api-spec"

export type DimensionName = typeof ScorecardDimensionName.Type
export type CallTypeName = typeof CallTypeName.Type

/** The dimensions in the order they are reported. */
export const DIMENSIONS: ReadonlyArray<DimensionName> = ScorecardDimensionName.literals

export const DIMENSION_LABELS: Readonly<Record<DimensionName, string>> = {
  discovery: "Discovery",
  listening: "Listening",
  objection_handling: "Objection handling",
  value: "Value",
  next_steps: "Next steps",
  conversation_flow: "Conversation flow"
}

/**
 * Weights of the overall score (they sum to 1). The overall score is the weighted mean of the
 * assessed dimensions only: the weights of the assessed ones are renormalised.
 */
export const DIMENSION_WEIGHTS: Readonly<Record<DimensionName, number>> = {
  discovery: 0.2,
  listening: 0.2,
  objection_handling: 0.15,
  value: 0.15,
  next_steps: 0.15,
  conversation_flow: 0.15
}

/**
 * The weights of each type of call (docs/method.md, "Weights by call type", gives the reason for
 * each): every row sums to 1; `DIMENSION_WEIGHTS` are those of a call of unknown type. A weight of
 * 0 means the dimension does not apply to that type of call: it is not assessed (score null, the
 * reason in `NOT_APPLICABLE`) and left out of the overall score and of its basis.
 */
export const CALL_TYPE_WEIGHTS: Readonly<Record<CallTypeName, Readonly<Record<DimensionName, number>>>> = {
  // earn the next conversation: handle the brush-off, book the meeting; a few qualifying questions
  cold_call: { discovery: 0.15, listening: 0.15, objection_handling: 0.25, value: 0.15, next_steps: 0.2, conversation_flow: 0.1 },
  // the buyer's situation, pains and numbers, heard out
  discovery: { discovery: 0.35, listening: 0.25, objection_handling: 0.1, value: 0.1, next_steps: 0.1, conversation_flow: 0.1 },
  // the product tied to the pains already found, and an agreed way on (trial, proposal, stakeholders)
  demo: { discovery: 0.15, listening: 0.15, objection_handling: 0.15, value: 0.25, next_steps: 0.2, conversation_flow: 0.1 },
  // the terms: push-back handled, value held against the discount, a signature date with an owner
  negotiation: { discovery: 0, listening: 0.15, objection_handling: 0.25, value: 0.15, next_steps: 0.35, conversation_flow: 0.1 },
  // the uplift or churn risk handled, the value realised, the renewal dated and owned
  renewal: { discovery: 0.15, listening: 0.15, objection_handling: 0.2, value: 0.15, next_steps: 0.25, conversation_flow: 0.1 },
  // an existing customer: heard out first, the issue and any expansion followed up
  support_upsell: { discovery: 0.15, listening: 0.3, objection_handling: 0.15, value: 0.1, next_steps: 0.2, conversation_flow: 0.1 }
}

/** Why a dimension of weight 0 does not apply to a type of call. */
export const NOT_APPLICABLE: Readonly<Partial<Record<CallTypeName, Readonly<Partial<Record<DimensionName, string>>>>>> = {
  negotiation: {
    discovery: "does not apply to a negotiation call: the buyer's pains, numbers and decision process were found before the " +
      "terms were on the table; the call is judged on the push-back, the value held and the close"
  }
}

/** The weights of a call of this type; of a call of unknown type (`null`), the default ones. */
export const weightsFor = (type: CallTypeName | null | undefined): Readonly<Record<DimensionName, number>> =>
  type === null || type === undefined ? DIMENSION_WEIGHTS : CALL_TYPE_WEIGHTS[type]

/** Why a dimension does not apply to a type of call; undefined where it applies. */
export const notApplicable = (type: CallTypeName | null | undefined, dimension: DimensionName): string | undefined =>
  type === null || type === undefined || CALL_TYPE_WEIGHTS[type][dimension] > 0
    ? undefined
    : NOT_APPLICABLE[type]?.[dimension] ?? `does not apply to a ${type.replace("_", " ")} call`

/** Where an assessed dimension starts before its rules add or remove points. */
export const SCORE_BASE = 50

/** Why the content dimensions are not assessed without a transcript. */
export const NEEDS_TRANSCRIPT: Readonly<Record<DimensionName, string>> = {
  discovery: "needs a transcript: questions, pains and metrics are found in the words",
  listening: "needs a transcript",
  objection_handling: "needs a transcript: objections and the rep's responses are found in the words",
  value: "needs a transcript: the rep's claims are matched to the buyer's stated pains and numbers",
  next_steps: "needs a transcript: a concrete, dated next step with an owner is found in the words",
  conversation_flow: "needs a transcript"
}

/**
 * The dimensions judged from the words: without a transcript they are not assessed (their reason
 * starts "needs a transcript"); Listening and Conversation flow are judged from who spoke when.
 */
export const TRANSCRIPT_DIMENSIONS: ReadonlyArray<DimensionName> = ["discovery", "objection_handling", "value", "next_steps"]

/** Under this many assessed dimensions the overall score is partial: shown "partial (n of 6)", without a grade. */
export const FULL_BASIS_MIN = 4

/** How many dimensions the overall score rests on, and whether that makes it partial. */
export const overallBasis = (
  dimensions: ReadonlyArray<{ readonly assessed: boolean; readonly score: number | null; readonly weight?: number }>
): { readonly assessed: number; readonly of: number; readonly partial: boolean } => {
  const assessed = dimensions.filter((d) => d.assessed && d.score !== null).length
  // a dimension that does not apply to the call's type (weight 0) is not part of the basis
  const of = dimensions.filter((d) => d.weight === undefined || d.weight > 0).length
  return { assessed, of, partial: assessed < FULL_BASIS_MIN }
}

/** The weighted mean of the assessed dimensions (rounded to a whole point), or null if none is. */
export const overallScore = (
  dimensions: ReadonlyArray<{ readonly score: number | null; readonly weight: number }>
): number | null => {
  let weighted = 0
  let weights = 0
  for (const d of dimensions) {
    if (d.score === null || !(d.weight > 0)) continue
    weighted += d.score * d.weight
    weights += d.weight
  }
  return weights > 0 ? Math.round(weighted / weights) : null
}
