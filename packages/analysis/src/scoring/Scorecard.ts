/**
 * The scorecard (ANALYSIS.md step 7): six dimensions, each 0–100 or `null` when it cannot be
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
 * Piecewise-linear rules interpolate between the listed points and stay flat beyond the ends.
 *
 * | dimension         | rule                | input (metric)              | points (input → effect)                                    | range     | evidence points at              |
 * |-------------------|---------------------|-----------------------------|------------------------------------------------------------|-----------|---------------------------------|
 * | listening         | talk_ratio          | `talk_ratio` (rep %)        | 0→−10, 25→0, 38→+25, 48→+25, 65→0, 80→−20                  | −20…+25   | the whole call, the rep         |
 * | listening         | patience            | `patience_s`                | 0.3→−10, 0.6→0, 1.0→+10, 2.5→+10, 4→0                      | −10…+10   | the median buyer→rep hand-off   |
 * | listening         | customer_story      | `longest_customer_story_s`  | 10→−10, 50→0, 90→+15                                       | −10…+15   | the longest buyer stretch       |
 * | listening         | interruptions       | rep turns over the buyer    | −3 each, −10 in total at most                              | −10…0     | each interruption (overlap)     |
 * | conversation_flow | interactivity       | `interactivity` (switch/min)| 1→−25, 2.5→0, 4→+25, 12→+25, 20→+10                        | −25…+25   | the whole call                  |
 * | conversation_flow | longest_monologue   | `longest_monologue_s`       | 60→+25, 120→0, 240→−15                                     | −15…+25   | the longest rep stretch         |
 * | conversation_flow | long_monologues     | other rep stretches > 120 s | −5 each, −10 in total at most                              | −10…0     | each of those stretches         |
 * | discovery         | questions           | rep questions ÷ reference   | 0→−20, 0.5→0, 1→+20 (reference: 11 per 30 min, pro rata)   | −20…+20   | the questions, sharing the points (+); the rep's longest run (−) |
 * | discovery         | open_questions      | open rep questions          | +2 each, +10 in total at most                              | 0…+10     | each open question              |
 * | discovery         | pains               | buyer pains uncovered       | +5 each, +10 at most; none: −15                            | −15…+10   | each pain; the rep's longest run when none |
 * | discovery         | numbers             | buyer business numbers      | +5 each, +10 at most; none: −15                            | −15…+10   | each number; the rep's longest run when none |
 * | objection_handling| objection_question_back | objections answered with a question first | +15 each, +30 at most                  | 0…+30     | the rep's question              |
 * | objection_handling| objection_pause     | rep waited ≥ 1 s to answer  | +10 each, +20 at most                                      | 0…+20     | the rep's first words after it  |
 * | objection_handling| objection_long_pitch| answered with a long pitch  | −25 each, −50 at most                                      | −50…0     | the pitch                       |
 * | value             | value_linked        | claims tied to the buyer    | +20 each, +40 at most                                      | 0…+40     | each claim                      |
 * | value             | value_quantified    | claims with their own number| +5 each, +10 at most                                       | 0…+10     | each claim                      |
 * | value             | value_generic       | claims tied to nothing said | −10 each, −30 at most                                      | −30…0     | each claim                      |
 * | value             | value_missing       | no claim after a stated pain| −20                                                        | −20…0     | the buyer's first pain          |
 * | next_steps        | next_step_dated     | dated next steps            | +20 each, +30 at most                                      | 0…+30     | each step                       |
 * | next_steps        | next_step_owner     | steps with an owner         | +10, once                                                  | 0…+10     | the step                        |
 * | next_steps        | next_step_confirmed | the other side agreed       | +10, once                                                  | 0…+10     | the agreement                   |
 * | next_steps        | no_next_step        | no dated next step at all   | −50                                                        | −50…0     | the rep's last sentence         |
 *
 * Content dimensions: an open question asks for the buyer's own words (what, how, why…); a pain is
 * a buyer sentence with a pain cue (drops, behind plan, slips…); a business number has a unit
 * (%, $, days, reps…) or is 1,000 or more; a value claim is a rep statement with value language
 * (ROI, pays for itself, saves…), tied to the buyer when it repeats a number the buyer gave, refers
 * back to what they said, or speaks of their pain. Objections, their responses and next steps are
 * defined in `Content.ts`. Objection handling is not assessed when no objection was raised; Value
 * is not assessed when the rep made no claim and the buyer stated no pain. Question counts above
 * the reference are not penalised: the words cannot tell an interrogation from a lively call.
 *
 * References (ANALYSIS.md, Gong Labs): top performers talk ~43 % of the time, above 65 % goes with
 * lower win rates (25,537 calls); overviews past 2 minutes go with lower win rates; customer stories
 * of 50 s or less went with below-average close rates (257,967 calls); 11–14 questions in discovery
 * calls (519,000 calls; read here as 11 per 30-minute call, pro rata for shorter calls). Patience,
 * interactivity and the other content rules have no published reference in ANALYSIS.md: their
 * points are Callsight's own and versioned with `method_version`.
 *
 * Values are taken from `metrics` (the numbers the report shows); a metric that is `null` is
 * derived from `speaker_turns` with the definitions of ANALYSIS.md step 6. The moments evidence
 * points at are always found in `speaker_turns`. The rep is the side whose role is `rep`; the buyer
 * side is everyone else. A call where one side was never heard cannot be scored on listening or
 * flow (the reason says so).
 *
 * `talk_ratio` is a fraction (0–1), as in the metrics.
 */
import { ScorecardDimensionName } from "@callsight/api-spec"
import { type ContentAnalysis, type Moment, OBJECTION_PAUSE_S } from "../text/Content.js"
import type { EvidenceItem, Metrics, ScoredCall, SpeakerSummary, Turn } from "../Types.js"

// ---------------------------------------------------------------------------------------------
// Dimensions, weights, rules

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

export type RuleId =
  | "talk_ratio"
  | "patience"
  | "customer_story"
  | "interruptions"
  | "interactivity"
  | "longest_monologue"
  | "long_monologues"
  | "questions"
  | "open_questions"
  | "pains"
  | "numbers"
  | "objection_question_back"
  | "objection_pause"
  | "objection_long_pitch"
  | "value_linked"
  | "value_quantified"
  | "value_generic"
  | "value_missing"
  | "next_step_dated"
  | "next_step_owner"
  | "next_step_confirmed"
  | "no_next_step"

export interface ScoringRule {
  readonly id: RuleId
  readonly dimension: DimensionName
  /** What is measured, in words. */
  readonly label: string
  /** The metric (or the count from the turns) the rule reads. */
  readonly input: string
  /** The unit of the input as shown in `points`. */
  readonly unit: string
  /** Piecewise-linear points (input → effect), or null for per-event rules. */
  readonly points: ReadonlyArray<readonly [number, number]> | null
  /**
   * Effect per event and the cap of their total, for per-event rules; `none` is the effect when no
   * event was found (content rules whose absence counts).
   */
  readonly perEvent: { readonly effect: number; readonly cap: number; readonly none?: number } | null
  /** The rule in one line, for the report's method note. */
  readonly text: string
  readonly range: readonly [number, number]
  /** The moment the evidence item points at. */
  readonly moment: string
  readonly reference: string | null
}

/** The rule table (the same as in the module comment), exported for the report's method note. */
export const SCORING_RULES: ReadonlyArray<ScoringRule> = [
  {
    id: "talk_ratio",
    dimension: "listening",
    label: "Rep talk ratio",
    input: "talk_ratio",
    unit: "%",
    points: [[0, -10], [25, 0], [38, 25], [48, 25], [65, 0], [80, -20]],
    perEvent: null,
    text: "best between 38 % and 48 % (+25); falls to 0 at 25 % and at 65 %; −20 from 80 %",
    range: [-20, 25],
    moment: "the whole call",
    reference: "top performers ~43 % rep talk; above 65 % goes with lower win rates (Gong Labs, 25,537 calls)"
  },
  {
    id: "patience",
    dimension: "listening",
    label: "Patience",
    input: "patience_s",
    unit: "s",
    points: [[0.3, -10], [0.6, 0], [1, 10], [2.5, 10], [4, 0]],
    perEvent: null,
    text: "median pause before the rep answers: −10 at 0.3 s or less, 0 at 0.6 s, +10 from 1 s to 2.5 s, 0 at 4 s",
    range: [-10, 10],
    moment: "the median buyer→rep hand-off",
    reference: null
  },
  {
    id: "customer_story",
    dimension: "listening",
    label: "Longest customer story",
    input: "longest_customer_story_s",
    unit: "s",
    points: [[10, -10], [50, 0], [90, 15]],
    perEvent: null,
    text: "−10 up to 10 s, 0 at 50 s, +15 from 90 s",
    range: [-10, 15],
    moment: "the longest buyer stretch",
    reference: "stretches ≤ 50 s went with below-average close rates (Gong Labs, 257,967 calls)"
  },
  {
    id: "interruptions",
    dimension: "listening",
    label: "Rep interruptions",
    input: "rep turns starting while the buyer speaks (overlap > 0.3 s)",
    unit: "",
    points: null,
    perEvent: { effect: -3, cap: -10 },
    text: "−3 for each time the rep talks over the buyer, −10 in total at most",
    range: [-10, 0],
    moment: "each interruption",
    reference: null
  },
  {
    id: "interactivity",
    dimension: "conversation_flow",
    label: "Interactivity",
    input: "interactivity",
    unit: "switches/min",
    points: [[1, -25], [2.5, 0], [4, 25], [12, 25], [20, 10]],
    perEvent: null,
    text: "speaker switches per minute: −25 at 1 or less, 0 at 2.5, +25 from 4 to 12, +10 from 20",
    range: [-25, 25],
    moment: "the whole call",
    reference: null
  },
  {
    id: "longest_monologue",
    dimension: "conversation_flow",
    label: "Longest monologue",
    input: "longest_monologue_s",
    unit: "s",
    points: [[60, 25], [120, 0], [240, -15]],
    perEvent: null,
    text: "+25 up to 60 s, 0 at 2 min, −15 from 4 min",
    range: [-15, 25],
    moment: "the longest rep stretch",
    reference: "overviews past 2 minutes go with lower win rates (Gong Labs)"
  },
  {
    id: "long_monologues",
    dimension: "conversation_flow",
    label: "Other monologues past 2 min",
    input: "other rep stretches longer than 120 s",
    unit: "",
    points: null,
    perEvent: { effect: -5, cap: -10 },
    text: "−5 for each other rep stretch past 2 min, −10 in total at most",
    range: [-10, 0],
    moment: "each of those stretches",
    reference: "overviews past 2 minutes go with lower win rates (Gong Labs)"
  },
  {
    id: "questions",
    dimension: "discovery",
    label: "Rep questions",
    input: "question_count ÷ the reference (11 per 30 min, pro rata for shorter calls)",
    unit: "× reference",
    points: [[0, -20], [0.5, 0], [1, 20]],
    perEvent: null,
    text: "−20 with no question, 0 at half the reference, +20 from the reference (11 questions per 30 min) on; more is not penalised",
    range: [-20, 20],
    moment: "the questions, sharing the points; the rep's longest run when below half the reference",
    reference: "11–14 questions in discovery calls (Gong Labs, 519,000 calls)"
  },
  {
    id: "open_questions",
    dimension: "discovery",
    label: "Open questions",
    input: "rep questions opening with what, how, why… or \"tell me\"",
    unit: "",
    points: null,
    perEvent: { effect: 2, cap: 10 },
    text: "+2 for each open question, +10 in total at most",
    range: [0, 10],
    moment: "each open question",
    reference: null
  },
  {
    id: "pains",
    dimension: "discovery",
    label: "Pains uncovered",
    input: "buyer sentences with a pain cue",
    unit: "",
    points: null,
    perEvent: { effect: 5, cap: 10, none: -15 },
    text: "+5 for each pain the buyer states, +10 in total at most; −15 when none is",
    range: [-15, 10],
    moment: "each pain; the rep's longest run when none",
    reference: null
  },
  {
    id: "numbers",
    dimension: "discovery",
    label: "Numbers uncovered",
    input: "buyer sentences with a business number (%, $, days, reps… or 1,000 and more)",
    unit: "",
    points: null,
    perEvent: { effect: 5, cap: 10, none: -15 },
    text: "+5 for each business number the buyer gives, +10 in total at most; −15 when none is",
    range: [-15, 10],
    moment: "each number; the rep's longest run when none",
    reference: null
  },
  {
    id: "objection_question_back",
    dimension: "objection_handling",
    label: "Question back",
    input: "objections the rep answered with a question within 30 s and 80 words",
    unit: "",
    points: null,
    perEvent: { effect: 15, cap: 30 },
    text: "+15 for each objection explored with a question before answering, +30 in total at most",
    range: [0, 30],
    moment: "the rep's question",
    reference: null
  },
  {
    id: "objection_pause",
    dimension: "objection_handling",
    label: "Pause before answering",
    input: "objections after which the rep waited 1 s or more",
    unit: "",
    points: null,
    perEvent: { effect: 10, cap: 20 },
    text: "+10 for each objection the rep let land (1 s or more) before answering, +20 in total at most",
    range: [0, 20],
    moment: "the rep's first words after the pause",
    reference: null
  },
  {
    id: "objection_long_pitch",
    dimension: "objection_handling",
    label: "Long pitch",
    input: "objections answered with more than 30 s or 80 words and no question",
    unit: "",
    points: null,
    perEvent: { effect: -25, cap: -50 },
    text: "−25 for each objection talked over with a long pitch, −50 in total at most",
    range: [-50, 0],
    moment: "the pitch",
    reference: null
  },
  {
    id: "value_linked",
    dimension: "value",
    label: "Value tied to the buyer",
    input: "rep value claims that repeat the buyer's number, refer back to them, or speak of their pain",
    unit: "",
    points: null,
    perEvent: { effect: 20, cap: 40 },
    text: "+20 for each value claim tied to what the buyer said, +40 in total at most",
    range: [0, 40],
    moment: "each claim",
    reference: null
  },
  {
    id: "value_quantified",
    dimension: "value",
    label: "Quantified value",
    input: "rep value claims with a number of their own",
    unit: "",
    points: null,
    perEvent: { effect: 5, cap: 10 },
    text: "+5 for each value claim with a number, +10 in total at most",
    range: [0, 10],
    moment: "each claim",
    reference: null
  },
  {
    id: "value_generic",
    dimension: "value",
    label: "Generic pitch",
    input: "rep value claims tied to nothing the buyer said",
    unit: "",
    points: null,
    perEvent: { effect: -10, cap: -30 },
    text: "−10 for each generic value claim, −30 in total at most",
    range: [-30, 0],
    moment: "each claim",
    reference: null
  },
  {
    id: "value_missing",
    dimension: "value",
    label: "Pain left without value",
    input: "no rep value claim although the buyer stated a pain",
    unit: "",
    points: null,
    perEvent: { effect: -20, cap: -20 },
    text: "−20 when the buyer stated a pain and the rep never tied a value to anything",
    range: [-20, 0],
    moment: "the buyer's first pain",
    reference: null
  },
  {
    id: "next_step_dated",
    dimension: "next_steps",
    label: "Dated next step",
    input: "actions with a day or a time (book, send, schedule…)",
    unit: "",
    points: null,
    perEvent: { effect: 20, cap: 30 },
    text: "+20 for each dated next step, +30 in total at most",
    range: [0, 30],
    moment: "each step",
    reference: null
  },
  {
    id: "next_step_owner",
    dimension: "next_steps",
    label: "Next step owner",
    input: "dated next steps with an owner",
    unit: "",
    points: null,
    perEvent: { effect: 10, cap: 10 },
    text: "+10 when a dated next step has an owner (once)",
    range: [0, 10],
    moment: "the step",
    reference: null
  },
  {
    id: "next_step_confirmed",
    dimension: "next_steps",
    label: "Next step agreed",
    input: "the other side agreeing to a dated next step",
    unit: "",
    points: null,
    perEvent: { effect: 10, cap: 10 },
    text: "+10 when the other side agrees to a dated next step (once)",
    range: [0, 10],
    moment: "the agreement",
    reference: null
  },
  {
    id: "no_next_step",
    dimension: "next_steps",
    label: "No next step",
    input: "no dated next step in the call",
    unit: "",
    points: null,
    perEvent: { effect: -50, cap: -50 },
    text: "−50 when the call ends without a dated next step",
    range: [-50, 0],
    moment: "the rep's last sentence",
    reference: null
  }
]

const rule = (id: RuleId): ScoringRule => SCORING_RULES.find((r) => r.id === id)!

/** Piecewise-linear interpolation, flat beyond the first and last points. */
export const interpolate = (points: ReadonlyArray<readonly [number, number]>, x: number): number => {
  if (points.length === 0) return 0
  const first = points[0]!
  const last = points[points.length - 1]!
  if (x <= first[0]) return first[1]
  if (x >= last[0]) return last[1]
  for (let i = 1; i < points.length; i++) {
    const [x1, y1] = points[i]!
    if (x <= x1) {
      const [x0, y0] = points[i - 1]!
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0)
    }
  }
  return last[1]
}

/** Whole points, rounded half away from zero (so +2.5 and −2.5 are symmetric), never −0. */
const roundPoints = (x: number): number => {
  const r = Math.sign(x) * Math.round(Math.abs(x))
  return r === 0 ? 0 : r
}

// ---------------------------------------------------------------------------------------------
// Moments: what the evidence points at, found in the speaker turns

export interface Span {
  readonly start: number
  readonly end: number
}

export interface Stretch extends Span {
  /** The speaker who talks most in the stretch. */
  readonly speaker: string
}

export interface Interruption extends Span {
  /** Who started talking while the other side was speaking. */
  readonly speaker: string
  readonly side: "rep" | "buyer"
  /** The speaker talked over. */
  readonly over: string
}

export interface Handoff extends Span {
  /** The rep speaker who answered. */
  readonly speaker: string
  readonly pause_s: number
}

/** The moments of a call that scoring rules point at (ANALYSIS.md step 6 definitions). */
export interface CallMoments {
  readonly duration_s: number
  readonly hasRep: boolean
  readonly hasBuyer: boolean
  readonly repSpeakers: ReadonlyArray<string>
  readonly repTalk_s: number
  readonly buyerTalk_s: number
  /** Rep stretches in which the buyer side speaks less than 1 s in total, longest first, disjoint. */
  readonly monologues: ReadonlyArray<Stretch>
  /** The same for the buyer side. */
  readonly stories: ReadonlyArray<Stretch>
  /** Turns that start while the other side speaks, with more than 0.3 s of overlap, in time order. */
  readonly interruptions: ReadonlyArray<Interruption>
  /** Buyer turn end → next rep turn start, in time order (overlapping answers excluded). */
  readonly handoffs: ReadonlyArray<Handoff>
  /** Speaker switches (consecutive turns of different speakers). */
  readonly switches: number
}

/** Mostly 1 s: "the other side speaks less than 1 s in total" (ANALYSIS.md). */
const STRETCH_TOLERANCE_S = 1
const INTERRUPTION_OVERLAP_S = 0.3

const finite = (x: number) => Number.isFinite(x)

const roleOf = (turn: Turn, speakers: ReadonlyArray<SpeakerSummary>): "rep" | "buyer" | "unknown" => {
  if (turn.role !== "unknown") return turn.role
  return speakers.find((s) => s.speaker === turn.speaker)?.role ?? "unknown"
}

/** Sorted, merged intervals. */
const union = (spans: ReadonlyArray<Span>): Array<Span> => {
  const sorted = [...spans].filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || a.end - b.end)
  const out: Array<{ start: number; end: number }> = []
  for (const s of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && s.start <= last.end) last.end = Math.max(last.end, s.end)
    else out.push({ start: s.start, end: s.end })
  }
  return out
}

const total = (spans: ReadonlyArray<Span>) => spans.reduce((sum, s) => sum + (s.end - s.start), 0)

/** Time covered by `spans` (sorted, disjoint) inside [a, b], by prefix sums and binary search. */
const overlapQuery = (spans: ReadonlyArray<Span>) => {
  const prefix = [0]
  for (const s of spans) prefix.push(prefix[prefix.length - 1]! + (s.end - s.start))
  // covered time in [0, t]
  const upTo = (t: number): number => {
    let lo = 0
    let hi = spans.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (spans[mid]!.end <= t) lo = mid + 1
      else hi = mid
    }
    const partial = lo < spans.length && spans[lo]!.start < t ? t - spans[lo]!.start : 0
    return prefix[lo]! + partial
  }
  return (a: number, b: number) => (b <= a ? 0 : upTo(b) - upTo(a))
}

/** The speaker with the most time inside [start, end] among `turns`. */
const mainSpeaker = (turns: ReadonlyArray<Turn>, span: Span): string => {
  const time = new Map<string, number>()
  for (const t of turns) {
    const o = Math.min(t.end, span.end) - Math.max(t.start, span.start)
    if (o > 0) time.set(t.speaker, (time.get(t.speaker) ?? 0) + o)
  }
  let best = ""
  let bestTime = -1
  for (const [speaker, t] of time) {
    if (t > bestTime || (t === bestTime && speaker < best)) {
      best = speaker
      bestTime = t
    }
  }
  return best
}

/**
 * Stretches of one side in which the other side speaks less than 1 s in total: for each start,
 * the longest run of the side's speech (two pointers over merged intervals), then the longest
 * disjoint ones, longest first.
 */
const stretches = (own: ReadonlyArray<Turn>, other: ReadonlyArray<Span>): Array<Stretch> => {
  const runs = union(own)
  if (runs.length === 0) return []
  const otherIn = overlapQuery(union(other))
  const candidates: Array<Span> = []
  let j = 0
  for (let i = 0; i < runs.length; i++) {
    if (j < i) j = i
    while (j + 1 < runs.length && otherIn(runs[i]!.start, runs[j + 1]!.end) < STRETCH_TOLERANCE_S) j++
    candidates.push({ start: runs[i]!.start, end: runs[j]!.end })
  }
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)
  const chosen: Array<Span> = []
  for (const c of candidates) {
    if (chosen.every((k) => c.end <= k.start || c.start >= k.end)) chosen.push(c)
  }
  return chosen.map((c) => ({ ...c, speaker: mainSpeaker(own, c) }))
}

/** Find the moments of a call in its speaker turns. */
export const findMoments = (input: {
  readonly speaker_turns: ReadonlyArray<Turn>
  readonly speakers: ReadonlyArray<SpeakerSummary>
  readonly duration_s: number
}): CallMoments => {
  const turns = input.speaker_turns
    .filter((t) => finite(t.start) && finite(t.end) && t.end > t.start)
    .map((t) => ({ ...t, role: roleOf(t, input.speakers) }))
    .sort((a, b) => a.start - b.start || a.end - b.end || (a.speaker < b.speaker ? -1 : a.speaker > b.speaker ? 1 : 0))
  const rep = turns.filter((t) => t.role === "rep")
  const buyer = turns.filter((t) => t.role !== "rep")

  const interruptions: Array<Interruption> = []
  for (const t of turns) {
    const others = t.role === "rep" ? buyer : rep
    // the other side's turn that was under way when t started, with the longest overlap
    let best: { over: Turn; end: number } | null = null
    for (const o of others) {
      if (o.start >= t.start) break
      if (o.end <= t.start) continue
      const end = Math.min(t.end, o.end)
      if (end - t.start > INTERRUPTION_OVERLAP_S && (best === null || end > best.end)) best = { over: o, end }
    }
    if (best !== null) {
      interruptions.push({
        start: t.start,
        end: best.end,
        speaker: t.speaker,
        side: t.role === "rep" ? "rep" : "buyer",
        over: best.over.speaker
      })
    }
  }

  const handoffs: Array<Handoff> = []
  for (let i = 1; i < turns.length; i++) {
    const prev = turns[i - 1]!
    const next = turns[i]!
    if (prev.role !== "rep" && next.role === "rep" && next.start >= prev.end) {
      handoffs.push({ start: prev.end, end: next.start, speaker: next.speaker, pause_s: next.start - prev.end })
    }
  }

  let switches = 0
  for (let i = 1; i < turns.length; i++) if (turns[i]!.speaker !== turns[i - 1]!.speaker) switches++

  return {
    duration_s: input.duration_s,
    hasRep: rep.length > 0,
    hasBuyer: buyer.length > 0,
    repSpeakers: [...new Set(rep.map((t) => t.speaker))].sort(),
    repTalk_s: total(union(rep)),
    buyerTalk_s: total(union(buyer)),
    monologues: stretches(rep, buyer),
    stories: stretches(buyer, rep),
    interruptions,
    handoffs,
    switches
  }
}

const median = (xs: ReadonlyArray<number>): number | null => {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

// ---------------------------------------------------------------------------------------------
// Scoring

export interface ScoreInput {
  readonly metrics: Metrics
  readonly speaker_turns: ReadonlyArray<Turn>
  readonly speakers: ReadonlyArray<SpeakerSummary>
  readonly duration_s: number
  /** What the words say (`Content.ts`); without it the content dimensions are not assessed. */
  readonly content?: ContentAnalysis | null
}

interface Applied {
  readonly rule: RuleId
  readonly summary: string
  readonly evidence: ReadonlyArray<EvidenceItem>
  /** A description of each evidence item (content rules), for the report. */
  readonly texts?: ReadonlyArray<string>
}

const round1 = (x: number) => Math.round(x * 10) / 10
const fmtS = (s: number) => (s < 10 ? `${round1(s)} s` : `${Math.round(s)} s`)
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0")

const clampSpan = (span: Span, duration: number): Span => {
  const d = duration > 0 && finite(duration) ? duration : Math.max(span.end, 0)
  // rounded to the millisecond, then clamped (rounding must not push an end past the call)
  const start = Math.min(Math.max(round3(span.start), 0), d)
  const end = Math.min(Math.max(round3(span.end), start), d)
  return { start, end }
}
const round3 = (x: number) => Math.round(x * 1000) / 1000

const item = (
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
const perEventEffects = (count: number, { cap, effect }: { effect: number; cap: number }): Array<number> => {
  const out: Array<number> = []
  let sum = 0
  for (let i = 0; i < count; i++) {
    const e = effect < 0 ? Math.max(effect, cap - sum) : Math.min(effect, cap - sum)
    out.push(e === 0 ? 0 : e)
    sum += e
  }
  return out
}

const listening = (m: Metrics, mo: CallMoments, duration: number): Array<Applied> => {
  const out: Array<Applied> = []
  const wholeCall = { start: 0, end: duration }
  const repLabel = mo.repSpeakers.length === 1 ? mo.repSpeakers[0]! : null

  const speech = mo.repTalk_s + mo.buyerTalk_s
  const ratio = m.talk_ratio ?? (speech > 0 ? mo.repTalk_s / speech : null)
  if (ratio !== null && finite(ratio)) {
    const pct = ratio * 100
    const effect = roundPoints(interpolate(rule("talk_ratio").points!, pct))
    out.push({
      rule: "talk_ratio",
      summary: `rep talk ${Math.round(pct)} % (${signed(effect)})`,
      evidence: [item("listening", wholeCall, repLabel, effect, duration)]
    })
  }

  const derivedPatience = median(mo.handoffs.map((h) => h.pause_s))
  const patience = m.patience_s ?? derivedPatience
  if (patience !== null && finite(patience) && mo.handoffs.length > 0) {
    const effect = roundPoints(interpolate(rule("patience").points!, patience))
    // the hand-off whose pause is closest to the value scored (ties: the earliest)
    let at = mo.handoffs[0]!
    for (const h of mo.handoffs) if (Math.abs(h.pause_s - patience) < Math.abs(at.pause_s - patience)) at = h
    out.push({
      rule: "patience",
      summary: `patience ${round1(patience)} s (${signed(effect)})`,
      evidence: [item("listening", at, at.speaker, effect, duration)]
    })
  }

  const story = mo.stories[0]
  const storyS = m.longest_customer_story_s ?? (story ? story.end - story.start : null)
  if (storyS !== null && finite(storyS) && story !== undefined) {
    const effect = roundPoints(interpolate(rule("customer_story").points!, storyS))
    out.push({
      rule: "customer_story",
      summary: `longest customer story ${fmtS(storyS)} (${signed(effect)})`,
      evidence: [item("listening", story, story.speaker, effect, duration)]
    })
  }

  const repInterruptions = mo.interruptions.filter((i) => i.side === "rep")
  const effects = perEventEffects(repInterruptions.length, rule("interruptions").perEvent!)
  const sum = effects.reduce((a, b) => a + b, 0)
  out.push({
    rule: "interruptions",
    summary:
      repInterruptions.length === 0
        ? "no interruptions by the rep (±0)"
        : `${repInterruptions.length} interruption${repInterruptions.length === 1 ? "" : "s"} by the rep (${signed(sum)})`,
    evidence: repInterruptions.map((i, k) => item("listening", i, i.speaker, effects[k]!, duration))
  })
  return out
}

const conversationFlow = (m: Metrics, mo: CallMoments, duration: number): Array<Applied> => {
  const out: Array<Applied> = []
  const minutes = duration / 60
  const interactivity = m.interactivity ?? (minutes > 0 ? mo.switches / minutes : null)
  if (interactivity !== null && finite(interactivity)) {
    const effect = roundPoints(interpolate(rule("interactivity").points!, interactivity))
    out.push({
      rule: "interactivity",
      summary: `${round1(interactivity)} speaker switches/min (${signed(effect)})`,
      evidence: [item("conversation_flow", { start: 0, end: duration }, null, effect, duration)]
    })
  }

  const longest = mo.monologues[0]
  const longestS = m.longest_monologue_s ?? (longest ? longest.end - longest.start : null)
  if (longestS !== null && finite(longestS) && longest !== undefined) {
    const effect = roundPoints(interpolate(rule("longest_monologue").points!, longestS))
    out.push({
      rule: "longest_monologue",
      summary: `longest monologue ${fmtS(longestS)} (${signed(effect)})`,
      evidence: [item("conversation_flow", longest, longest.speaker, effect, duration)]
    })
    const others = mo.monologues.slice(1).filter((s) => s.end - s.start > 120).sort((a, b) => a.start - b.start)
    if (others.length > 0) {
      const effects = perEventEffects(others.length, rule("long_monologues").perEvent!)
      out.push({
        rule: "long_monologues",
        summary: `${others.length} more monologue${others.length === 1 ? "" : "s"} past 2 min (${signed(effects.reduce((a, b) => a + b, 0))})`,
        evidence: others.map((s, k) => item("conversation_flow", s, s.speaker, effects[k]!, duration))
      })
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Content dimensions (with a transcript)

/** The reference of the questions rule: 11 questions (the low end of 11–14) per 30-minute call. */
export const QUESTION_REFERENCE = 11
export const QUESTION_REFERENCE_MIN = 30

/** The reference number of questions for a call of this length: 11, pro rata below 30 minutes. */
export const questionReference = (duration_s: number): number =>
  QUESTION_REFERENCE * Math.min(1, Math.max(0, duration_s) / 60 / QUESTION_REFERENCE_MIN)

/** An evidence item on words someone said: their speaker, time span and quote. */
const quoted = (dimension: DimensionName, m: Moment, effect: number, duration: number): EvidenceItem => ({
  ...item(dimension, m, m.speaker, effect, duration),
  quote: m.quote
})

/** `total` points shared out over `n` items in whole points, the earlier ones taking the remainder. */
const shares = (total: number, n: number): Array<number> => {
  const base = Math.trunc(total / n)
  const rest = total - base * n
  return Array.from({ length: n }, (_, i) => base + (i < Math.abs(rest) ? Math.sign(rest) : 0))
}

/** A per-event rule over moments: each moment its effect (capped), or the `none` effect at `absent`. */
const perEventRule = (
  id: RuleId,
  moments: ReadonlyArray<Moment>,
  absent: Moment | null,
  duration: number,
  describe: (m: Moment, effect: number) => string,
  summary: (count: number, sum: number) => string
): Applied | null => {
  const r = rule(id)
  const dimension = r.dimension
  if (moments.length === 0) {
    const none = r.perEvent!.none
    if (none === undefined) return { rule: id, summary: summary(0, 0), evidence: [], texts: [] }
    if (absent === null) return null
    return { rule: id, summary: summary(0, none), evidence: [quoted(dimension, absent, none, duration)], texts: [describe(absent, none)] }
  }
  const effects = perEventEffects(moments.length, r.perEvent!)
  return {
    rule: id,
    summary: summary(moments.length, effects.reduce((a, b) => a + b, 0)),
    evidence: moments.map((m, k) => quoted(dimension, m, effects[k]!, duration)),
    texts: moments.map((m, k) => describe(m, effects[k]!))
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
const short = (quote: string) => (quote.length > 60 ? `${quote.slice(0, quote.lastIndexOf(" ", 59))}…` : quote)
const fmtQuantity = (q: { readonly value: number; readonly unit: string | null }) =>
  q.unit === "percent" ? `${q.value} %` : q.unit === "dollars" ? `$${q.value.toLocaleString("en-US")}` : `${q.value.toLocaleString("en-US")}${q.unit === null ? "" : ` ${q.unit}`}`

/** Not assessed, with the reason. */
interface NotAssessed {
  readonly notAssessed: string
}

const discovery = (c: ContentAnalysis, duration: number): Array<Applied> => {
  const f = c.findings
  const out: Array<Applied> = []
  const reference = questionReference(duration)
  const count = f.questions.length
  const share = reference > 0 ? count / reference : 0
  const effect = roundPoints(interpolate(rule("questions").points!, share))
  const refText = `reference ${round1(reference)} for a ${fmtS(duration)} call`
  const summary = `${plural(count, "rep question")}, ${refText} (${signed(effect)})`
  if (effect > 0) {
    const parts = shares(effect, count)
    out.push({
      rule: "questions",
      summary,
      evidence: f.questions.map((q, k) => quoted("discovery", q, parts[k]!, duration)),
      texts: f.questions.map((_, k) => `Rep question ${k + 1} of ${count} (${refText})`)
    })
  } else if (f.longest_rep_run !== null) {
    out.push({
      rule: "questions",
      summary,
      evidence: [quoted("discovery", f.longest_rep_run, effect, duration)],
      texts: [`Only ${plural(count, "rep question")} (${refText}); the rep's longest run`]
    })
  }
  const open = f.questions.filter((q) => q.open)
  out.push(perEventRule("open_questions", open, null, duration, () => "Open question",
    (n, sum) => `${plural(n, "open question")} (${signed(sum)})`)!)
  const pains = perEventRule("pains", f.pains, f.longest_rep_run, duration,
    (_m, e) => (e < 0 ? "No pain uncovered; the rep's longest run" : "Pain uncovered"),
    (n, sum) => `${n === 0 ? "no pain" : plural(n, "pain")} uncovered (${signed(sum)})`)
  if (pains !== null) out.push(pains)
  const numbers = perEventRule("numbers", f.numbers, f.longest_rep_run, duration,
    (m, e) => {
      const found = f.numbers.find((n) => n.start === m.start && n.end === m.end)
      return e < 0 || found === undefined ? "No business number uncovered; the rep's longest run" : `Number uncovered: ${found.numbers.map(fmtQuantity).join(", ")}`
    },
    (n, sum) => `${n === 0 ? "no business number" : plural(n, "business number")} uncovered (${signed(sum)})`)
  if (numbers !== null) out.push(numbers)
  return out
}

const objectionHandling = (c: ContentAnalysis, duration: number): Array<Applied> | NotAssessed => {
  const objections = c.findings.objections
  if (objections.length === 0) return { notAssessed: "no objection was raised" }
  const kindOf = (m: Moment, pick: (o: (typeof objections)[number]) => Moment | null) =>
    objections.find((o) => pick(o) === m)?.objection
  const questions = objections.flatMap((o) => (o.objection.response === "question_back" && o.question !== null ? [o.question] : []))
  const paused = objections.flatMap((o) =>
    o.reply !== null && o.objection.response_pause_s !== null && o.objection.response_pause_s >= OBJECTION_PAUSE_S ? [o.reply] : [])
  const pitches = objections.flatMap((o) => (o.objection.response === "long_pitch" && o.pitch !== null ? [o.pitch] : []))
  return [
    perEventRule("objection_question_back", questions, null, duration,
      (m) => `Asked a question back after a ${kindOf(m, (o) => o.question)?.kind ?? ""} objection`,
      (n, sum) => `${n === 0 ? "no objection" : plural(n, "objection")} explored with a question (${signed(sum)})`)!,
    perEventRule("objection_pause", paused, null, duration,
      (m) => {
        const o = kindOf(m, (x) => x.reply)
        return `Paused ${round1(o?.response_pause_s ?? 0)} s before answering a ${o?.kind ?? ""} objection`
      },
      (n, sum) => `${n === 0 ? "no pause" : plural(n, "pause")} of 1 s or more before answering (${signed(sum)})`)!,
    perEventRule("objection_long_pitch", pitches, null, duration,
      (m) => `Answered a ${kindOf(m, (o) => o.pitch)?.kind ?? ""} objection with a ${fmtS(m.end - m.start)} pitch`,
      (n, sum) => `${n === 0 ? "no long pitch" : plural(n, "long pitch", "long pitches")} after an objection (${signed(sum)})`)!
  ]
}

const value = (c: ContentAnalysis, duration: number): Array<Applied> | NotAssessed => {
  const claims = c.findings.value_claims
  const pains = c.findings.pains
  if (claims.length === 0 && pains.length === 0) return { notAssessed: "no value claim was made, and no pain was stated to tie one to" }
  const linked = claims.filter((v) => v.linked_to !== null)
  const linkText = (m: Moment) => {
    const claim = claims.find((v) => v === m)
    return claim?.linked_to == null ? "Value claim" : `Value tied to the buyer's ${claim.link === "number" ? "number" : "pain"}: “${short(claim.linked_to.quote)}”`
  }
  const out: Array<Applied> = [
    perEventRule("value_linked", linked, null, duration, linkText,
      (n, sum) => `${n === 0 ? "no value claim" : plural(n, "value claim")} tied to the buyer (${signed(sum)})`)!,
    perEventRule("value_quantified", claims.filter((v) => v.quantified), null, duration, () => "Value claim with a number",
      (n, sum) => `${n === 0 ? "no value claim" : plural(n, "value claim")} with a number (${signed(sum)})`)!,
    perEventRule("value_generic", claims.filter((v) => v.linked_to === null), null, duration,
      () => "Value claim tied to nothing the buyer said",
      (n, sum) => `${n === 0 ? "no generic claim" : plural(n, "generic claim")} (${signed(sum)})`)!
  ]
  if (claims.length === 0) {
    out.push(perEventRule("value_missing", [pains[0]!], null, duration, () => "The buyer's pain was never answered with a value claim",
      () => `no value claim after the buyer's pain (${signed(rule("value_missing").perEvent!.effect)})`)!)
  }
  return out
}

const nextSteps = (c: ContentAnalysis, duration: number): Array<Applied> | NotAssessed => {
  const steps = c.findings.next_steps
  if (steps.length === 0) {
    const last = c.findings.last_rep_sentence
    if (last === null) return { notAssessed: "the rep said nothing the transcript could attach" }
    return [perEventRule("no_next_step", [last], null, duration, () => "The call ended without a dated next step",
      () => `no dated next step (${signed(rule("no_next_step").perEvent!.effect)})`)!]
  }
  const stepOf = (m: Moment) => steps.find((s) => s.said === m || s.confirmation === m)?.step
  return [
    perEventRule("next_step_dated", steps.map((s) => s.said), null, duration,
      (m) => `Next step due ${stepOf(m)?.due ?? ""}`,
      (n, sum) => `${plural(n, "dated next step")} (${signed(sum)})`)!,
    perEventRule("next_step_owner", steps.flatMap((s) => (s.step.owner === null ? [] : [s.said])), null, duration,
      (m) => `Next step owned by ${stepOf(m)?.owner ?? ""}`,
      (n, sum) => `${n === 0 ? "no next step has" : plural(n, "next step has", "next steps have")} an owner (${signed(sum)})`)!,
    perEventRule("next_step_confirmed", steps.flatMap((s) => (s.confirmation === null ? [] : [s.confirmation])), null, duration,
      (m) => `Agreed: next step due ${stepOf(m)?.due ?? ""}`,
      (n, sum) => `${n === 0 ? "no next step was" : plural(n, "next step was", "next steps were")} agreed by the other side (${signed(sum)})`)!
  ]
}

/** The rules of the content dimensions, or why one is not assessed. */
const contentRules = (
  dimension: DimensionName,
  content: ContentAnalysis,
  duration: number
): Array<Applied> | NotAssessed => {
  if (content.transcript.length === 0) return { notAssessed: "the transcript has no words" }
  switch (dimension) {
    case "discovery":
      return discovery(content, duration)
    case "objection_handling":
      return objectionHandling(content, duration)
    case "value":
      return value(content, duration)
    case "next_steps":
      return nextSteps(content, duration)
    default:
      return { notAssessed: NEEDS_TRANSCRIPT[dimension] }
  }
}

const CONTENT_DIMENSIONS: ReadonlySet<DimensionName> = new Set(["discovery", "objection_handling", "value", "next_steps"])

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

/**
 * Score a call from its acoustic analysis and, when there is one, its content analysis. Pure: no
 * clock, no randomness; evidence in dimension order, then rule order, then time.
 */
export const scoreCall = (input: ScoreInput): ScoredCall => {
  const duration = finite(input.duration_s) && input.duration_s > 0 ? input.duration_s : 0
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
  return { scorecard: { overall: overallScore(dimensions), overall_basis: overallBasis(dimensions), dimensions }, evidence }
}

// ---------------------------------------------------------------------------------------------
// Explaining evidence (for the report)

const near = (a: number, b: number) => Math.abs(a - b) < 0.002

const sameItem = (a: EvidenceItem, b: EvidenceItem) =>
  a.dimension === b.dimension && a.start === b.start && a.end === b.end && a.speaker === b.speaker && a.quote === b.quote &&
  a.effect === b.effect

/**
 * A short description of an evidence item, found by matching its moment against the moments of
 * the call (the evidence schema carries no rule id). Content evidence is matched against the
 * content rules when `content` is given (the same rules `scoreCall` ran). Items this module did
 * not produce (an LLM assessment), or content evidence without its content, get their quote, or a
 * generic label.
 */
export const describeEvidence = (
  e: EvidenceItem,
  moments: CallMoments,
  content?: ContentAnalysis | null
): { readonly rule: RuleId | null; readonly text: string } => {
  if (content != null && CONTENT_DIMENSIONS.has(e.dimension as DimensionName)) {
    const applied = contentRules(e.dimension as DimensionName, content, moments.duration_s > 0 ? moments.duration_s : 0)
    if (Array.isArray(applied)) {
      // two rules can put the same points on the same words (a pain that is also a number): both are named
      const found = applied.flatMap((a) =>
        a.evidence.flatMap((x, k) => (sameItem(x, e) ? [{ rule: a.rule, text: a.texts?.[k] ?? DIMENSION_LABELS[e.dimension as DimensionName] }] : [])))
      if (found.length > 0) {
        const texts = [...new Set(found.map((f) => f.text))].join(" · ")
        return { rule: found[0]!.rule, text: `${texts}: “${e.quote ?? ""}”` }
      }
    }
  }
  const d = moments.duration_s
  const same = (s: Span) => {
    const c = clampSpan(s, d)
    return near(c.start, e.start) && near(c.end, e.end)
  }
  const len = (s: Span) => `${fmtS(s.end - s.start)}`
  if (e.dimension === "listening") {
    if (near(e.start, 0) && near(e.end, round3(d))) return { rule: "talk_ratio", text: "Rep talk ratio over the whole call" }
    const story = moments.stories[0]
    if (story && same(story)) return { rule: "customer_story", text: `Longest customer story (${len(story)})` }
    const i = moments.interruptions.find((x) => x.side === "rep" && same(x))
    if (i) return { rule: "interruptions", text: `Rep started talking over ${i.over} (${len(i)} overlap)` }
    const h = moments.handoffs.find((x) => same(x))
    if (h) return { rule: "patience", text: `Median pause before the rep answered (${round1(h.pause_s)} s)` }
  }
  if (e.dimension === "conversation_flow") {
    if (near(e.start, 0) && near(e.end, round3(d))) return { rule: "interactivity", text: "Speaker switches over the whole call" }
    const m = moments.monologues[0]
    if (m && same(m)) return { rule: "longest_monologue", text: `Longest rep monologue (${len(m)})` }
    const other = moments.monologues.slice(1).find((x) => same(x))
    if (other) return { rule: "long_monologues", text: `Rep monologue past 2 min (${len(other)})` }
  }
  if (e.quote !== null && e.quote.length > 0) return { rule: null, text: `“${e.quote}”` }
  return { rule: null, text: "Moment in the call" }
}
