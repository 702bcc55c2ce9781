/**
 * Explaining evidence (for the report): which rule put an evidence item's points on its moment,
 * and the short text the report shows for it.
 */
import type { ContentAnalysis } from "../text/Content.js"
import type { EvidenceItem } from "../Types.js"
import { contentRules } from "./ContentScoring.js"
import { DIMENSION_LABELS, type DimensionName } from "./Dimensions.js"
import { clampSpan, fmtS, round1, round3 } from "./Evidence.js"
import type { CallMoments, Span } from "./Moments.js"
import type { RuleId } from "./Rules.js"

const CONTENT_DIMENSIONS: ReadonlySet<DimensionName> = new Set(["discovery", "objection_handling", "value", "next_steps"])

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
