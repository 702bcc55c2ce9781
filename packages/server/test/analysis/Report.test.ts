/** The report: one self-contained, escaped HTML page with the scorecard, timeline and method. */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { METHOD_VERSION } from "../../src/analysis/Method.js"
import { escapeHtml, formatClock, renderReport, type ReportInput } from "../../src/analysis/Report.js"
import { findMoments, scoreCall } from "../../src/analysis/Scorecard.js"
import type { Metrics, SpeakerSummary, Turn } from "../../src/analysis/Types.js"

const HOSTILE = "<script>alert(1)</script>"

const sample = (overrides: Partial<ReportInput> = {}): ReportInput => {
  const truth = JSON.parse(
    readFileSync(new URL("../../../../test/fixtures/discovery-short.truth.json", import.meta.url), "utf8")
  ) as { duration: number; turns: Array<{ speaker: string; start: number; end: number }> }
  const turns: Array<Turn> = truth.turns.map((t) => ({
    speaker: t.speaker === "rep" ? "S1" : "S2",
    role: t.speaker === "rep" ? "rep" : "buyer",
    start: t.start,
    end: t.end
  }))
  const duration = truth.duration
  const m = findMoments({ speaker_turns: turns, speakers: [], duration_s: duration })
  const speakers: Array<SpeakerSummary> = [
    { speaker: "S1", role: "rep", role_confidence: 0.86, talk_time_s: m.repTalk_s, talk_share: m.repTalk_s / (m.repTalk_s + m.buyerTalk_s) },
    { speaker: "S2", role: "buyer", role_confidence: 0.86, talk_time_s: m.buyerTalk_s, talk_share: m.buyerTalk_s / (m.repTalk_s + m.buyerTalk_s) }
  ]
  const metrics: Metrics = {
    talk_ratio: m.repTalk_s / (m.repTalk_s + m.buyerTalk_s),
    longest_monologue_s: m.monologues[0]!.end - m.monologues[0]!.start,
    longest_customer_story_s: m.stories[0]!.end - m.stories[0]!.start,
    interactivity: m.switches / (duration / 60),
    patience_s: 0.8,
    interruptions: m.interruptions.length,
    silence_ratio: 1 - (m.repTalk_s + m.buyerTalk_s) / duration,
    question_count: null,
    question_rate: null,
    words_per_minute: null,
    filler_rate: null
  }
  const scored = scoreCall({ metrics, speaker_turns: turns, speakers, duration_s: duration })
  return {
    call_id: "call_01JQ8ZK4V3M2N7P5R6S8T9W0XY",
    external_call_id: "ACME-0412",
    created_at: "2025-04-12T14:03:27Z",
    duration_s: duration,
    channels: 1,
    method_version: METHOD_VERSION,
    speakers,
    speaker_turns: turns,
    metrics,
    scorecard: scored.scorecard,
    evidence: scored.evidence,
    transcript: null,
    ...overrides
  }
}

describe("escapeHtml", () => {
  it("escapes the five HTML-special characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
    expect(escapeHtml("plain text")).toBe("plain text")
    expect(escapeHtml(null)).toBe("")
  })
})

describe("renderReport", () => {
  it("is one complete HTML document with the header facts", () => {
    const html = renderReport(sample())
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true)
    expect(html).toContain("</html>")
    expect(html).toContain("call_01JQ8ZK4V3M2N7P5R6S8T9W0XY")
    expect(html).toContain("ACME-0412")
    expect(html).toContain("2025-04-12 14:03 UTC")
    expect(html).toContain("1:15") // duration 74.952 s
    expect(html).toMatch(/Speakers<\/dt><dd>2</)
    expect(formatClock(3725)).toBe("1:02:05")
  })

  it("escapes a hostile external id and speaker labels everywhere", () => {
    const input = sample({ external_call_id: HOSTILE })
    const relabel = (s: string) => (s === "S2" ? `"><img src=x onerror=alert(2)>` : s)
    const html = renderReport({
      ...input,
      speakers: input.speakers.map((s) => ({ ...s, speaker: relabel(s.speaker) })),
      speaker_turns: input.speaker_turns.map((t) => ({ ...t, speaker: relabel(t.speaker) })),
      evidence: input.evidence.map((e) => ({ ...e, speaker: e.speaker === null ? null : relabel(e.speaker) }))
    })
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(html).not.toContain(HOSTILE)
    expect(html).not.toMatch(/<img/i)
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;")
  })

  it("loads nothing: no scripts, no external URLs, no src attributes", () => {
    const html = renderReport(sample({ external_call_id: HOSTILE }))
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/https?:\/\//i)
    expect(html).not.toMatch(/\ssrc\s*=/i)
    expect(html).not.toMatch(/@import|@font-face/i)
    for (const href of html.matchAll(/href="([^"]*)"/g)) expect(href[1]!.startsWith("#")).toBe(true)
    for (const url of html.matchAll(/url\(([^)]*)\)/g)) expect(url[1]!.startsWith("#")).toBe(true)
    expect(html).toContain("<style>")
    expect(html).toContain("@media print")
  })

  it("draws the speaker timeline and the talk-ratio chart as inline SVG", () => {
    const html = renderReport(sample())
    expect(html).toContain(`<svg class="timeline"`)
    expect(html).toContain(`<svg class="talk"`)
    expect(html).toContain("43 % top performers")
    expect(html).toContain("Rep 44 %")
    // one lane per speaker, every turn drawn
    const input = sample()
    const timeline = html.slice(html.indexOf(`<svg class="timeline"`), html.indexOf("</svg>", html.indexOf(`<svg class="timeline"`)))
    expect(timeline.match(/<g class="lane">/g)!.length).toBe(2)
    expect(timeline.match(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+" rx="2" fill=/g)!.length)
      .toBe(input.speaker_turns.length)
  })

  it("links every score to its evidence and every evidence marker to an anchor that exists", () => {
    const input = sample()
    const html = renderReport(input)
    for (let n = 1; n <= input.evidence.length; n++) expect(html).toContain(`id="ev-${n}"`)
    const targets = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!)
    expect(targets.filter((t) => t.startsWith("ev-")).length).toBeGreaterThanOrEqual(input.evidence.length)
    for (const t of new Set(targets)) expect(html).toContain(`id="${t}"`)
    // the listening score row carries its evidence links with their effects
    expect(html).toMatch(/id="dim-listening"[\s\S]*?href="#ev-1"[^>]*>#1 \+25</)
    expect(html).toContain("Longest customer story (13 s)")
  })

  it("shows not assessed dimensions with their reasons, the weights, and the overall score", () => {
    const input = sample()
    const html = renderReport(input)
    expect(html.match(/Not assessed<\/span>/g)!.length).toBe(4)
    expect(html).toContain("needs a transcript: objections and the rep&#39;s responses are found in the words")
    for (const w of ["20 %", "15 %"]) expect(html).toContain(w)
    expect(html).toContain(`Overall score ${input.scorecard.overall} of 100`)
    expect(html).toContain("2 of 6")
  })

  it("puts metrics beside their reference values and sources", () => {
    const html = renderReport(sample())
    expect(html).toContain("Gong Labs, 25,537 calls")
    expect(html).toContain("Gong Labs, 257,967 calls")
    expect(html).toContain("Gong Labs, 519,000 calls")
    expect(html).toContain("11–14 questions in discovery calls")
    expect(html).toContain("overviews past 2 minutes go with lower win rates")
    expect(html).toContain("not assessed · needs a transcript")
  })

  it("ends with a method note: method_version, acoustic-only, the rules", () => {
    const html = renderReport(sample({ method_version: "callsight-acoustic-9.9<x>" }))
    expect(html).toContain("callsight-acoustic-9.9&lt;x&gt;")
    expect(html).toContain("acoustic-only: no transcript")
    expect(html).toContain("Scoring rules")
    expect(renderReport(sample())).toContain(METHOD_VERSION)
  })

  it("shows a transcript when there is one, escaped, and drops the acoustic-only note", () => {
    const html = renderReport(
      sample({ transcript: [{ speaker: "S2", start: 16.4, end: 29.4, text: "Our win rate <dropped> & we lost $400k" }] })
    )
    expect(html).toContain("Our win rate &lt;dropped&gt; &amp; we lost $400k")
    expect(html).toContain("0:16")
    expect(html).not.toContain("acoustic-only: no transcript")
  })

  it("renders a call where nothing could be assessed", () => {
    const input = sample()
    const html = renderReport({
      ...input,
      external_call_id: null,
      scorecard: {
        overall: null,
        dimensions: input.scorecard.dimensions.map((d) => ({ ...d, score: null, assessed: false, reason: "needs both sides" }))
      },
      evidence: []
    })
    expect(html).toContain("Overall score not assessed")
    expect(html.match(/Not assessed<\/span>/g)!.length).toBeGreaterThanOrEqual(6)
    expect(html).toContain("No evidence")
  })

  it("is deterministic", () => {
    expect(renderReport(sample())).toBe(renderReport(sample()))
  })
})
