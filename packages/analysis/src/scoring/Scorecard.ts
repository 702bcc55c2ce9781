/**
 * The scorecard (docs/method.md step 7): six dimensions, each 0–100 or `null` when it cannot be
 * assessed, and an evidence item for every point added or removed. Pure and deterministic: the same
 * turns and metrics always give the same scores and the same evidence, in the same order.
 *
 * Without a transcript only two dimensions can be judged from who spoke when: **Listening** and
 * **Conversation flow**. Discovery, Objection handling, Value and Next steps need the words; they are
 * `null`, `assessed: false`, with a reason that starts "needs a transcript". With a transcript
 * (`content`, from `Content.ts`) they are assessed from what was said, and every one of their
 * evidence items quotes the words it points at (speaker and time span of those words).
 *
 * An assessed dimension starts at {@link SCORE_BASE} (50) and each rule adds or removes points
 * (rounded to whole points). Every rule's range is chosen so a dimension spans exactly 0–100, so
 * the score is always `50 + the sum of its evidence effects` (no clamping hides a point).
 *
 * Values are taken from `metrics` (the numbers the report shows); a metric that is `null` is
 * derived from `speaker_turns` with the definitions of docs/method.md step 6. The moments evidence
 * points at are always found in `speaker_turns`. The rep is the side whose role is `rep`; the buyer
 * side is everyone else. A call where one side was never heard cannot be scored on listening or
 * flow (the reason says so).
 *
 * `talk_ratio` is a fraction (0–1), as in the metrics.
 *
 * This module composes the scorecard (`scoreCall`) from its parts, one concept each:
 * `Dimensions.ts` (names, labels, weights, the overall score and its basis), `Rules.ts` (the rule
 * table, with its points and references), `Moments.ts` (what the evidence points at in the turns),
 * `TurnScoring.ts` (Listening and Conversation flow), `ContentScoring.ts` (the dimensions scored
 * from the words), `Evidence.ts` (applied rules and their evidence items) and `Explanations.ts`
 * (the report's text for each evidence item).
 */
import type { ContentAnalysis } from "../text/Content.js"
import type { EvidenceItem, Metrics, ScoredCall, SpeakerSummary, Turn } from "../Types.js"
import { contentRules } from "./ContentScoring.js"
import {
  type CallTypeName,
  DIMENSION_WEIGHTS,
  DIMENSIONS,
  type DimensionName,
  NEEDS_TRANSCRIPT,
  notApplicable,
  overallBasis,
  overallScore,
  SCORE_BASE,
  weightsFor
} from "./Dimensions.js"
import type { Applied, NotAssessed } from "./Evidence.js"
import { type CallMoments, findMoments } from "./Moments.js"
import { conversationFlow, listening } from "./TurnScoring.js"

export interface ScoreInput {
  readonly metrics: Metrics
  readonly speaker_turns: ReadonlyArray<Turn>
  readonly speakers: ReadonlyArray<SpeakerSummary>
  readonly duration_s: number
  /** What the words say (`Content.ts`); without it the content dimensions are not assessed. */
  readonly content?: ContentAnalysis | null
  /** The call's type (given or detected): its weights (`CALL_TYPE_WEIGHTS`); unknown, the default ones. */
  readonly call_type?: CallTypeName | null
}

interface DimensionResult {
  readonly dimension: DimensionName
  readonly score: number | null
  readonly assessed: boolean
  readonly weight: number
  readonly reason: string | null
}

const assess = (
  dimension: DimensionName,
  mo: CallMoments,
  rules: () => Array<Applied> | NotAssessed
): { result: DimensionResult; evidence: ReadonlyArray<EvidenceItem> } => {
  const weight = DIMENSION_WEIGHTS[dimension]
  const notAssessed = (reason: string) => ({
    result: { dimension, score: null, assessed: false, weight, reason },
    evidence: []
  })
  if (!mo.hasRep && !mo.hasBuyer) return notAssessed("no speech was found")
  if (!mo.hasRep) return notAssessed("needs both sides: no speaker was identified as the rep")
  if (!mo.hasBuyer) return notAssessed("needs both sides: only the rep was heard")
  const applied = rules()
  if (!Array.isArray(applied)) return notAssessed(applied.notAssessed)
  if (applied.length === 0) return notAssessed("the metrics it needs could not be measured")
  const evidence = applied.flatMap((a) => a.evidence)
  const score = SCORE_BASE + evidence.reduce((sum, e) => sum + e.effect, 0)
  return {
    result: {
      dimension,
      score: Math.min(100, Math.max(0, score)),
      assessed: true,
      weight,
      reason: applied.map((a) => a.summary).join("; ")
    },
    evidence
  }
}

/**
 * Score a call from its acoustic analysis and, when there is one, its content analysis. Pure: no
 * clock, no randomness; evidence in dimension order, then rule order, then time.
 */
export const scoreCall = (input: ScoreInput): ScoredCall => {
  const duration = Number.isFinite(input.duration_s) && input.duration_s > 0 ? input.duration_s : 0
  const mo = findMoments(input)
  const content = input.content ?? null
  const evidence: Array<EvidenceItem> = []
  const dimensions: Array<DimensionResult> = DIMENSIONS.map((dimension) => {
    if (dimension === "listening" || dimension === "conversation_flow") {
      const r = assess(dimension, mo, () =>
        dimension === "listening" ? listening(input.metrics, mo, duration) : conversationFlow(input.metrics, mo, duration)
      )
      evidence.push(...r.evidence)
      return r.result
    }
    if (content !== null) {
      const r = assess(dimension, mo, () => contentRules(dimension, content, duration))
      evidence.push(...r.evidence)
      return r.result
    }
    return {
      dimension,
      score: null,
      assessed: false,
      weight: DIMENSION_WEIGHTS[dimension],
      reason: NEEDS_TRANSCRIPT[dimension]
    }
  })
  const scored = { scorecard: { overall: overallScore(dimensions), overall_basis: overallBasis(dimensions), dimensions }, evidence }
  return input.call_type === undefined || input.call_type === null ? scored : byCallType(scored, input.call_type)
}

/**
 * A scored call weighed for its type (docs/method.md, "Weights by call type"): each dimension
 * takes the type's weight; one that does not apply to the type (weight 0) is not assessed, with
 * the reason, its evidence is left out, and the overall score and its basis are taken again. The
 * same for the rules' scoring and for one an LLM's findings were merged into.
 */
export const byCallType = (scored: ScoredCall, type: CallTypeName | null): ScoredCall => {
  const weights = weightsFor(type)
  const dimensions = scored.scorecard.dimensions.map((d) => {
    const reason = notApplicable(type, d.dimension)
    return reason === undefined
      ? { ...d, weight: weights[d.dimension] }
      : { dimension: d.dimension, score: null, assessed: false, weight: 0, reason }
  })
  const left = new Set(dimensions.filter((d) => !(d.weight > 0)).map((d) => d.dimension as string))
  return {
    scorecard: { overall: overallScore(dimensions), overall_basis: overallBasis(dimensions), dimensions },
    evidence: scored.evidence.filter((e) => !left.has(e.dimension))
  }
}
