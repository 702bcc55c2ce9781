/**
 * The dimensions of the scorecard: their names in the order they are reported, labels, weights,
 * where an assessed one starts, why one is not assessed without a transcript, and the overall
 * score with its basis.
 */
import { ScorecardDimensionName } from "@callsight/api-spec"

export type DimensionName = typeof ScorecardDimensionName.Type

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

/** Under this many assessed dimensions the overall score is partial: shown "partial (n of 6)", without a grade. */
export const FULL_BASIS_MIN = 4

/** How many dimensions the overall score rests on, and whether that makes it partial. */
export const overallBasis = (
  dimensions: ReadonlyArray<{ readonly assessed: boolean; readonly score: number | null }>
): { readonly assessed: number; readonly of: number; readonly partial: boolean } => {
  const assessed = dimensions.filter((d) => d.assessed && d.score !== null).length
  return { assessed, of: dimensions.length, partial: assessed < FULL_BASIS_MIN }
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
