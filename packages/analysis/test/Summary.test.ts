/**
 * The call's summary (docs/method.md, "Summary"): what the buyer needs, what was agreed, the open
 * risks, each item quoted verbatim from the transcript; and the LLM's sentences, kept only where
 * every quote they cite is found.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync } from "node:fs"
import { ASR_CONDITIONS, ASR_SEED, noisyCall } from "../../../eval/asr-noise.js"
import { CALLS, contentInputOf, truthOf } from "../../../eval/calls.js"
import { FIXTURES, truth } from "../../../test/utils/Fixtures.js"
import { analyzeContent, type ContentAnalysis } from "../src/text/Content.js"
import { renderReport } from "../src/report/Report.js"
import { findQuote, type Summary, summarize, writtenSummary } from "../src/text/Summary.js"
import type { Turn } from "../src/Types.js"
import { withTranscript } from "./ReportSamples.js"
import { scriptedCall, type Who } from "./utils/ScriptedCall.js"

const scriptedTurns = (lines: ReadonlyArray<readonly [Who, string]>): Array<Turn> =>
  lines.map(([who], i) => ({ speaker: who === "rep" ? "S1" : who === "buyer" ? "S2" : "S3", role: who === "rep" ? "rep" : "buyer", start: i * 5, end: i * 5 + 4 }))

const summaryOf = (lines: ReadonlyArray<readonly [Who, string]>): { content: ContentAnalysis; summary: Summary } => {
  const content = scriptedCall(lines)
  const summary = summarize(content, [], scriptedTurns(lines))
  if (summary === null) throw new Error("no summary")
  return { content, summary }
}

const itemsOf = (s: Summary) => [...s.needs, ...s.agreed, ...s.risks]

/** Every quote is a substring of a segment of its speaker, and starts within it. */
const checkQuotes = (content: ContentAnalysis, summary: Summary, label: string) => {
  for (const item of itemsOf(summary)) {
    if (item.kind !== "no_next_step") expect(item.quotes.length, `${label}: ${item.text}`).toBeGreaterThan(0)
    for (const q of item.quotes) {
      const holding = content.transcript.filter((s) => s.speaker === q.speaker && s.text.includes(q.quote))
      expect(holding.length, `${label}: "${q.quote}" is not in a segment of ${q.speaker}`).toBeGreaterThan(0)
      expect(holding.some((s) => s.start - 0.01 <= q.start && q.start <= s.end + 0.01), `${label}: ${q.quote} at ${q.start}`).toBe(true)
      expect(q.quote.length).toBeLessThanOrEqual(160)
      expect(q.quote).not.toContain("…")
    }
  }
}

describe("summary quotes are verbatim", () => {
  it("on every fixture call: each quote is a substring of a transcript segment of its speaker, at its time", () => {
    const calls = readdirSync(FIXTURES).filter((f) => f.endsWith(".truth.json")).map((f) => f.replace(/\.truth\.json$/, ""))
    expect(calls.length).toBeGreaterThanOrEqual(5)
    let quotes = 0
    for (const call of calls) {
      const input = contentInputOf(truth(call))
      const content = analyzeContent(input)
      const summary = summarize(content, input.speakers, input.speaker_turns)!
      checkQuotes(content, summary, call)
      quotes += itemsOf(summary).reduce((n, i) => n + i.quotes.length, 0)
    }
    expect(quotes).toBeGreaterThan(10)
  })

  it("on every generated call of the evaluation (eval/calls): the same, and every call has a summary", () => {
    const ids = readdirSync(CALLS).filter((f) => f.endsWith(".truth.json")).map((f) => f.replace(/\.truth\.json$/, ""))
    expect(ids.length).toBeGreaterThan(300)
    let withRisks = 0
    for (const id of ids) {
      const input = contentInputOf(truthOf(id))
      const content = analyzeContent(input)
      const summary = summarize(content, input.speakers, input.speaker_turns)
      expect(summary, id).not.toBeNull()
      checkQuotes(content, summary!, id)
      // a call without a dated next step says so, and one with steps lists them as agreed
      expect(summary!.risks.some((r) => r.kind === "no_next_step"), id).toBe(content.next_steps.length === 0)
      expect(summary!.agreed.length, id).toBe(Math.min(5, content.next_steps.length))
      if (summary!.risks.length > 0) withRisks++
    }
    expect(withRisks).toBeGreaterThan(0)
  }, 240_000)
})

describe("summary quotes are verbatim on words as speech-to-text gives them", () => {
  it("on every fourth generated call, with 10 % word errors, lower case, digits, without punctuation and with automatic punctuation", () => {
    const ids = readdirSync(CALLS).filter((f) => f.endsWith(".truth.json")).map((f) => f.replace(/\.truth\.json$/, "")).filter((_, i) => i % 4 === 0)
    const conditions = ASR_CONDITIONS.filter((c) => c.name === "none, 10% WER" || c.name === "auto, 10% WER")
    expect(conditions).toHaveLength(2)
    let quotes = 0
    for (const c of conditions) {
      for (const id of ids) {
        const { input } = noisyCall(truthOf(id), id, ASR_SEED, c)
        const content = analyzeContent(input)
        const summary = summarize(content, input.speakers, input.speaker_turns)
        if (summary === null) continue
        checkQuotes(content, summary, `${id} (${c.name})`)
        quotes += itemsOf(summary).reduce((n, i) => n + i.quotes.length, 0)
      }
    }
    expect(quotes).toBeGreaterThan(100)
  }, 240_000)
})

describe("what the summary says", () => {
  it("an unresolved price objection is listed under risks, with the buyer's words", () => {
    const { content, summary } = summaryOf([
      ["rep", "The licence is forty thousand a year for the whole team."],
      ["buyer", "Honestly that is too expensive for us, we cannot justify that price."],
      ["rep", "Our customers usually see the value within the first quarter, the platform covers forecasting, coaching and reporting in one place, and the onboarding is included."],
      ["buyer", "I still think it costs too much."],
      ["rep", "Let me know what you decide."]
    ])
    checkQuotes(content, summary, "price")
    const risk = summary.risks.find((r) => r.kind === "objection")
    expect(risk?.text).toContain("price objection was left open")
    expect(risk?.quotes[0]).toEqual({ speaker: "S2", start: 15, quote: "I still think it costs too much." })
    expect(risk?.source).toBe("rules")
    // the price concern is listed once, where it was last raised
    expect(summary.risks.filter((r) => r.kind === "objection")).toHaveLength(1)
  })

  it("an objection the buyer side agrees to after the rep's answer is not a risk", () => {
    const { summary } = summaryOf([
      ["rep", "The licence is forty thousand a year for the whole team."],
      ["buyer", "Honestly that is too expensive for us."],
      ["rep", "What would it need to cost to make sense for you?"],
      ["buyer", "Okay, that makes sense, we could look at a smaller team first."],
      ["rep", "I'll send you the revised quote on Friday."],
      ["buyer", "Friday works for me."]
    ])
    expect(summary.risks.filter((r) => r.kind === "objection")).toEqual([])
  })

  it("an agreement taken back with a 'but' leaves the objection open", () => {
    const { summary } = summaryOf([
      ["rep", "The licence is forty thousand a year for the whole team."],
      ["buyer", "Honestly that is too expensive for us."],
      ["rep", "What would it need to cost to make sense for you?"],
      ["buyer", "Okay, I see the point, but we would need a much smaller number."]
    ])
    expect(summary.risks.filter((r) => r.kind === "objection").map((r) => r.quotes[0]?.quote)).toEqual(["Honestly that is too expensive for us."])
  })

  it("an agreed next step is listed under agreed, with its owner, due and the agreement quoted", () => {
    const { content, summary } = summaryOf([
      ["rep", "We lose about twenty percent of our deals in legal review, is that what you see too?"],
      ["buyer", "Yes, we lose about thirty percent of our renewals because the reviews take six weeks."],
      ["rep", "I'll send you the security pack by Tuesday."],
      ["buyer", "Tuesday works for me."]
    ])
    checkQuotes(content, summary, "agreed")
    expect(summary.agreed).toHaveLength(1)
    const step = summary.agreed[0]!
    expect(step.kind).toBe("next_step")
    expect(step.text).toBe("A next step for the rep, due Tuesday; the buyer side agreed.")
    expect(step.quotes.map((q) => q.quote)).toEqual(["I'll send you the security pack by Tuesday.", "Tuesday works for me."])
    expect(summary.risks.some((r) => r.kind === "no_next_step")).toBe(false)
    // the buyer's need, with its figures
    expect(summary.needs[0]?.text).toContain("30 %")
    expect(summary.needs[0]?.quotes[0]?.speaker).toBe("S2")
  })

  it("a call with no next step says so under risks, quoting the rep's last words", () => {
    const { summary } = summaryOf([
      ["rep", "Thanks for taking the time today, how do you handle forecasting now?"],
      ["buyer", "Mostly spreadsheets, and the numbers are always late."],
      ["rep", "Understood, that is common. Thanks again for your time."]
    ])
    const risk = summary.risks.find((r) => r.kind === "no_next_step")
    expect(risk?.text).toMatch(/^No dated next step was agreed/)
    expect(risk?.quotes.map((q) => q.quote)).toEqual(["Thanks again for your time."])
    expect(summary.agreed).toEqual([])
  })

  it("a call without words has no summary", () => {
    const content = analyzeContent({ words: [], speaker_turns: [], speakers: [], duration_s: 10, framework: "MEDDPICC" })
    expect(summarize(content, [], [])).toBeNull()
  })
})

describe("the LLM's summary, verified", () => {
  const lines: ReadonlyArray<readonly [Who, string]> = [
    ["rep", "How are renewals going this year?"],
    ["buyer", "We lose about thirty percent of renewals because the reviews take six weeks."],
    ["rep", "I'll send you the security pack by Tuesday."],
    ["buyer", "Tuesday works for me."]
  ]

  it("keeps items whose every quote is found (case and spacing aside), in the transcript's own characters, and drops the others", () => {
    const { content, summary } = summaryOf(lines)
    const written = writtenSummary(summary, {
      needs: [
        { text: "Renewals are slipping because security reviews take six weeks.", quotes: ["we LOSE about thirty   percent of renewals"] },
        { text: "They need a cheaper plan.", quotes: ["we need a cheaper plan"] }
      ],
      agreed: [{ text: "The rep sends the security pack by Tuesday.", quotes: ["I'll send you the security pack by Tuesday.", "not said"] }],
      risks: "not a list"
    }, content.transcript)
    expect(written.dropped).toBe(2)
    expect(written.summary.source).toBe("llm")
    expect(written.summary.needs).toEqual([{
      kind: "need",
      text: "Renewals are slipping because security reviews take six weeks.",
      quotes: [{ speaker: "S2", start: 5, quote: "We lose about thirty percent of renewals" }],
      source: "llm"
    }])
    // a part with nothing verifiable keeps the rules' items
    expect(written.summary.agreed).toEqual(summary.agreed)
    expect(written.summary.risks).toEqual(summary.risks)
    checkQuotes(content, written.summary, "llm")
  })

  it("an answer without a summary leaves the rules' summary as it is", () => {
    const { content, summary } = summaryOf(lines)
    expect(writtenSummary(summary, undefined, content.transcript)).toEqual({ summary, dropped: 0 })
  })

  it("a quote of one word, or across two segments, is not found", () => {
    const { content } = summaryOf(lines)
    expect(findQuote(content.transcript, "Tuesday.")).toBeNull()
    expect(findQuote(content.transcript, "by Tuesday. Tuesday works")).toBeNull()
  })
})

describe("the summary in the report", () => {
  it("is shown near the top, before the scorecard, each quote linked to its moment in the transcript", () => {
    const input = contentInputOf(truth("discovery-short"))
    const content = analyzeContent(input)
    const summary = summarize(content, input.speakers, input.speaker_turns)!
    const html = renderReport(withTranscript({ summary }))
    const section = html.slice(html.indexOf(`id="summary"`), html.indexOf("</section>", html.indexOf(`id="summary"`)))
    expect(html.indexOf(`id="summary"`)).toBeGreaterThan(0)
    expect(html.indexOf(`id="summary"`)).toBeLessThan(html.indexOf(`id="scorecard"`))
    for (const title of ["What the buyer needs", "What was agreed", "Open risks"]) expect(section).toContain(title)
    expect(section).toContain("A next step for the rep, due Tuesday 14:00; the buyer side agreed.")
    expect(section).toContain("“Tuesday at two works.”")
    expect(section).toContain("We are about four hundred thousand dollars behind plan for the half.")
    expect(section).toContain("No open risk was found.")
    expect(section).toMatch(/<a class="ts" href="#t-[^"]+"/)
  })

  it("is left out when the analysis has none", () => {
    expect(renderReport(withTranscript({ summary: null }))).not.toContain(`id="summary"`)
  })
})
