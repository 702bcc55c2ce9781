/**
 * The scoring rules: the rule table of the six dimensions (exported for the report's method
 * note), how a piecewise-linear rule reads its points, and the reference of the questions rule.
 *
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
 * References (docs/method.md, Gong Labs): top performers talk ~43 % of the time, above 65 % goes with
 * lower win rates (25,537 calls); overviews past 2 minutes go with lower win rates; customer stories
 * of 50 s or less went with below-average close rates (257,967 calls); 11–14 questions in discovery
 * calls (519,000 calls; read here as 11 per 30-minute call, pro rata for shorter calls). Patience,
 * interactivity and the other content rules have no published reference in docs/method.md: their
 * points are Callsight's own and versioned with `method_version`.
 */
import type { DimensionName } from "./Dimensions.js"

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

/** The reference of the questions rule: 11 questions (the low end of 11–14) per 30-minute call. */
export const QUESTION_REFERENCE = 11
export const QUESTION_REFERENCE_MIN = 30

/** The reference number of questions for a call of this length: 11, pro rata below 30 minutes. */
export const questionReference = (duration_s: number): number =>
  QUESTION_REFERENCE * Math.min(1, Math.max(0, duration_s) / 60 / QUESTION_REFERENCE_MIN)
