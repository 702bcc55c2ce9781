/**
 * The figures of a Team Closing Audit (issue 38, item 6; docs/closing-audit.md, where each rule is
 * written out): pure functions over the calls' stored analyses, no SQL, no HTTP. Every number is
 * recomputable from the calls the audit names:
 *
 * - per scorecard dimension, over the calls where it was assessed: the team's mean, population
 *   standard deviation, least and most, its mean weight, and the calls under the target (70);
 * - the team's strengths and weaknesses: its two highest and two lowest dimensions by mean, with
 *   quotes that added points (strengths) or cost points (weaknesses);
 * - per closer (by e-mail, any case): the same per dimension, the difference from the team, and
 *   their two highest (strengths) and two lowest (gaps) dimensions, one quote each;
 * - the three changes: per dimension, the overall-score points the team's mean would gain if every
 *   call under the target reached it (a call's overall is the weighted mean of its assessed
 *   dimensions, so a call gains weight / Σ weights × (70 − score)); the three largest, ties broken
 *   by more calls affected, then the scorecard's order.
 *
 * A quote is an evidence item of the analysis whose words (without a trailing `…`) are found in one
 * segment of the call's transcript: the exact words said, with the call and the second.
 */
import type { ClosingAudit } from "@callsight/api-spec"
import { DIMENSION_LABELS, DIMENSIONS } from "@callsight/analysis/light"

export const CLOSING_AUDIT_METHOD = "closing-audit-1"
/** The score every dimension should reach. */
export const TARGET = 70
/** Quotes per team finding and per change; one per closer finding. */
const QUOTES = 3

/** A call as the audit reads it: its row and its stored analysis (`calls.result`), unparsed. */
export interface AuditCallInput {
  readonly call_id: string
  readonly external_call_id: string | null
  readonly closer_email: string | null
  readonly completed_at: string
  readonly duration_s: number | null
  readonly result: unknown
}

type Figures = Omit<ClosingAudit, "audit_id" | "title" | "created_at" | "selection" | "calls" | "credits_charged" | "report_url" | "pdf_url" | "calls_removed">
type Quote = Figures["team"]["strengths"][number]["quotes"][number]
type Finding = Figures["team"]["strengths"][number]

interface Evidence {
  readonly dimension: string
  readonly start: number
  readonly speaker: string | null
  readonly quote: string
  readonly effect: number
}

interface ParsedCall {
  readonly input: AuditCallInput
  readonly closerKey: string | null
  readonly overall: number | null
  readonly scores: ReadonlyMap<string, { readonly score: number; readonly weight: number }>
  readonly weightSum: number
  readonly evidence: ReadonlyArray<Evidence>
  readonly talkRatio: number | null
  readonly objections: number
  readonly nextSteps: number
  readonly hasTranscript: boolean
  readonly callType: string | null
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)
const arrayAt = (v: unknown): ReadonlyArray<unknown> => (Array.isArray(v) ? v : [])
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null)

/** The words of a quote as they must be found in the transcript: a cut quote's `…` removed. */
export const quoteWords = (quote: string): string => quote.replace(/\s*…$/, "").trim()

const parse = (input: AuditCallInput): ParsedCall => {
  const r = isRecord(input.result) ? input.result : {}
  const scorecard = isRecord(r.scorecard) ? r.scorecard : {}
  const scores = new Map<string, { score: number; weight: number }>()
  for (const d of arrayAt(scorecard.dimensions)) {
    if (!isRecord(d) || typeof d.dimension !== "string") continue
    const score = num(d.score)
    if (score === null || d.assessed === false) continue
    scores.set(d.dimension, { score, weight: num(d.weight) ?? 0 })
  }
  const segments = arrayAt(r.transcript).flatMap((s) => (isRecord(s) && typeof s.text === "string" ? [s.text] : []))
  const said = (quote: string) => {
    const words = quoteWords(quote)
    return words !== "" && segments.some((text) => text.includes(words))
  }
  const evidence = arrayAt(r.evidence).flatMap((e): Array<Evidence> => {
    if (!isRecord(e) || typeof e.dimension !== "string" || typeof e.quote !== "string") return []
    const effect = num(e.effect)
    const start = num(e.start)
    if (effect === null || start === null || effect === 0 || !said(e.quote)) return []
    return [{ dimension: e.dimension, start, speaker: typeof e.speaker === "string" ? e.speaker : null, quote: e.quote, effect }]
  })
  const metrics = isRecord(r.metrics) ? r.metrics : {}
  const objections = arrayAt(r.objections).filter((o) => isRecord(o) && o.verdict !== "rejected").length
  const callType = isRecord(r.call_type) && typeof r.call_type.type === "string" ? r.call_type.type : null
  return {
    input,
    closerKey: input.closer_email === null ? null : input.closer_email.toLowerCase(),
    overall: num(scorecard.overall),
    scores,
    weightSum: [...scores.values()].reduce((n, s) => n + s.weight, 0),
    evidence,
    talkRatio: num(metrics.talk_ratio),
    objections,
    nextSteps: arrayAt(r.next_steps).length,
    hasTranscript: segments.length > 0,
    callType
  }
}

const round = (x: number, places: number) => {
  const f = 10 ** places
  return Math.round(x * f) / f
}
const mean = (xs: ReadonlyArray<number>) => xs.reduce((n, x) => n + x, 0) / xs.length

/** Count, mean, population standard deviation, least and most of `xs` (one decimal); nulls when empty. */
export const spreadOf = (xs: ReadonlyArray<number>) => {
  if (xs.length === 0) return { calls: 0, mean: null, sd: null, min: null, max: null }
  const m = mean(xs)
  return {
    calls: xs.length,
    mean: round(m, 1),
    sd: round(Math.sqrt(mean(xs.map((x) => (x - m) ** 2))), 1),
    min: Math.min(...xs),
    max: Math.max(...xs)
  }
}

const ADVICE: Readonly<Record<string, string>> = {
  discovery: "Ask more open questions before pitching, and get the buyer's pain and its cost in numbers.",
  listening: "Talk less than the buyer: shorter turns, a pause before answering, and room for the buyer's story.",
  objection_handling: "Meet an objection with a question back and a pause, not a longer pitch.",
  value: "Tie every claim to the buyer's own words and numbers instead of generic benefits.",
  next_steps: "End every call with a dated next step, an owner for it, and the buyer's yes to it.",
  conversation_flow: "Keep it a conversation: switch speakers often and break up long monologues."
}

const labelOf = (dimension: string) => (DIMENSION_LABELS as Readonly<Record<string, string>>)[dimension] ?? dimension

/**
 * Up to `n` quotes of `dimension` from `calls` that added points (`sign` 1) or cost points (-1):
 * the strongest effect first (then the calls' order, then the second), one a call before a second
 * of the same call.
 */
const quotesOf = (calls: ReadonlyArray<ParsedCall>, dimension: string, sign: 1 | -1, n: number): Array<Quote> => {
  const candidates = calls.flatMap((c, order) =>
    c.evidence
      .filter((e) => e.dimension === dimension && Math.sign(e.effect) === sign)
      .map((e) => ({ order, quote: { call_id: c.input.call_id, dimension, speaker: e.speaker, start: e.start, quote: e.quote, effect: e.effect } })))
  candidates.sort((a, b) => Math.abs(b.quote.effect) - Math.abs(a.quote.effect) || a.order - b.order || a.quote.start - b.quote.start)
  const unique = candidates.filter((c, i) =>
    candidates.findIndex((d) => d.quote.call_id === c.quote.call_id && d.quote.quote === c.quote.quote) === i)
  const picked: Array<typeof unique[number]> = []
  for (const c of unique) if (picked.length < n && !picked.some((p) => p.quote.call_id === c.quote.call_id)) picked.push(c)
  for (const c of unique) if (picked.length < n && !picked.includes(c)) picked.push(c)
  return picked.map((p) => p.quote) as Array<Quote>
}

/** Per dimension (the scorecard's order), the scores of the calls where it was assessed. */
const scoresBy = (calls: ReadonlyArray<ParsedCall>) =>
  DIMENSIONS.map((dimension) => ({
    dimension,
    scores: calls.flatMap((c) => {
      const s = c.scores.get(dimension)
      return s === undefined ? [] : [s.score]
    })
  })).filter((d) => d.scores.length > 0)

/** The `n` highest (`order` -1) or lowest (1) dimensions by mean, ties in the scorecard's order, leaving out `not`. */
const ranked = (dims: ReturnType<typeof scoresBy>, order: 1 | -1, n: number, not: ReadonlyArray<string> = []) =>
  dims
    .filter((d) => !not.includes(d.dimension))
    .map((d, i) => ({ ...d, m: mean(d.scores), i }))
    .sort((a, b) => order * (a.m - b.m) || a.i - b.i)
    .slice(0, n)

const findings = (calls: ReadonlyArray<ParsedCall>, dims: ReturnType<typeof scoresBy>, quotes: number) => {
  const strengths = ranked(dims, -1, 2)
  const weaknesses = ranked(dims, 1, 2, strengths.map((d) => d.dimension))
  const finding = (sign: 1 | -1) => (d: { dimension: string; m: number }): Finding => ({
    dimension: d.dimension,
    label: labelOf(d.dimension),
    mean: round(d.m, 1),
    quotes: quotesOf(calls, d.dimension, sign, quotes)
  })
  return { strengths: strengths.map(finding(1)), weaknesses: weaknesses.map(finding(-1)) }
}

/** The calls under the target on `dimension`, lowest first (then in the calls' order). */
const belowTarget = (calls: ReadonlyArray<ParsedCall>, dimension: string) =>
  calls
    .flatMap((c, i) => {
      const s = c.scores.get(dimension)
      return s !== undefined && s.score < TARGET ? [{ c, i, score: s.score }] : []
    })
    .sort((a, b) => a.score - b.score || a.i - b.i)
    .map((x) => x.c)

/**
 * The audit's figures over `inputs` (completed calls), each closer named as the tenant's closers
 * spell them (`closers`: lower-case e-mail → e-mail and full name).
 */
export const closingAuditFigures = (
  inputs: ReadonlyArray<AuditCallInput>,
  closers: ReadonlyMap<string, { readonly email: string; readonly full_name: string | null }>
): Figures => {
  // by closer (e-mail ascending, no closer last), then newest first
  const calls = inputs.map(parse).sort((a, b) =>
    a.closerKey === b.closerKey
      ? b.input.completed_at.localeCompare(a.input.completed_at) || a.input.call_id.localeCompare(b.input.call_id)
      : a.closerKey === null ? 1 : b.closerKey === null ? -1 : a.closerKey.localeCompare(b.closerKey))
  const dims = scoresBy(calls)
  const teamMean = new Map(dims.map((d) => [d.dimension, mean(d.scores)]))
  const overalls = calls.flatMap((c) => (c.overall === null ? [] : [c.overall]))
  const talk = calls.flatMap((c) => (c.talkRatio === null ? [] : [c.talkRatio]))
  const closerKeys = [...new Set(calls.map((c) => c.closerKey))]

  const closerFigures = closerKeys.map((key) => {
    const own = calls.filter((c) => c.closerKey === key)
    const ownDims = scoresBy(own)
    const known = key === null ? undefined : closers.get(key)
    return {
      closer_email: key === null ? null : known?.email ?? own[0]!.input.closer_email,
      full_name: known?.full_name ?? null,
      calls: own.length,
      call_ids: own.map((c) => c.input.call_id),
      overall: spreadOf(own.flatMap((c) => (c.overall === null ? [] : [c.overall]))),
      dimensions: ownDims.map((d) => ({
        dimension: d.dimension,
        label: labelOf(d.dimension),
        ...spreadOf(d.scores),
        vs_team: round(mean(d.scores) - teamMean.get(d.dimension)!, 1)
      })),
      ...(() => {
        const f = findings(own, ownDims, 1)
        return { strengths: f.strengths, gaps: f.weaknesses }
      })()
    }
  })

  // the points each dimension would add to the team's mean overall, if every call under the target reached it
  const scored = calls.filter((c) => c.overall !== null && c.weightSum > 0)
  const changes = dims
    .map((d, i) => {
      const under = belowTarget(calls, d.dimension)
      const gain = scored.reduce((n, c) => {
        const s = c.scores.get(d.dimension)
        return s === undefined ? n : n + (s.weight / c.weightSum) * Math.max(0, TARGET - s.score)
      }, 0)
      return { d, i, under, points: scored.length === 0 ? 0 : gain / scored.length }
    })
    .filter((x) => x.points > 0)
    .sort((a, b) => b.points - a.points || b.under.length - a.under.length || a.i - b.i)
    .slice(0, 3)
    .map((x, rank) => ({
      rank: rank + 1,
      dimension: x.d.dimension,
      label: labelOf(x.d.dimension),
      advice: ADVICE[x.d.dimension] ?? `Raise ${labelOf(x.d.dimension)} to ${TARGET}.`,
      points: round(x.points, 1),
      calls_affected: x.under.length,
      closers_affected: new Set(x.under.flatMap((c) => (c.closerKey === null ? [] : [c.closerKey]))).size,
      call_ids: x.under.map((c) => c.input.call_id),
      quotes: quotesOf(x.under, x.d.dimension, -1, QUOTES)
    }))

  return {
    method: CLOSING_AUDIT_METHOD,
    target: TARGET,
    call_list: calls.map((c) => ({
      call_id: c.input.call_id,
      external_call_id: c.input.external_call_id,
      closer_email: c.input.closer_email,
      completed_at: c.input.completed_at,
      duration_s: c.input.duration_s,
      call_type: c.callType,
      overall_score: c.overall
    })),
    team: {
      closers: closerKeys.filter((k) => k !== null).length,
      overall: spreadOf(overalls),
      talk_ratio: talk.length === 0 ? null : round(mean(talk), 3),
      objections: calls.reduce((n, c) => n + c.objections, 0),
      calls_without_next_step: calls.filter((c) => c.hasTranscript && c.nextSteps === 0).map((c) => c.input.call_id),
      dimensions: dims.map((d) => {
        const weights = calls.flatMap((c) => {
          const s = c.scores.get(d.dimension)
          return s === undefined ? [] : [s.weight]
        })
        return {
          dimension: d.dimension,
          label: labelOf(d.dimension),
          ...spreadOf(d.scores),
          weight: round(mean(weights), 2),
          below_target: belowTarget(calls, d.dimension).map((c) => c.input.call_id)
        }
      }),
      ...findings(calls, dims, QUOTES)
    },
    closers: closerFigures,
    changes
  } as unknown as Figures
}
