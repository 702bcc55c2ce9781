/**
 * The held-out evaluation of the content analysis (issue 14, item 1): every call of `eval/calls`
 * run through the rule-based content analysis and the scorecard, compared with the annotations a
 * person wrote from the scripts, and the figures printed for the train and the test part of
 * `eval/split.json` separately. Matching rules and the annotation format: `eval/README.md`.
 *
 *   npm run eval                    the tables
 *   npm run eval -- --json          the same figures (and every call's matches) as JSON
 *   npm run eval -- --details       the misses and false findings of the train calls, quoted
 *   npm run eval -- --asr-noise     the same on transcripts as speech-to-text gives them (asr-noise.ts):
 *                                   clean, then with the noise; `--components` each part alone, `--seed N`
 *
 * The words are the ground-truth turns of each call (`*.truth.json`) spread over their turns as
 * the tests' local speech providers answer them (`truthWords`), and the speaker turns are the truth
 * turns with their roles: no audio is decoded, so this measures the content analysis alone and
 * runs in a second or two, offline. No figure fails the run; it prints them.
 */
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { acousticMetrics, analyzeContent, type ContentAnalysis, type ContentInput, DIMENSION_WEIGHTS, type DimensionName, DIMENSIONS, METHOD_VERSION, type Metrics, scoreCall, type ScoredCall } from "@callsight/analysis"
import type { Truth } from "../test/utils/Fixtures.js"
import { truthWords } from "../test/utils/TruthWords.js"
import { ASR_COMPONENTS, ASR_CONDITIONS, ASR_SEED, type AsrStats, noisyCall, sumStats } from "./asr-noise.js"
import { CALLS, contentInputOf, readJson, truthOf } from "./calls.js"
import { isMain } from "./turn-model.js"

const HERE = dirname(fileURLToPath(import.meta.url))

// ---------------------------------------------------------------------------------------------
// The annotation format (eval/README.md, "Annotations")

const Owner = Schema.Literal("rep", "prospect", "both")
const Kind = Schema.Literal("price", "budget", "timing", "authority", "need", "competitor")
const Score = Schema.NullOr(Schema.Number.pipe(Schema.int(), Schema.between(0, 100)))
const Element = Schema.Literal(0, 1, 2)
const TurnIndex = Schema.Number.pipe(Schema.int(), Schema.nonNegative())
const Turns = Schema.NonEmptyArray(TurnIndex)

const MEDDPICC = [
  "metrics", "economic_buyer", "decision_criteria", "decision_process", "paper_process", "identify_pain", "champion", "competition"
] as const
type ElementName = (typeof MEDDPICC)[number]

const Annotation = Schema.Struct({
  call: Schema.String,
  type: Schema.String,
  tags: Schema.Array(Schema.String),
  notes: Schema.String,
  objections: Schema.Array(Schema.Struct({ turns: Turns, kind: Schema.NullOr(Kind), category: Schema.String, note: Schema.String })),
  next_steps: Schema.Array(Schema.Struct({
    turns: Turns,
    says: Schema.NonEmptyArray(Schema.String),
    action: Schema.String,
    owner: Owner,
    due: Schema.NullOr(Schema.String)
  })),
  not_next_steps: Schema.Array(Schema.Struct({ turn: TurnIndex, says: Schema.String, what: Schema.String, why: Schema.String })),
  pains: Schema.Array(Schema.Struct({ id: Schema.String, turn: TurnIndex, pain: Schema.String })),
  value_claims: Schema.Array(Schema.Struct({ turn: TurnIndex, claim: Schema.String, answers: Schema.NullOr(Schema.String) })),
  qualification: Schema.Struct(Object.fromEntries(MEDDPICC.map((e) => [e, Element])) as { [K in ElementName]: typeof Element }),
  scores: Schema.Struct(Object.fromEntries(DIMENSIONS.map((d) => [d, Score])) as { [K in DimensionName]: typeof Score })
})
type Annotation = typeof Annotation.Type

export const Split = Schema.Struct({ note: Schema.String, train: Schema.Array(Schema.String), test: Schema.Array(Schema.String) })

// ---------------------------------------------------------------------------------------------
// Running the analysis on a call's ground truth

export interface CallRun {
  readonly id: string
  readonly input: ContentInput
  readonly metrics: Metrics
  readonly truth: Truth
  readonly annotation: Annotation
  readonly content: ContentAnalysis
  readonly scored: ScoredCall
}

/** `inputOf` makes the words and turns the analysis reads (default: the clean ones; `--asr-noise` passes its own). */
export const runCall = (id: string, inputOf: (truth: Truth) => ContentInput = contentInputOf): CallRun => {
  const truth = truthOf(id)
  const annotation = Schema.decodeUnknownSync(Annotation)(readJson(join(CALLS, `${id}.annotation.json`)))
  if (annotation.call !== id) throw new Error(`${id}.annotation.json names the call ${annotation.call}`)
  const input = inputOf(truth)
  const { speaker_turns: turns, speakers } = input
  const content = analyzeContent(input)
  // as `combine` (Analyzer.ts) does: the acoustic metrics of the turns, the content metrics over them
  const metrics = { ...acousticMetrics(turns, truth.duration), ...content.metrics }
  const scored = scoreCall({ metrics, speaker_turns: turns, speakers, duration_s: truth.duration, content })
  return { id, input, metrics, truth, annotation, content, scored }
}

// ---------------------------------------------------------------------------------------------
// Matching

/**
 * Where a found next step was said: the truth turn and the sentence of it holding the word that
 * starts at `at` (the analysis dates a step from the start of its clause, a word's start).
 */
interface Place {
  readonly turn: number
  readonly sentence: number
}

/** Every word of the truth with its turn and its sentence within the turn (sentences end at . ? !). */
const placesOf = (truth: Truth): Array<Place & { readonly start: number }> => {
  const words = truthWords(truth)
  const out: Array<Place & { readonly start: number }> = []
  let k = 0
  truth.turns.forEach((turn, t) => {
    let sentence = 0
    for (const token of turn.text.split(/\s+/).filter((x) => x.length > 0)) {
      out.push({ turn: t, sentence, start: words[k++]!.start })
      if (/[.?!]["')]*$/.test(token)) sentence++
    }
  })
  return out
}

const placeAt = (places: ReadonlyArray<Place & { readonly start: number }>, at: number): Place | null => {
  let best: Place | null = null
  let distance = Infinity
  for (const p of places) {
    const d = Math.abs(p.start - at)
    if (d < distance) {
      distance = d
      best = { turn: p.turn, sentence: p.sentence }
    }
  }
  return distance <= TURN_TOLERANCE_S ? best : null
}

/** The sentences a verbatim fragment of one of `turns` spans. */
const placesOfFragment = (truth: Truth, turns: ReadonlyArray<number>, fragment: string): Array<Place> => {
  const turn = turns.find((t) => truth.turns[t]?.text.includes(fragment))
  if (turn === undefined) throw new Error(`"${fragment}" is not in turns ${turns.join(", ")}`)
  const text = truth.turns[turn]!.text
  const offset = text.indexOf(fragment)
  const tokens = text.split(/\s+/).filter((x) => x.length > 0)
  const first = text.slice(0, offset).split(/\s+/).filter((x) => x.length > 0).length
  const last = first + fragment.split(/\s+/).filter((x) => x.length > 0).length - 1
  const sentenceOf = (i: number) => tokens.slice(0, i).filter((x) => /[.?!]["')]*$/.test(x)).length
  const out: Array<Place> = []
  for (let s = sentenceOf(first); s <= sentenceOf(last); s++) out.push({ turn, sentence: s })
  return out
}

const samePlace = (a: Place | null, places: ReadonlyArray<Place>) => a !== null && places.some((p) => p.turn === a.turn && p.sentence === a.sentence)

/** A found item's moment in the call, placed in the truth turn holding it (else the nearest within 1 s). */
const TURN_TOLERANCE_S = 1

export const turnAt = (truth: Truth, at: number): number | null => {
  let best: number | null = null
  let distance = Infinity
  truth.turns.forEach((t, i) => {
    const d = at < t.start ? t.start - at : at > t.end ? at - t.end : 0
    if (d < distance) {
      distance = d
      best = i
    }
  })
  return distance <= TURN_TOLERANCE_S ? best : null
}

interface Found<T> {
  readonly item: T
  readonly turn: number | null
  readonly quote: string
}

interface Matching {
  /** annotated index → found index */
  readonly pairs: ReadonlyArray<readonly [number, number]>
  /** found items that were not matched but sit in the turns of an annotated item already matched */
  readonly duplicates: ReadonlyArray<number>
  readonly missed: ReadonlyArray<number>
  readonly falseFound: ReadonlyArray<number>
}

/**
 * One-to-one matching of annotated items to found items (maximum bipartite matching, by
 * augmenting paths; sizes are small). `fits(a, f)` says whether found item f may stand for
 * annotated item a.
 */
const match = (annotated: number, found: number, fits: (a: number, f: number) => boolean, sameUnit: (a: number, f: number) => boolean): Matching => {
  const ownerOf: Array<number> = Array.from({ length: found }, () => -1)
  const augment = (a: number, seen: Array<boolean>): boolean => {
    for (let f = 0; f < found; f++) {
      if (seen[f] || !fits(a, f)) continue
      seen[f] = true
      if (ownerOf[f]! < 0 || augment(ownerOf[f]!, seen)) {
        ownerOf[f] = a
        return true
      }
    }
    return false
  }
  for (let a = 0; a < annotated; a++) augment(a, Array.from({ length: found }, () => false))
  const pairs: Array<readonly [number, number]> = []
  ownerOf.forEach((a, f) => a >= 0 && pairs.push([a, f]))
  const matchedA = new Set(pairs.map(([a]) => a))
  const unmatchedF = ownerOf.flatMap((a, f) => (a < 0 ? [f] : []))
  const duplicates = unmatchedF.filter((f) => [...matchedA].some((a) => sameUnit(a, f)))
  return {
    pairs: pairs.sort((x, y) => x[0] - y[0]),
    duplicates,
    missed: Array.from({ length: annotated }, (_, a) => a).filter((a) => !matchedA.has(a)),
    falseFound: unmatchedF.filter((f) => !duplicates.includes(f))
  }
}

/** Counts behind precision and recall. */
interface Tally {
  annotated: number
  found: number
  matched: number
  duplicates: number
}
const tally = (): Tally => ({ annotated: 0, found: 0, matched: 0, duplicates: 0 })
const add = (t: Tally, m: Matching, annotated: number, found: number) => {
  t.annotated += annotated
  t.found += found
  t.matched += m.pairs.length
  t.duplicates += m.duplicates.length
}
const ratio = (n: number, d: number): number | null => (d > 0 ? Math.round((n / d) * 1000) / 1000 : null)
/**
 * The 95% Wilson score interval of a share of n (items taken as independent, which items of one call
 * are not quite): how far a part this small pins the share down. Null when n is 0.
 */
export const wilson = (k: number, n: number): readonly [number, number] | null => {
  if (n <= 0) return null
  const z = 1.96
  const p = k / n
  const d = 1 + (z * z) / n
  const centre = (p + (z * z) / (2 * n)) / d
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d
  const r = (x: number) => Math.round(x * 1000) / 1000
  return [r(Math.max(0, centre - half)), r(Math.min(1, centre + half))]
}
/** Precision leaves duplicates out: a second finding of one annotated item is neither right nor wrong. */
const figures = (t: Tally) => ({
  ...t,
  precision: ratio(t.matched, t.found - t.duplicates),
  recall: ratio(t.matched, t.annotated),
  precision_95: wilson(t.matched, t.found - t.duplicates),
  recall_95: wilson(t.matched, t.annotated)
})

// ---------------------------------------------------------------------------------------------
// Comparing one call

const sideOf = (speaker: string | null): "rep" | "prospect" | null => (speaker === null ? null : speaker === "S1" ? "rep" : "prospect")

const ORDINALS = [
  "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth",
  "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"
]
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

/**
 * The keys a due phrase names: weekdays, a day of the month ("the fifteenth", "the 15th",
 * "twenty first"), and the relative days (today, tomorrow, this afternoon, next week…).
 */
export const dueKeys = (due: string): Set<string> => {
  const text = due.toLowerCase().replace(/-/g, " ")
  const keys = new Set<string>()
  for (const d of WEEKDAYS) if (text.includes(d)) keys.add(d)
  const digits = /\b(\d{1,2})(st|nd|rd|th)\b/.exec(text)
  if (digits !== null) keys.add(`day ${Number(digits[1])}`)
  const spelled = /\b(?:(twenty|thirty) )?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)\b/.exec(text)
  if (spelled !== null) {
    const base = spelled[2] === "thirtieth" ? 30 : ORDINALS.indexOf(spelled[2]!) + 1
    keys.add(`day ${(spelled[1] === "twenty" ? 20 : spelled[1] === "thirty" ? 30 : 0) + base}`)
  }
  for (const r of ["today", "tomorrow", "tonight", "afternoon", "next week", "this week", "next month", "end of"]) if (text.includes(r)) keys.add(r)
  return keys
}

/** The found due names the annotated day: at least one key in common. */
const dueAgrees = (annotated: string | null, found: string | null): boolean => {
  if (annotated === null || found === null) return annotated === found
  const a = dueKeys(annotated)
  const f = dueKeys(found)
  return [...a].some((k) => f.has(k))
}

export interface CallResult {
  readonly id: string
  readonly part: "train" | "test"
  readonly tallies: Record<string, Tally>
  /** matched objections whose annotation gives a kind: how many the found kind agrees with */
  readonly kind: { agree: number; of: number }
  readonly owner: { agree: number; of: number }
  readonly due: { agree: number; of: number }
  readonly linked: { agree: number; of: number }
  /** found next steps in a sentence the annotation says holds no next step (a request, an undated promise) */
  readonly steps_on_non_steps: number
  readonly qualification: { exact: number; of: number; absError: number }
  readonly dimensions: Record<DimensionName, { manual: number | null; found: number | null }>
  readonly overall: { manual: number | null; found: number | null }
  readonly details: ReadonlyArray<string>
}

const quoteOf = (truth: Truth, turn: number) => {
  const text = truth.turns[turn]?.text ?? ""
  return text.length > 110 ? `${text.slice(0, 107)}…` : text
}

export const compare = (run: CallRun, part: "train" | "test"): CallResult => {
  const { truth, annotation: ann, content, scored } = run
  const details: Array<string> = []
  const tallies: Record<string, Tally> = {}
  const t = (name: string) => (tallies[name] ??= tally())

  // objections
  const objections: Array<Found<(typeof content.objections)[number]> & { category: string }> = content.findings.objections.map((o) => ({
    item: o.objection,
    turn: turnAt(truth, o.objection.at),
    quote: o.objection.quote,
    category: o.category ?? "-"
  }))
  const inTurns = (turns: ReadonlyArray<number>, turn: number | null) => turn !== null && turns.includes(turn)
  const kind = { agree: 0, of: 0 }
  for (const sameKind of [false, true]) {
    const m = match(
      ann.objections.length,
      objections.length,
      (a, f) => inTurns(ann.objections[a]!.turns, objections[f]!.turn) && (!sameKind || ann.objections[a]!.kind === objections[f]!.item.kind),
      (a, f) => inTurns(ann.objections[a]!.turns, objections[f]!.turn)
    )
    add(t(sameKind ? "objections (same kind)" : "objections (any kind)"), m, ann.objections.length, objections.length)
    if (!sameKind) {
      for (const a of m.missed) {
        const o = ann.objections[a]!
        details.push(`objection missed   turn ${o.turns.join(",")} ${o.kind ?? "-"}/${o.category}: "${quoteOf(truth, o.turns[o.turns.length - 1]!)}"`)
      }
      for (const f of m.falseFound) details.push(`objection false    ${objections[f]!.item.kind}/${objections[f]!.category} at ${objections[f]!.item.at}s: "${objections[f]!.quote}"`)
      for (const [a, f] of m.pairs) {
        const o = ann.objections[a]!
        if (o.kind !== null) {
          kind.of++
          if (o.kind === objections[f]!.item.kind) kind.agree++
        }
        if (o.kind !== objections[f]!.item.kind) details.push(`objection kind     turn ${o.turns[0]}: annotated ${o.kind ?? "-"}/${o.category}, found ${objections[f]!.item.kind}`)
      }
    }
  }

  // next steps
  const places = placesOf(truth)
  const steps = content.next_steps.map((s) => ({ item: s, place: placeAt(places, s.at), quote: s.quote }))
  const stepPlaces = ann.next_steps.map((s) => s.says.flatMap((f) => placesOfFragment(truth, s.turns, f)))
  const sm = match(
    ann.next_steps.length,
    steps.length,
    (a, f) => samePlace(steps[f]!.place, stepPlaces[a]!),
    (a, f) => samePlace(steps[f]!.place, stepPlaces[a]!)
  )
  add(t("next steps"), sm, ann.next_steps.length, steps.length)
  const owner = { agree: 0, of: 0 }
  const due = { agree: 0, of: 0 }
  for (const [a, f] of sm.pairs) {
    const want = ann.next_steps[a]!
    const got = steps[f]!.item
    const side = sideOf(got.owner)
    const ownerOk = want.owner === "both" ? side !== null : side === want.owner
    owner.of++
    if (ownerOk) owner.agree++
    else details.push(`next step owner    turn ${want.turns[0]}: annotated ${want.owner}, found ${side ?? "null"} ("${steps[f]!.quote}")`)
    due.of++
    if (dueAgrees(want.due, got.due)) due.agree++
    else details.push(`next step due      turn ${want.turns[0]}: annotated "${want.due}", found "${got.due}"`)
  }
  for (const a of sm.missed) {
    const s = ann.next_steps[a]!
    details.push(`next step missed   turn ${s.turns[0]} ${s.owner}, due "${s.due}": "${s.says[0]}"`)
  }
  const nonStepPlaces = ann.not_next_steps.flatMap((n) => placesOfFragment(truth, [n.turn], n.says))
  let stepsOnNonSteps = 0
  for (const f of sm.falseFound) {
    const onNonStep = samePlace(steps[f]!.place, nonStepPlaces)
    if (onNonStep) stepsOnNonSteps++
    details.push(`next step false    ${onNonStep ? "(annotated as no next step) " : ""}due "${steps[f]!.item.due}", owner ${sideOf(steps[f]!.item.owner)}: "${steps[f]!.quote}"`)
  }

  // pains and value claims: the unit is the turn
  const byTurn = (name: string, annotatedTurns: ReadonlyArray<number>, foundTurns: ReadonlyArray<number | null>, quotes: ReadonlyArray<string>) => {
    const a = [...new Set(annotatedTurns)]
    const fTurns = [...new Set(foundTurns.filter((x): x is number => x !== null))]
    const outside = foundTurns.filter((x) => x === null).length
    const m = match(a.length, fTurns.length + outside, (i, j) => j < fTurns.length && a[i] === fTurns[j], () => false)
    add(t(name), m, a.length, fTurns.length + outside)
    for (const i of m.missed) details.push(`${name.padEnd(18)} missed turn ${a[i]}: "${quoteOf(truth, a[i]!)}"`)
    for (const j of m.falseFound) {
      const turn = fTurns[j]
      const q = turn === undefined ? "" : quotes[foundTurns.indexOf(turn)] ?? ""
      details.push(`${name.padEnd(18)} false  turn ${turn ?? "?"}: "${q}"`)
    }
  }
  const pains = content.findings.pains
  byTurn("pains", ann.pains.map((p) => p.turn), pains.map((p) => turnAt(truth, p.start)), pains.map((p) => p.quote))
  const claims = content.findings.value_claims
  const claimTurns = claims.map((c) => turnAt(truth, c.start))
  byTurn("value claims", ann.value_claims.map((v) => v.turn), claimTurns, claims.map((c) => c.quote))
  // a matched claim that answers a pain: is it tied to something the buyer said?
  const linked = { agree: 0, of: 0 }
  for (const v of ann.value_claims) {
    if (v.answers === null) continue
    const found = claims.filter((_, i) => claimTurns[i] === v.turn)
    if (found.length === 0) continue
    linked.of++
    if (found.some((c) => c.linked_to !== null)) linked.agree++
    else details.push(`value claim unlinked turn ${v.turn} (answers ${v.answers}): "${quoteOf(truth, v.turn)}"`)
  }

  // qualification
  const elements = new Map(content.qualification.elements.map((e) => [e.element, e.score]))
  const qualification = { exact: 0, of: 0, absError: 0 }
  const q1 = t("qualification ≥1")
  const q2 = t("qualification =2")
  for (const e of MEDDPICC) {
    const want = ann.qualification[e]
    const got = elements.get(e) ?? 0
    qualification.of++
    if (want === got) qualification.exact++
    qualification.absError += Math.abs(want - got)
    q1.annotated += want >= 1 ? 1 : 0
    q1.found += got >= 1 ? 1 : 0
    q1.matched += want >= 1 && got >= 1 ? 1 : 0
    q2.annotated += want === 2 ? 1 : 0
    q2.found += got === 2 ? 1 : 0
    q2.matched += want === 2 && got === 2 ? 1 : 0
    if (want !== got) details.push(`qualification      ${e}: annotated ${want}, found ${got}`)
  }

  // dimensions
  const dims = Object.fromEntries(DIMENSIONS.map((d) => {
    const found = scored.scorecard.dimensions.find((x) => x.dimension === d)?.score ?? null
    return [d, { manual: ann.scores[d], found }]
  })) as Record<DimensionName, { manual: number | null; found: number | null }>
  for (const d of DIMENSIONS) {
    const { manual, found } = dims[d]
    if (manual !== found && (manual === null || found === null || Math.abs(manual - found) >= 20)) {
      details.push(`dimension          ${d}: manual ${manual ?? "not assessed"}, found ${found ?? "not assessed"}`)
    }
  }
  // the manual overall: the product's weighted mean, over the dimensions the manual scores assess
  let weighted = 0
  let weights = 0
  for (const d of DIMENSIONS) {
    const m = ann.scores[d]
    if (m === null) continue
    weighted += m * DIMENSION_WEIGHTS[d]
    weights += DIMENSION_WEIGHTS[d]
  }
  return {
    id: run.id,
    part,
    tallies,
    kind,
    owner,
    due,
    linked,
    steps_on_non_steps: stepsOnNonSteps,
    qualification,
    dimensions: dims,
    overall: { manual: weights > 0 ? Math.round(weighted / weights) : null, found: scored.scorecard.overall },
    details
  }
}

// ---------------------------------------------------------------------------------------------
// Figures of a part

export const ITEMS = [
  "objections (any kind)", "objections (same kind)", "next steps", "pains", "value claims", "qualification ≥1", "qualification =2"
] as const

export const summarize = (results: ReadonlyArray<CallResult>) => {
  const items = Object.fromEntries(ITEMS.map((name) => {
    const sum = tally()
    for (const r of results) {
      const x = r.tallies[name]
      if (x === undefined) continue
      sum.annotated += x.annotated
      sum.found += x.found
      sum.matched += x.matched
      sum.duplicates += x.duplicates
    }
    return [name, figures(sum)]
  }))
  const sumOf = (pick: (r: CallResult) => { agree: number; of: number }) => {
    const s = results.reduce((acc, r) => ({ agree: acc.agree + pick(r).agree, of: acc.of + pick(r).of }), { agree: 0, of: 0 })
    return { ...s, rate: ratio(s.agree, s.of) }
  }
  const mae = (pick: (r: CallResult) => { manual: number | null; found: number | null }) => {
    const both = results.map(pick).filter((x) => x.manual !== null && x.found !== null)
    return {
      mae: both.length > 0 ? Math.round((both.reduce((n, x) => n + Math.abs(x.manual! - x.found!), 0) / both.length) * 10) / 10 : null,
      n: both.length,
      /** the manual score judges the dimension, the analysis says "not assessed" */
      not_assessed: results.map(pick).filter((x) => x.manual !== null && x.found === null).length,
      /** the analysis scores a dimension the manual scores leave unjudged */
      assessed_unjudged: results.map(pick).filter((x) => x.manual === null && x.found !== null).length
    }
  }
  const q = results.reduce((acc, r) => ({ exact: acc.exact + r.qualification.exact, of: acc.of + r.qualification.of, absError: acc.absError + r.qualification.absError }), { exact: 0, of: 0, absError: 0 })
  return {
    calls: results.map((r) => r.id),
    items,
    next_step_owner: sumOf((r) => r.owner),
    next_step_due: sumOf((r) => r.due),
    value_claims_linked: sumOf((r) => r.linked),
    objection_kind: sumOf((r) => r.kind),
    next_steps_on_non_step_turns: results.reduce((n, r) => n + r.steps_on_non_steps, 0),
    qualification_elements: { exact: ratio(q.exact, q.of), mae: ratio(q.absError, q.of), n: q.of },
    dimensions: Object.fromEntries(DIMENSIONS.map((d) => [d, mae((r) => r.dimensions[d])])) as Record<DimensionName, ReturnType<typeof mae>>,
    overall: mae((r) => r.overall)
  }
}
export type Summary = ReturnType<typeof summarize>

// ---------------------------------------------------------------------------------------------
// Output

const fmt = (x: number | null) => (x === null ? "  –  " : x.toFixed(2))
const pad = (s: string, n: number) => s.padEnd(n)
const lpad = (s: string, n: number) => s.padStart(n)

export const table = (part: string, s: Summary): string => {
  const lines: Array<string> = []
  lines.push(`${part.toUpperCase()} (${s.calls.length} calls)`)
  lines.push(`  ${pad("item", 24)}${lpad("annotated", 10)}${lpad("found", 7)}${lpad("matched", 9)}${lpad("dup", 5)}${lpad("precision", 11)}${lpad("recall", 8)}   95% intervals: P; R`)
  const interval = (i: readonly [number, number] | null) => (i === null ? "–" : `${i[0].toFixed(2)}–${i[1].toFixed(2)}`)
  for (const name of ITEMS) {
    const x = s.items[name]!
    lines.push(`  ${pad(name, 24)}${lpad(String(x.annotated), 10)}${lpad(String(x.found), 7)}${lpad(String(x.matched), 9)}${lpad(String(x.duplicates), 5)}${lpad(fmt(x.precision), 11)}${lpad(fmt(x.recall), 8)}   ${interval(x.precision_95)}; ${interval(x.recall_95)}`)
  }
  const rate = (r: { agree: number; of: number; rate: number | null }) => `${r.agree}/${r.of}${r.rate === null ? "" : ` (${r.rate.toFixed(2)})`}`
  lines.push(`  objections: the kind agrees with the annotated one on ${rate(s.objection_kind)} of those matched that have one`)
  lines.push(`  next steps: owner agrees ${rate(s.next_step_owner)}, due names the same day ${rate(s.next_step_due)}, found where the annotation says no next step: ${s.next_steps_on_non_step_turns}`)
  lines.push(`  value claims answering a pain, found tied to the buyer's words: ${rate(s.value_claims_linked)}`)
  lines.push(`  qualification elements: exact score ${fmt(s.qualification_elements.exact)}, mean absolute error ${fmt(s.qualification_elements.mae)} (of ${s.qualification_elements.n})`)
  lines.push(`  ${pad("dimension", 24)}${lpad("MAE", 7)}${lpad("n", 4)}   not assessed but judged / assessed but not judged`)
  for (const d of DIMENSIONS) {
    const x = s.dimensions[d]
    lines.push(`  ${pad(d, 24)}${lpad(x.mae === null ? "–" : x.mae.toFixed(1), 7)}${lpad(String(x.n), 4)}   ${x.not_assessed} / ${x.assessed_unjudged}`)
  }
  lines.push(`  ${pad("overall", 24)}${lpad(s.overall.mae === null ? "–" : s.overall.mae.toFixed(1), 7)}${lpad(String(s.overall.n), 4)}`)
  return lines.join("\n")
}

/** The split's two parts, checked to share no call. */
export const readSplit = () => {
  const split = Schema.decodeUnknownSync(Split)(readJson(join(HERE, "split.json")))
  const overlap = split.train.filter((id) => split.test.includes(id))
  if (overlap.length > 0) throw new Error(`calls in both parts: ${overlap.join(", ")}`)
  return split
}

const main = () => {
  const args = process.argv.slice(2)
  const json = args.includes("--json")
  if (args.includes("--asr-noise")) return asrNoiseMain(args, json)
  const detailsAt = args.indexOf("--details")
  const detailsPart = detailsAt < 0 ? null : args[detailsAt + 1] === "test" ? "test" : "train"
  const split = readSplit()
  const results = (["train", "test"] as const).flatMap((part) => split[part].map((id) => compare(runCall(id), part)))
  const parts = {
    train: summarize(results.filter((r) => r.part === "train")),
    test: summarize(results.filter((r) => r.part === "test"))
  }
  if (json) {
    const calls = results.map(({ details, ...r }) => ({ ...r, details }))
    process.stdout.write(`${JSON.stringify({ method_version: METHOD_VERSION, words: "ground-truth turns (truthWords)", parts, calls }, null, 1)}\n`)
    return
  }
  const out: Array<string> = [
    `Content analysis against the annotations of eval/calls (method ${METHOD_VERSION}; words from the ground-truth turns)`,
    "",
    table("train", parts.train),
    "",
    table("test", parts.test)
  ]
  if (detailsPart !== null) {
    out.push("", `Details of the ${detailsPart} calls${detailsPart === "test" ? " (read, never tune on them)" : ""}:`)
    for (const r of results.filter((x) => x.part === detailsPart)) {
      out.push(`  ${r.id}`)
      for (const d of r.details) out.push(`    ${d}`)
    }
  }
  process.stdout.write(`${out.join("\n")}\n`)
}

// ---------------------------------------------------------------------------------------------
// --asr-noise: the same figures on transcripts as speech-to-text gives them (asr-noise.ts, issue 35)

/** F1 of matched against annotated and found (duplicates left out, as precision leaves them); 0 when nothing matched. */
const f1Of = (x: Tally): number | null => {
  if (x.found - x.duplicates <= 0 || x.annotated <= 0) return x.matched === 0 && x.annotated + x.found > 0 ? 0 : null
  const p = x.matched / (x.found - x.duplicates)
  const r = x.matched / x.annotated
  return p + r === 0 ? 0 : Math.round(((2 * p * r) / (p + r)) * 1000) / 1000
}

/**
 * Next steps matched by turn: a found step whose `at` lies in one of the annotated step's turns.
 * Without end punctuation a whole turn can be one sentence, and a step found in it is dated from
 * the sentence's start, not its own clause's: the sentence-level rule then counts it missed though
 * it was found. This says how many were found at all.
 */
const stepsByTurn = (run: CallRun): Tally => {
  const annotated = run.annotation.next_steps
  const found = run.content.next_steps.map((s) => turnAt(run.truth, s.at))
  const inTurns = (a: number, f: number) => found[f] !== null && annotated[a]!.turns.includes(found[f]!)
  const t = tally()
  add(t, match(annotated.length, found.length, inTurns, inTurns), annotated.length, found.length)
  return t
}

const asrNoiseMain = (args: ReadonlyArray<string>, json: boolean) => {
  const seedAt = args.indexOf("--seed")
  const seed = seedAt < 0 ? ASR_SEED : Number(args[seedAt + 1])
  if (!Number.isInteger(seed)) throw new Error(`--seed needs an integer, not ${args[seedAt + 1]}`)
  const onlyAt = args.indexOf("--only")
  const only = onlyAt < 0 ? null : new Set((args[onlyAt + 1] ?? "").split(";"))
  const conditions = [...ASR_CONDITIONS, ...(args.includes("--components") || only !== null ? ASR_COMPONENTS : [])]
    .filter((c) => only === null || c.name === "clean" || only.has(c.name))
  const detailsAt = args.indexOf("--details")
  const detailsPart = detailsAt < 0 ? null : args[detailsAt + 1] === "test" ? "test" : "train"
  const split = readSplit()
  const measured = conditions.map((c) => {
    const stats: Array<AsrStats> = []
    const byTurn = { train: tally(), test: tally() }
    const results = (["train", "test"] as const).flatMap((part) =>
      split[part].map((id) => {
        const run = runCall(id, (truth) => {
          const noisy = noisyCall(truth, id, seed, c)
          if (noisy.stats !== null) stats.push(noisy.stats)
          return noisy.input
        })
        const t = stepsByTurn(run)
        byTurn[part].annotated += t.annotated
        byTurn[part].found += t.found
        byTurn[part].matched += t.matched
        byTurn[part].duplicates += t.duplicates
        return compare(run, part)
      })
    )
    const parts = {
      train: summarize(results.filter((r) => r.part === "train")),
      test: summarize(results.filter((r) => r.part === "test"))
    }
    const details = detailsPart === null ? [] : results.filter((r) => r.part === detailsPart).map((r) => ({ id: r.id, details: r.details }))
    return { condition: c, noise: stats.length > 0 ? sumStats(stats) : null, parts, next_steps_by_turn: { train: figures(byTurn.train), test: figures(byTurn.test) }, details }
  })
  type Measured = (typeof measured)[number]
  const f1 = (m: Measured, part: "train" | "test") => ({
    objections: f1Of(m.parts[part].items["objections (any kind)"]!),
    next_steps: f1Of(m.parts[part].items["next steps"]!),
    next_steps_by_turn: f1Of(m.next_steps_by_turn[part])
  })
  const clean = measured[0]!
  const change = (x: number | null, from: number | null) => (x === null || from === null ? null : Math.round((x - from) * 1000) / 1000)
  const summary = measured.map((m) => ({
    condition: m.condition.name,
    train: { f1: f1(m, "train"), change: { objections: 0, next_steps: 0, next_steps_by_turn: 0 } as Record<string, number | null> },
    test: { f1: f1(m, "test"), change: { objections: 0, next_steps: 0, next_steps_by_turn: 0 } as Record<string, number | null> }
  }))
  for (const s of summary) {
    for (const part of ["train", "test"] as const) {
      const was = f1(clean, part)
      const now = s[part].f1
      s[part].change = {
        objections: change(now.objections, was.objections),
        next_steps: change(now.next_steps, was.next_steps),
        next_steps_by_turn: change(now.next_steps_by_turn, was.next_steps_by_turn)
      }
    }
  }
  if (json) {
    const conditions = measured.map((m) => ({
      name: m.condition.name,
      words: m.condition.words,
      options: m.condition.noise,
      our_turns: m.condition.turns,
      noise: m.noise,
      parts: m.parts,
      next_steps_by_turn: m.next_steps_by_turn
    }))
    process.stdout.write(`${JSON.stringify({ method_version: METHOD_VERSION, seed, conditions, summary }, null, 1)}\n`)
    return
  }
  const out: Array<string> = []
  for (const m of measured) {
    out.push(`Content analysis against the annotations of eval/calls (method ${METHOD_VERSION}; ${m.condition.words}${m.noise === null ? "" : `; seed ${seed}`})`)
    if (m.noise !== null) {
      const n = m.noise
      const pct = (x: number) => `${((100 * x) / Math.max(1, n.reference_words)).toFixed(1)}%`
      out.push(`  noise over the ${split.train.length + split.test.length} calls: ${n.words_in} words in, ${n.words_out} out; ${n.numbers_formatted} numbers in digits; word errors ${pct(n.edits)} of ${n.reference_words} (substituted ${n.substitutions}, dropped ${n.deletions}, split ${n.splits}, merged ${n.merges}, fillers ${n.fillers}); ${n.drifted_edges} speaker changes drifted, ${n.moved_words} words moved`)
    }
    out.push("", table("train", m.parts.train), "", table("test", m.parts.test), "")
    if (detailsPart !== null && m.noise !== null) {
      out.push(`Details of the ${detailsPart} calls under "${m.condition.name}"${detailsPart === "test" ? " (read, never tune on them)" : ""}:`)
      for (const r of m.details) out.push(`  ${r.id}`, ...r.details.map((d) => `    ${d}`))
      out.push("")
    }
  }
  const cell = (f: number | null, d: number | null | undefined) =>
    `${fmt(f)}${d === null || d === undefined ? "" : ` (${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d).toFixed(2)})`}`
  const columns = ["objections", "next_steps", "next_steps_by_turn"] as const
  out.push(`F1 per condition, and its change from the clean words (seed ${seed}); next steps by the eval's rule (the sentence) and by turn`)
  out.push(`  ${pad("", 26)}${pad("TRAIN objections", 18)}${pad("next steps", 16)}${pad("by turn", 16)}${pad("TEST objections", 18)}${pad("next steps", 16)}by turn`)
  for (const s of summary) {
    const first = s.condition === clean.condition.name
    const cells = (["train", "test"] as const).flatMap((part) => columns.map((k, i) => pad(cell(s[part].f1[k], first ? undefined : s[part].change[k]), i === 0 ? 18 : 16)))
    out.push(`  ${pad(s.condition, 26)}${cells.join("").trimEnd()}`)
  }
  process.stdout.write(`${out.join("\n")}\n`)
}

if (isMain(import.meta.url)) main()
