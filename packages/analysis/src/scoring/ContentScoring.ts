/**
 * The content dimensions, scored from the words (with a transcript): Discovery, Objection
 * handling, Value and Next steps, from what the content analysis found (`Content.ts`). Every one
 * of their evidence items quotes the words it points at.
 */
import type { ContentAnalysis } from "../text/Content.js"
import { OBJECTION_PAUSE_S } from "../text/findings/Objections.js"
import type { Moment } from "../text/Moment.js"
import type { EvidenceItem } from "../Types.js"
import { type DimensionName, NEEDS_TRANSCRIPT } from "./Dimensions.js"
import { type Applied, fmtS, item, type NotAssessed, perEventEffects, round1, roundPoints, rule, signed } from "./Evidence.js"
import { interpolate, questionReference, type RuleId } from "./Rules.js"

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
export const contentRules = (
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
