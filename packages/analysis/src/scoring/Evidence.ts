/**
 * Applied rules and their evidence, shared by the scoring of the dimensions and the report's
 * explanations: a rule looked up by id, whole points and per-event effects, what a dimension's
 * rules give (or why it is not assessed), evidence items on a span, and the formats of their
 * summaries.
 */
import type { EvidenceItem } from "../Types.js"
import type { DimensionName } from "./Dimensions.js"
import type { Span } from "./Moments.js"
import { type RuleId, SCORING_RULES, type ScoringRule } from "./Rules.js"

export const rule = (id: RuleId): ScoringRule => SCORING_RULES.find((r) => r.id === id)!

/** Whole points, rounded half away from zero (so +2.5 and −2.5 are symmetric), never −0. */
export const roundPoints = (x: number): number => {
  const r = Math.sign(x) * Math.round(Math.abs(x))
  return r === 0 ? 0 : r
}

export interface Applied {
  readonly rule: RuleId
  readonly summary: string
  readonly evidence: ReadonlyArray<EvidenceItem>
  /** A description of each evidence item (content rules), for the report. */
  readonly texts?: ReadonlyArray<string>
}

/** Not assessed, with the reason. */
export interface NotAssessed {
  readonly notAssessed: string
}

export const round1 = (x: number) => Math.round(x * 10) / 10
export const fmtS = (s: number) => (s < 10 ? `${round1(s)} s` : `${Math.round(s)} s`)
export const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0")

export const clampSpan = (span: Span, duration: number): Span => {
  const d = duration > 0 && Number.isFinite(duration) ? duration : Math.max(span.end, 0)
  // rounded to the millisecond, then clamped (rounding must not push an end past the call)
  const start = Math.min(Math.max(round3(span.start), 0), d)
  const end = Math.min(Math.max(round3(span.end), start), d)
  return { start, end }
}
export const round3 = (x: number) => Math.round(x * 1000) / 1000

export const item = (
  dimension: DimensionName,
  span: Span,
  speaker: string | null,
  effect: number,
  duration: number
): EvidenceItem => ({ dimension, ...clampSpan(span, duration), speaker, quote: null, effect })

/**
 * Per-event effects: `effect` each until the cap is reached (the last one takes the remainder).
 * Works for penalties (negative effect and cap) and rewards alike.
 */
export const perEventEffects = (count: number, { cap, effect }: { effect: number; cap: number }): Array<number> => {
  const out: Array<number> = []
  let sum = 0
  for (let i = 0; i < count; i++) {
    const e = effect < 0 ? Math.max(effect, cap - sum) : Math.min(effect, cap - sum)
    out.push(e === 0 ? 0 : e)
    sum += e
  }
  return out
}
