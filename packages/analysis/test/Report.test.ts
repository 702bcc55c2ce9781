/**
 * The report: one self-contained, escaped HTML page with the scorecard, timeline and method, and
 * with a transcript the qualification checklist, objections, next steps and the transcript itself.
 */
import { describe, expect, it } from "@effect/vitest"
import { METHOD_VERSION } from "../src/Method.js"
import { escapeHtml } from "../src/report/Html.js"
import { formatClock } from "../src/report/Format.js"
import { renderReport } from "../src/report/Report.js"
import { sample, SEGMENTS, withTranscript } from "./ReportSamples.js"

const HOSTILE = "<script>alert(1)</script>"

/** The section of the page with this id, up to the next section. */
const section = (html: string, id: string): string => {
  const at = html.indexOf(`<section class="card${""}`, html.lastIndexOf("<section", html.indexOf(`id="${id}"`)))
  expect(html.slice(at, at + 200), `section #${id}`).toContain(`id="${id}"`)
  return html.slice(at, html.indexOf("</section>", at))
}

/** The overall score's card (in the summary, beside the talk ratio). */
const overallCard = (html: string): string => html.slice(html.indexOf(`id="overall"`), html.indexOf(`id="talk-ratio"`))

const ids = (html: string) => [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!)
const internalLinks = (html: string) => [...html.matchAll(/href="#([^"]*)"/g)].map((m) => m[1]!)

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

  it("shows an overall score resting on fewer than 4 of 6 dimensions as partial, without a grade word", () => {
    const input = sample()
    expect(input.scorecard.overall_basis).toEqual({ assessed: 2, of: 6, partial: true })
    const overall = overallCard(renderReport(input))
    expect(overall).toMatch(/<span class="grade grade-partial">Partial \(2 of 6\)<\/span>/)
    expect(overall).toContain("a partial score, with no grade")
    expect(overall).toContain("ring-partial")
    for (const word of ["Strong", "Fair", "Needs work", "grade-good", "grade-fair", "grade-poor"]) expect(overall).not.toContain(word)
    expect(section(renderReport(input), "scorecard")).toContain("partial (2 of 6), no grade")
    // a result stored before overall_basis: read off its dimensions
    const { overall_basis: _, ...old } = input.scorecard
    expect(overallCard(renderReport({ ...input, scorecard: old }))).toContain("Partial (2 of 6)")
    // 4 of 6 assessed: a full score, with its grade word
    const full = overallCard(renderReport(withTranscript()))
    expect(full).not.toContain("Partial")
    expect(full).toMatch(/grade-(good|fair|poor)">(Strong|Fair|Needs work)</)
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

describe("renderReport with a transcript", () => {
  it("adds the qualification checklist, objections, next steps and the transcript, in that order", () => {
    const html = renderReport(withTranscript())
    const order = ["scorecard", "timeline", "metrics", "qualification", "objections", "next-steps", "evidence", "transcript", "method"]
    const positions = order.map((id) => html.indexOf(`id="${id}"`))
    for (const p of positions) expect(p).toBeGreaterThan(0)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(html).not.toContain(`id="needs-transcript"`)
    expect(html).not.toContain("acoustic-only: no transcript")
    expect(html).toContain("Acoustic analysis with transcript")
  })

  it("scores each MEDDPICC element 0/1/2 with its quote linked to the transcript", () => {
    const q = section(renderReport(withTranscript()), "qualification")
    expect(q).toContain(`<span class="framework">MEDDPICC</span>`)
    expect(q.match(/<li class="q lvl-/g)!.length).toBe(8)
    expect(q.match(/<li class="q lvl-specific"/g)!.length).toBe(4)
    expect(q.match(/<li class="q lvl-vague"/g)!.length).toBe(2)
    expect(q.match(/<li class="q lvl-none"/g)!.length).toBe(2)
    // 2+2+0+1+2+2+0+1 of 16 points
    expect(q).toContain("<b>10</b><span>of 16 points · 63 %</span>")
    expect(q).toContain("4 specific")
    expect(q).toContain("2 not covered")
    for (const label of ["Metrics", "Economic buyer", "Decision criteria", "Decision process", "Paper process", "Identify pain", "Champion", "Competition"]) {
      expect(q).toContain(`<b>${label}</b>`)
    }
    const row = (n: number) => q.slice(q.indexOf(`id="q-${n}"`), q.indexOf("</li>", q.indexOf(`id="q-${n}"`)))
    // metrics: specific, the buyer's number, at 0:35 in the transcript
    expect(row(1)).toContain(`<span class="q-score">2</span><span class="q-label">Specific</span>`)
    expect(row(1)).toContain("“We are about four hundred thousand dollars behind plan for the half.”")
    expect(row(1)).toContain(`href="#t-35.3"`)
    expect(row(3)).toContain(`<span class="q-score">0</span><span class="q-label">Not covered</span>`)
    expect(row(3)).toContain("Not raised on the call")
    expect(row(4)).toContain(`<span class="q-score">1</span><span class="q-label">Vague</span>`)
    expect(row(4)).toContain(`href="#t-52.3"`)
  })

  it("lists objections with the rep's response, the pause, and what the rep said next", () => {
    const o = section(renderReport(withTranscript()), "objections")
    const price = o.slice(o.indexOf(`id="obj-1"`), o.indexOf("</tr>", o.indexOf(`id="obj-1"`)))
    expect(price).toContain(`<span class="kind kind-price">Price</span>`)
    expect(price).toContain("Asked a question back")
    expect(price).toContain(">1.4 s<")
    expect(price).toContain("“We are about four hundred thousand dollars behind plan”")
    expect(price).toContain(`<a class="ts" href="#t-35.3"`)
    // the rep's next words: the question back
    expect(price).toContain("“Understood. Who else would be involved in choosing a tool like this?”")
    expect(price).toContain(`href="#t-47.6"`)
    const competitor = o.slice(o.indexOf(`id="obj-2"`))
    expect(competitor).toContain("Competitor")
    expect(competitor).toContain("Answered with a long pitch")
    expect(competitor).toContain(`<span class="na">—</span>`)
  })

  it("lists next steps with their owner and date, and flags the ones without", () => {
    const n = section(renderReport(withTranscript()), "next-steps")
    const dated = n.slice(n.indexOf(`id="ns-1"`), n.indexOf("</tr>", n.indexOf(`id="ns-1"`)))
    expect(dated).toContain("“Could we book thirty minutes next Tuesday?”")
    expect(dated).toMatch(/S1 <small[^>]*>rep<\/small>/)
    expect(dated).toContain("<b>Tuesday 14:00</b>")
    expect(dated).toContain("dated, with owner")
    const loose = n.slice(n.indexOf(`id="ns-2"`))
    expect(loose).toContain("“Send me the invite.”")
    expect(loose).toContain("not named")
    expect(loose).toContain("no date, no owner")
    expect(loose).toContain(`href="#t-71.1"`) // 72.5 s falls in the buyer's last segment
  })

  it("anchors every transcript segment and links evidence, quotes and markers to the moments", () => {
    const input = withTranscript()
    const html = renderReport(input)
    const t = section(html, "transcript")
    expect(t.match(/<li class="seg /g)!.length).toBe(SEGMENTS.length)
    for (const s of SEGMENTS) expect(t).toContain(`id="t-${Math.round(s.start * 10) / 10}"`)
    expect(t).toContain("Honestly, our win rate dropped from thirty one percent")
    // each quoted evidence item links from the evidence list to its segment, and back by a tag
    for (const [n, item] of input.evidence.entries()) {
      if (item.quote === null) continue
      const row = html.slice(html.indexOf(`<tr id="ev-${n + 1}"`), html.indexOf("</tr>", html.indexOf(`<tr id="ev-${n + 1}"`)))
      const anchor = `t-${Math.round(item.start * 10) / 10}`
      expect(row).toContain(`href="#${anchor}"`)
      const seg = t.slice(t.indexOf(`id="${anchor}"`), t.indexOf("</li>", t.indexOf(`id="${anchor}"`)))
      expect(seg).toContain(`href="#ev-${n + 1}"`)
    }
    // the scorecard quotes the discovery evidence, each linked to its moment
    const discovery = html.slice(html.indexOf(`id="dim-discovery"`), html.indexOf("</tr>", html.indexOf(`id="dim-discovery"`)))
    expect(discovery).toContain("“What prompted you to look at call coaching tools right now?”")
    expect(discovery).toMatch(/<a class="ts" href="#t-11.5"[^>]*>0:11<\/a>/)
    expect(discovery).toMatch(/<a class="ts" href="#t-30.3"[^>]*>0:30<\/a>/)
    // ids are unique, and every internal link lands on one
    const all = ids(html)
    expect(new Set(all).size).toBe(all.length)
    for (const target of new Set(internalLinks(html))) expect(all).toContain(target)
  })

  it("names the provider and shows the diarization agreement as a percentage", () => {
    const html = renderReport(withTranscript())
    const method = section(html, "method")
    expect(method).toContain("transcript by <b>Deepgram</b>")
    expect(method).toContain("nova-3")
    expect(method).toContain("<b>93 %</b> of speech time")
    expect(html).toMatch(/Transcript<\/dt><dd>Deepgram · nova-3</)
    const silent = renderReport(withTranscript({ transcription: { provider: "whisper-local", model: "whisper-1", language: "en", diarization_agreement: null } }))
    expect(section(silent, "method")).toContain("transcript by <b>whisper-local</b>")
    expect(section(silent, "method")).toContain("no second opinion")
  })

  it("escapes hostile quotes, speaker labels and element names", () => {
    const input = withTranscript()
    const evil = `"><img src=x onerror=alert(2)>`
    const relabel = (s: string | null) => (s === "S2" ? evil : s)
    const html = renderReport({
      ...input,
      speakers: input.speakers.map((s) => ({ ...s, speaker: relabel(s.speaker)! })),
      speaker_turns: input.speaker_turns.map((t) => ({ ...t, speaker: relabel(t.speaker)! })),
      evidence: input.evidence.map((e) => ({ ...e, speaker: relabel(e.speaker), quote: e.quote === null ? null : `${e.quote} ${HOSTILE}` })),
      transcript: SEGMENTS.map((s) => ({ ...s, speaker: relabel(s.speaker)!, text: `${s.text} ${HOSTILE}` })),
      qualification: {
        framework: "MEDDPICC",
        elements: [
          ...input.qualification!.elements,
          { element: `<b onmouseover=alert(3)>budget</b>`, score: 1, evidence: { dimension: "qualification", start: 35.3, end: 46.7, speaker: evil, quote: HOSTILE, effect: 1 } }
        ]
      },
      objections: input.objections!.map((o) => ({ ...o, quote: `${HOSTILE} ${o.quote}` })),
      next_steps: [{ at: 61.2, quote: HOSTILE, owner: `<i>${HOSTILE}</i>`, due: `<u>Tuesday</u>` }],
      transcription: { provider: `<svg onload=alert(4)>`, model: HOSTILE, language: HOSTILE, diarization_agreement: 0.9 }
    })
    expect(html).not.toContain(HOSTILE)
    expect(html).not.toMatch(/<script|<img|<svg onload|<b onmouseover|<u>/i)
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;")
    expect(html).toContain("&lt;b onmouseover=alert(3)&gt;budget&lt;/b&gt;")
    expect(html).toContain("&lt;svg onload=alert(4)&gt;")
    expect(html).toContain("&lt;u&gt;Tuesday&lt;/u&gt;")
    expect(html).toContain("&lt;i&gt;&lt;script&gt;")
    for (const target of new Set(internalLinks(html))) expect(ids(html)).toContain(target)
  })

  it("names unknown elements, providers and dimensions by their own words", () => {
    const input = withTranscript()
    const html = renderReport({
      ...input,
      evidence: [...input.evidence, { dimension: "constructor", start: 8.42, end: 10.895, speaker: "S2", quote: "Yes", effect: 0 }],
      qualification: { framework: "BANT", elements: [{ element: "constructor", score: 0, evidence: null }, { element: "budget", score: 1, evidence: null }] },
      transcription: { provider: "constructor", model: "m", language: "en", diarization_agreement: null }
    })
    expect(html).not.toMatch(/native code|function Object/)
    expect(section(html, "qualification")).toContain("<b>Constructor</b>")
    expect(section(html, "qualification")).toContain("<b>Budget</b><small>money set aside, and how much</small>")
    expect(section(html, "method")).toContain("transcript by <b>constructor</b>")
    expect(section(html, "evidence")).toMatch(/<td>constructor<\/td>/)
    for (const target of new Set(internalLinks(html))) expect(ids(html)).toContain(target)
  })

  it("loads nothing either: no scripts, no external resources", () => {
    const html = renderReport(
      withTranscript({ transcript: [...SEGMENTS, { speaker: "S2", start: 74.3, end: 74.9, text: `see <img src="https://evil.example/x.png"> and url(http://evil.example/y)` }] })
    )
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/\b(?:src|href|action|srcset|poster|data)\s*=\s*["']?\s*(?:https?:)?\/\//i)
    // style sheets: the <style> element and style attributes
    const css = [html.slice(html.indexOf("<style>"), html.indexOf("</style>")), ...[...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) => m[1]!)]
    for (const sheet of css) expect(sheet).not.toMatch(/url\(\s*["']?\s*(?:https?:)?\/\/|@import|@font-face/i)
    expect(html).not.toMatch(/<link|<iframe|<object|<embed/i)
    expect(html).toContain("see &lt;img src=&quot;https://evil.example/x.png&quot;&gt;")
    for (const href of html.matchAll(/\shref="([^"]*)"/g)) expect(href[1]!.startsWith("#")).toBe(true)
  })

  it("leaves the transcript out when include_transcript is false, and keeps quotes and the checklist", () => {
    const full = renderReport(withTranscript())
    const html = renderReport(withTranscript({ include_transcript: false }))
    expect(html).not.toContain(`class="segments"`)
    expect(html).not.toMatch(/id="t-/)
    expect(html).not.toMatch(/href="#t-/)
    expect(html).not.toContain("Honestly, our win rate dropped from thirty one percent to twenty four percent last quarter, and we have")
    expect(section(html, "transcript")).toContain("The transcript is left out of this report")
    // the rest stays: checklist, objections, next steps, quotes (with their times, unlinked)
    expect(section(html, "qualification")).toBe(section(full, "qualification").replace(/<a class="ts" href="#[^"]+" title="[^"]+">([^<]+)<\/a>/g, `<span class="ts">$1</span>`))
    expect(section(html, "objections")).toContain("Asked a question back")
    expect(section(html, "next-steps")).toContain("Tuesday 14:00")
    expect(html).toContain("“What prompted you to look at call coaching tools right now?”")
    expect(html).toContain(`<span class="ts">0:11</span>`)
    expect(html).toContain("<b>93 %</b> of speech time")
    for (const target of new Set(internalLinks(html))) expect(ids(html)).toContain(target)
    // the default is to include it
    expect(renderReport(withTranscript({ include_transcript: true }))).toBe(full)
  })

  it("says so when nothing was raised, agreed or assessed", () => {
    const html = renderReport(withTranscript({ qualification: null, objections: [], next_steps: [], transcription: null }))
    expect(section(html, "qualification")).toContain("Not assessed for this call")
    expect(section(html, "objections")).toContain("No objections were raised on this call")
    expect(section(html, "next-steps")).toContain("No next step was agreed on this call")
    expect(section(html, "method")).toContain("the configured speech-to-text provider")
    const empty = renderReport(withTranscript({ transcript: [] }))
    expect(section(empty, "transcript")).toContain("The provider returned no words")
    for (const target of new Set(internalLinks(empty))) expect(ids(empty)).toContain(target)
  })

  it("says which dimensions the tenant's LLM assisted, marks what it found, and counts what it dropped", () => {
    const base = withTranscript()
    const added = { kind: "authority" as const, at: 52.332, quote: "procurement and legal review the contract", response: "other" as const, response_pause_s: null, source: "llm" as const }
    const html = renderReport({
      ...base,
      objections: [...(base.objections ?? []), added],
      evidence: base.evidence.map((e) => ({ ...e, source: e.dimension === "next_steps" ? ("llm" as const) : ("rules" as const) })),
      llm: { provider: "openai", model: "gpt-4.1-mini", assisted_dimensions: ["next_steps", "qualification"], added_items: 2, dropped_items: 1, error: null }
    })
    const overall = overallCard(html)
    expect(overall).toContain("LLM-assisted: <b>Next steps, qualification</b> (openai · gpt-4.1-mini): 2 verified items added")
    expect(overall).toContain("1 item dropped: not found in the transcript")
    const row = section(html, "scorecard").split("<tr").find((r) => r.includes(`id="dim-next_steps"`))!
    expect(row).toContain("LLM-assisted")
    expect(row).toContain(`class="src-llm"`)
    expect(section(html, "scorecard").split("<tr").find((r) => r.includes(`id="dim-discovery"`))).not.toContain("src-llm")
    const objectionRows = section(html, "objections").split("<tr id=").slice(1)
    expect(objectionRows.at(-1)).toContain(`class="src-llm"`)
    expect(objectionRows[0]).not.toContain(`class="src-llm"`)
    expect(section(html, "method")).toContain("LLM assistance: the transcript was sent to the tenant's LLM")

    const failed = renderReport({
      ...base,
      llm: { provider: "anthropic", model: "claude-sonnet-4-5", assisted_dimensions: [], added_items: 0, dropped_items: 0, error: "Anthropic did not answer within 2m" }
    })
    expect(overallCard(failed)).toContain("gave no assessment: Anthropic did not answer within 2m. The scores are the rules' alone.")
    expect(failed).not.toContain(`class="src-llm"`)
    expect(renderReport(base)).not.toContain("LLM")
  })

  it("is deterministic", () => {
    expect(renderReport(withTranscript())).toBe(renderReport(withTranscript()))
  })
})
