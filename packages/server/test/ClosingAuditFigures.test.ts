/**
 * The closing audit's rules on hand-made analyses (views/ClosingAudit.ts, docs/closing-audit.md), the
 * cases the seeded calls of ClosingAudit.test.ts may not reach: a quote is kept only when its words
 * are in the call's transcript (a cut one by its words before `…`); a dimension not assessed is left
 * out; ties go to the scorecard's order; a change's points are the overall points the team would
 * gain; nothing at all assessed gives empty figures, and no change when all is at the target.
 */
import { describe, expect, it } from "@effect/vitest"
import { type AuditCallInput, closingAuditFigures, spreadOf } from "../src/views/ClosingAudit.js"
import { closingAuditHtml } from "../src/views/ClosingAuditHtml.js"

const dims = (scores: Record<string, number | null>, weights: Record<string, number> = {}) =>
  Object.entries(scores).map(([dimension, score]) => ({ dimension, score, assessed: score !== null, weight: weights[dimension] ?? 0.5, reason: null }))

const callOf = (id: string, closer: string | null, scores: Record<string, number | null>, extra: Record<string, unknown> = {}, weights?: Record<string, number>): AuditCallInput => {
  const assessed = Object.entries(scores).filter(([, s]) => s !== null) as Array<[string, number]>
  const w = (d: string) => weights?.[d] ?? 0.5
  const overall = assessed.length === 0 ? null : Math.round(assessed.reduce((n, [d, s]) => n + w(d) * s, 0) / assessed.reduce((n, [d]) => n + w(d), 0))
  return {
    call_id: id,
    external_call_id: null,
    closer_email: closer,
    completed_at: `2026-11-0${id.slice(-1)}T10:00:00.000Z`,
    duration_s: 60,
    result: { scorecard: { overall, dimensions: dims(scores, weights) }, transcript: [{ speaker: "S1", start: 0, end: 5, text: "We can start on Monday. The price is fair for you." }], ...extra }
  }
}

const NONE = new Map<string, { email: string; full_name: string | null }>()

describe("the closing audit's figures", () => {
  it("spreads: mean, population SD, least and most; nothing when empty", () => {
    expect(spreadOf([50, 70, 90])).toEqual({ calls: 3, mean: 70, sd: 16.3, min: 50, max: 90 })
    expect(spreadOf([])).toEqual({ calls: 0, mean: null, sd: null, min: null, max: null })
  })

  it("keeps a quote only when its words are in the transcript, a cut one by its words before …", () => {
    const evidence = [
      { dimension: "next_steps", start: 0, speaker: "S1", quote: "We can start on Monday.", effect: 20 },
      { dimension: "next_steps", start: 1, speaker: "S1", quote: "The price is…", effect: 10 },
      { dimension: "next_steps", start: 2, speaker: "S1", quote: "Words nobody said.", effect: 30 },
      { dimension: "next_steps", start: 3, speaker: "S1", quote: null, effect: 40 }
    ]
    const f = closingAuditFigures([callOf("call_1", "a@x.test", { next_steps: 90, value: 40 }, { evidence })], NONE)
    expect(f.team.strengths[0]!.quotes.map((q) => q.quote)).toEqual(["We can start on Monday.", "The price is…"])
  })

  it("leaves out a dimension not assessed, breaks ties in the scorecard's order, and ranks changes by the overall points", () => {
    const calls = [
      callOf("call_1", "a@x.test", { discovery: 60, listening: 60, value: null }),
      callOf("call_2", "A@X.test", { discovery: 60, listening: 60, value: 40 }),
      callOf("call_3", "b@x.test", { discovery: 80, listening: 80, value: 80 })
    ]
    const f = closingAuditFigures(calls, new Map([["a@x.test", { email: "a@x.test", full_name: "Ana" }]]))
    expect(f.team.dimensions.map((d) => [d.dimension, d.calls, d.mean])).toEqual([["discovery", 3, 66.7], ["listening", 3, 66.7], ["value", 2, 60]])
    // discovery and listening tie: discovery first among strengths
    expect(f.team.strengths.map((s) => s.dimension)).toEqual(["discovery", "listening"])
    expect(f.team.weaknesses.map((s) => s.dimension)).toEqual(["value"])
    // the closer by e-mail in any case, named as the roster names them
    expect(f.closers.map((c) => [c.closer_email, c.full_name, c.calls])).toEqual([["a@x.test", "Ana", 2], ["b@x.test", null, 1]])
    // value: call 2 gains 0.5 / 1.5 × 30 = 10 points, over 3 calls: 3.3; discovery and listening: (0.5/1 × 10 + 0.5/1.5 × 10) / 3 = 2.8 each
    expect(f.changes.map((c) => [c.dimension, c.points, c.calls_affected, c.closers_affected])).toEqual([
      ["value", 3.3, 1, 1],
      ["discovery", 2.8, 2, 1],
      ["listening", 2.8, 2, 1]
    ])
  })

  it("answers empty figures for calls with nothing assessed, and no change when every call is at the target", () => {
    const empty = closingAuditFigures([callOf("call_1", null, {})], NONE)
    expect(empty.team.overall).toEqual({ calls: 0, mean: null, sd: null, min: null, max: null })
    expect(empty.team.dimensions).toEqual([])
    expect(empty.changes).toEqual([])
    expect(empty.closers.map((c) => c.closer_email)).toEqual([null])
    const good = closingAuditFigures([callOf("call_1", "a@x.test", { discovery: 70, value: 95 })], NONE)
    expect(good.changes).toEqual([])
    // the page still renders, escaped, with dashes for what is not there
    const html = closingAuditHtml({
      ...empty,
      audit_id: "cla_1" as never,
      title: "<b>T</b>",
      created_at: "2026-11-01T00:00:00.000Z",
      selection: { mode: "call_ids", last_per_closer: null },
      calls: 1,
      credits_charged: 10,
      report_url: "",
      pdf_url: "",
      calls_removed: 0
    })
    expect(html).toContain("&lt;b&gt;T&lt;/b&gt;")
    expect(html).toContain('data-figure="team.overall.mean">–<')
  })
})
