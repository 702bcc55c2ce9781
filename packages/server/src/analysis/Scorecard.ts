/**
 * The scorecard (ANALYSIS.md step 7): six dimensions, each 0–100 or `null` when it cannot be
 * assessed, and an evidence item for every point added or removed. Pure and deterministic: the same
 * turns and metrics always give the same scores and the same evidence, in the same order.
 *
 * Without a transcript only two dimensions can be judged from who spoke when: **Listening** and
 * **Conversation flow**. Discovery, Objection handling, Value and Next steps need the words; they are
 * `null`, `assessed: false`, with a reason that starts "needs a transcript".
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
 *
 * References (ANALYSIS.md, Gong Labs): top performers talk ~43 % of the time, above 65 % goes with
 * lower win rates (25,537 calls); overviews past 2 minutes go with lower win rates; customer stories
 * of 50 s or less went with below-average close rates (257,967 calls). Patience and interactivity
 * have no published reference in ANALYSIS.md: their points are Callsight's own and versioned with
 * `method_version`.
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
import type { EvidenceItem, Metrics, ScoredCall, SpeakerSummary, Turn } from "./Types.js"

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
  /** Effect per event and the cap of their total, for per-event rules. */
  readonly perEvent: { readonly effect: number; readonly cap: number } | null
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
}

interface Applied {
  readonly rule: RuleId
  readonly summary: string
  readonly evidence: ReadonlyArray<EvidenceItem>
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

/** Per-event effects: `effect` each until the cap is reached (the last one takes the remainder). */
const perEventEffects = (count: number, { cap, effect }: { effect: number; cap: number }): Array<number> => {
  const out: Array<number> = []
  let sum = 0
  for (let i = 0; i < count; i++) {
    const e = Math.max(effect, cap - sum)
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
  rules: () => Array<Applied>
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
 * Score a call from its acoustic analysis. Pure: no clock, no randomness; evidence in dimension
 * order, then rule order, then time.
 */
export const scoreCall = (input: ScoreInput): ScoredCall => {
  const duration = finite(input.duration_s) && input.duration_s > 0 ? input.duration_s : 0
  const mo = findMoments(input)
  const evidence: Array<EvidenceItem> = []
  const dimensions: Array<DimensionResult> = DIMENSIONS.map((dimension) => {
    if (dimension === "listening" || dimension === "conversation_flow") {
      const r = assess(dimension, mo, () =>
        dimension === "listening" ? listening(input.metrics, mo, duration) : conversationFlow(input.metrics, mo, duration)
      )
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
  return { scorecard: { overall: overallScore(dimensions), dimensions }, evidence }
}

// ---------------------------------------------------------------------------------------------
// Explaining evidence (for the report)

const near = (a: number, b: number) => Math.abs(a - b) < 0.002

/**
 * A short description of an evidence item, found by matching its moment against the moments of
 * the call (the evidence schema carries no rule id). Items this module did not produce (a
 * transcript rule, an LLM assessment) get their quote, or a generic label.
 */
export const describeEvidence = (
  e: EvidenceItem,
  moments: CallMoments
): { readonly rule: RuleId | null; readonly text: string } => {
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
