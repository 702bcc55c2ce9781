/**
 * The LLM-assisted assessment's pure half: the request it builds, how the answer's quotes are
 * verified against the transcript, how verified items are merged with the rules' findings (kept
 * once, added with their time and `source: "llm"`), and how the result is rescored.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { applyAssist, assessmentRequest, assessmentSchema, type AssistInput, doubtfulFindings, mergeAssessment, normalise } from "../src/scoring/Assist.js"
import { analyzeContent, type ContentAnalysis } from "../src/text/Content.js"
import { scoreCall } from "../src/scoring/Scorecard.js"
import type { Framework } from "../src/text/Transcript.js"
import type { Turn } from "../src/Types.js"
import { truth, type Truth, type TruthTurn } from "../../../test/utils/Fixtures.js"
import { truthWords } from "../../../test/utils/TruthWords.js"
import { NO_METRICS } from "./utils/ScriptedCall.js"

const REP = "S1"
const BUYER = "S2"


const turnsOf = (t: Truth): Array<Turn> =>
  t.turns.map((x) => ({ speaker: x.speaker === "rep" ? REP : BUYER, role: x.speaker === "rep" ? "rep" : "buyer", start: x.start, end: x.end }))

type Findings = ContentAnalysis["findings"]

/**
 * The rules' findings held to what a test names (the rules keep improving; the merge is tested
 * against findings it knows): the public lists follow the findings.
 */
const pin = (over: Partial<Pick<Findings, "objections" | "next_steps" | "pains" | "value_claims">>) => (c: ContentAnalysis): ContentAnalysis => {
  const findings = { ...c.findings, ...over }
  return { ...c, objections: findings.objections.map((o) => o.objection), next_steps: findings.next_steps.map((n) => n.step), findings }
}

/** The rules' analysis of a call (held to `pinned`), and the input of the merge. */
const inputOf = (t: Truth, pinned: (c: ContentAnalysis) => ContentAnalysis = (c) => c, framework: Framework = "MEDDPICC"): AssistInput => {
  const words = truthWords(t)
  const speaker_turns = turnsOf(t)
  const content = pinned(analyzeContent({ words, speaker_turns, speakers: [], duration_s: t.duration, framework }))
  const metrics = { ...NO_METRICS, ...content.metrics }
  return {
    content,
    words,
    speaker_turns,
    speakers: [],
    framework,
    metrics,
    duration_s: t.duration,
    rules: scoreCall({ metrics, speaker_turns, speakers: [], duration_s: t.duration, content })
  }
}

const script = (lines: ReadonlyArray<readonly [string, number, number, string]>): Truth => ({
  duration: Math.max(...lines.map((l) => l[2])) + 1,
  stereo: false,
  speakers: ["prospect", "rep"],
  turns: lines.map(([speaker, start, end, text]): TruthTurn => ({ speaker, start, end, text }))
})

const empty = { objections: [], next_steps: [], pains: [], value_claims: [], qualification: [] }
const LLM = { provider: "openai-compatible", model: "test-model" }

const demo = truth("demo-objection")
const PRICE = "That sounds useful, but honestly the price is a problem."
/** The rules' objections held to the objection to the price, which the lexicon finds (a price objection by the kind model since callsight-1.22). */
const priceOnly = (c: ContentAnalysis) => {
  const price = c.findings.objections.filter((o) => o.objection.quote === PRICE)
  expect(price.map((o) => o.objection.kind), "the rules find the objection to the price").toEqual(["price"])
  return pin({ objections: price })(c)
}

const merged = (input: AssistInput, answer: unknown) => {
  const m = mergeAssessment(input, answer)
  if (Either.isLeft(m)) throw new Error(m.left)
  return m.right
}

describe("the request", () => {
  it("sends the transcript with each speaker's side and the framework, and a strict-mode schema", () => {
    const input = inputOf(demo)
    const request = assessmentRequest(input)
    expect(request.name).toBe("call_assessment")
    expect(request.prompt).toContain("Qualification framework: MEDDPICC")
    expect(request.prompt).toContain("S1 is the rep; S2 is on the buyer side")
    expect(request.prompt).toContain("[01:10.0] S2: That sounds useful, but honestly the price is a problem.")
    for (const segment of input.content.transcript) expect(request.prompt).toContain(segment.text)
    expect(request.system).toMatch(/verbatim/)

    // OpenAI's strict mode: every object lists all its properties as required and allows no others
    const objects: Array<any> = []
    const walk = (node: any) => {
      if (node === null || typeof node !== "object") return
      if (node.type === "object") objects.push(node)
      Object.values(node).forEach(walk)
    }
    walk(request.schema)
    // the answer, its six lists' items, the summary and its three lists' items (callsight-1.26)
    expect(objects.length).toBe(11)
    for (const o of objects) {
      expect(o.additionalProperties).toBe(false)
      expect([...o.required].sort()).toEqual(Object.keys(o.properties).sort())
    }
    const schema = request.schema as any
    expect(schema.properties.objections.items.properties.kind.enum).toEqual(["price", "budget", "timing", "authority", "need", "competitor"])
    expect(schema.properties.qualification.items.properties.element.enum).toContain("economic_buyer")
    expect((assessmentSchema("BANT") as any).properties.qualification.items.properties.element.enum).toEqual(["budget", "authority", "need", "timeline"])
  })
})

describe("quotes are verified against the transcript", () => {
  it("whitespace and case are normalised, nothing else", () => {
    expect(normalise("  That  sounds\nUSEFUL, ")).toBe("that sounds useful,")
    const input = inputOf(demo, pin({ pains: [] }))
    const answer = (quote: string) => merged(input, { ...empty, pains: [{ quote }] })
    // found: another case, other spacing (the pain the rules missed)
    expect(answer("two NEW hires started and they,   um, they basically pitch the product").added_items).toBe(1)
    // not found: the comma left out, a word changed, a paraphrase, one word
    expect(answer("two new hires started and they um they basically pitch the product").dropped_items).toBe(1)
    expect(answer("Two new hires started and they always pitch the product").dropped_items).toBe(1)
    expect(answer("the new reps pitch too early").dropped_items).toBe(1)
    expect(answer("Two").dropped_items).toBe(1)
  })
})

describe("the merge", () => {
  it("keeps the rules' objection once, adds the one they missed with its time, response and source, drops the unverifiable", () => {
    const input = inputOf(demo, priceOnly)
    const m = merged(input, {
      ...empty,
      objections: [
        // the rules' objection, quoted from another sentence of the same buyer run: the same objection
        { kind: "price", quote: "our budget for tools this year is closer to thirty." },
        { kind: "authority", quote: "If I can show the CFO that this pays for itself in a quarter, there is room to move." },
        // not in the transcript
        { kind: "timing", quote: "We cannot start before the next fiscal year." },
        // the rep's words are no objection
        { kind: "price", quote: "Can I ask how you arrived at thirty?" }
      ]
    })
    expect(m.added_items).toBe(1)
    expect(m.dropped_items).toBe(2)
    expect(m.content.objections).toEqual([
      input.content.objections[0],
      {
        kind: "authority",
        // the time of its first word, inside the buyer turn that starts at 88.178
        at: expect.closeTo(89.96, 1),
        quote: "If I can show the CFO that this pays for itself in a quarter, there is room to move.",
        // the rep asked "Would it help if I prepared a one page ROI summary for your CFO?" within 30 s
        response: "question_back",
        response_pause_s: expect.closeTo(0.7, 1),
        source: "llm"
      }
    ])
    const added = m.content.findings.objections[1]!
    expect(added.said.speaker).toBe(BUYER)
    expect(added.question?.quote).toBe("Would it help if I prepared a one page ROI summary for your CFO?")
  })

  it("adds a dated next step with its owner, due and agreement; ignores an undated one; drops one whose due was not said", () => {
    const t = script([
      ["rep", 0, 4, "Thanks for the time today. What would you need to see before a pilot?"],
      ["prospect", 4.5, 10, "Our security team will want the questionnaire answered, and the contract terms need work."],
      ["rep", 10.5, 15, "Understood. Our team will have the questionnaire back to you by the fifteenth."],
      ["prospect", 15.5, 17, "That works for us."]
    ])
    const input = inputOf(t, pin({ next_steps: [] }))
    const quote = "Our team will have the questionnaire back to you by the fifteenth."
    const m = merged(input, {
      ...empty,
      next_steps: [
        { action: "answer the questionnaire", owner: "rep", due: "next Monday", quote },
        { action: "answer the questionnaire", owner: "rep", due: "by the fifteenth", quote },
        { action: "review the contract", owner: "buyer", due: null, quote: "the contract terms need work." }
      ]
    })
    expect(m.dropped_items).toBe(1)
    const steps = m.content.next_steps.filter((s) => s.source === "llm")
    expect(steps).toEqual([{ at: expect.closeTo(11.5, 0), quote, owner: REP, due: "the 15th", source: "llm" }])
    const finding = m.content.findings.next_steps.find((s) => s.step.source === "llm")!
    expect(finding.confirmation?.quote).toBe("That works for us.")
    // the same step again is kept once
    expect(merged({ ...input, content: m.content }, {
      ...empty,
      next_steps: [{ action: "answer", owner: "rep", due: "the fifteenth", quote: "questionnaire back to you by the fifteenth" }]
    }).added_items).toBe(0)
  })

  it("value claims are the rep's, tied to the pain they answer when it came before; qualification is only ever raised", () => {
    const input = inputOf(demo, (c) => ({
      ...pin({ value_claims: [] })(c),
      // held: economic buyer specific (2), decision process not covered (0)
      qualification: {
        framework: "MEDDPICC",
        elements: c.qualification.elements.map((e) =>
          e.element === "decision_process"
            ? { element: e.element, score: 0 as const, evidence: null }
            : e.element === "economic_buyer"
            ? { element: e.element, score: 2 as const, evidence: { dimension: "qualification", start: 88.2, end: 95.5, speaker: BUYER, quote: "If I can show the CFO", effect: 2 } }
            : e
        )
      }
    }))
    const rules = (name: string) => input.content.qualification.elements.find((e) => e.element === name)!
    const m = merged(input, {
      ...empty,
      value_claims: [
        { quote: "For each score you get the exact moments as evidence, with timestamps", pain: "they basically pitch the product in the first five minutes." },
        // the buyer's words are no claim; a pain that was never said
        { quote: "That sounds useful", pain: null },
        { quote: "Let me show you how we would catch that.", pain: "our reps never ask questions" }
      ],
      qualification: [
        { element: "decision_process", score: 1, quote: "let us schedule fifteen minutes on Friday with the CFO to walk through it." },
        // lower than the rules' 2: the rules' stays
        { element: "economic_buyer", score: 1, quote: "I will forward the invite to her." },
        { element: "not_an_element", score: 2, quote: "I will forward the invite to her." }
      ]
    })
    expect(m.dropped_items).toBe(3)
    const claim = m.content.findings.value_claims.find((v) => v.quote.startsWith("For each score"))!
    expect(claim).toMatchObject({ speaker: REP, link: "pain", linked_to: { speaker: BUYER, quote: expect.stringContaining("pitch the product") } })
    const q = (name: string) => m.content.qualification.elements.find((e) => e.element === name)!
    expect(q("decision_process")).toMatchObject({ score: 1, evidence: { source: "llm", speaker: REP, effect: 1 } })
    expect(q("economic_buyer")).toEqual({ ...rules("economic_buyer"), evidence: { ...rules("economic_buyer").evidence, source: "rules" } })
    expect(m.elements).toEqual(["decision_process"])
  })
})

describe("rescoring", () => {
  it("the added objection is scored by the same rules; its dimension is listed as assisted and its evidence marked llm", () => {
    const input = inputOf(demo, priceOnly)
    const before = input.rules.scorecard.dimensions.find((d) => d.dimension === "objection_handling")!
    const result = applyAssist(input, LLM, Either.right({
      ...empty,
      objections: [{ kind: "authority", quote: "If I can show the CFO that this pays for itself in a quarter, there is room to move." }],
      pains: [{ quote: "We lose forty deals a year to bad discovery." }]
    }))
    const after = result.scored.scorecard.dimensions.find((d) => d.dimension === "objection_handling")!
    // a second question back: +15
    expect(after.score).toBe(before.score! + 15)
    // the rules are sure of the objection to the price: nothing was put to the LLM for a verdict
    expect(result.llm).toEqual({ ...LLM, assisted_dimensions: ["objection_handling"], added_items: 1, dropped_items: 1, error: null, doubtful_items: 0, verdicts: [], notes: [] })
    const llmEvidence = result.scored.evidence.filter((e) => e.source === "llm")
    expect(llmEvidence).toEqual([
      expect.objectContaining({ dimension: "objection_handling", quote: "Would it help if I prepared a one page ROI summary for your CFO?", effect: 15 })
    ])
    expect(result.scored.evidence.every((e) => e.source === "llm" || e.source === "rules")).toBe(true)
    // the other dimensions are the rules' own
    for (const d of result.scored.scorecard.dimensions.filter((x) => x.dimension !== "objection_handling")) {
      expect(d).toEqual(input.rules.scorecard.dimensions.find((x) => x.dimension === d.dimension))
    }
    expect(result.scored.scorecard.overall).toBeGreaterThanOrEqual(input.rules.scorecard.overall!)
  })

  it("an LLM that failed, or answered another shape, leaves the rules' result with the reason", () => {
    const input = inputOf(demo)
    const failed = applyAssist(input, LLM, Either.left({ message: "OpenAI did not answer within 5s" }))
    expect(failed.scored).toBe(input.rules)
    expect(failed.content).toBe(input.content)
    expect(failed.llm).toEqual({
      ...LLM,
      assisted_dimensions: [],
      added_items: 0,
      dropped_items: 0,
      error: "OpenAI did not answer within 5s",
      doubtful_items: doubtfulFindings(input.content).length,
      verdicts: [],
      notes: []
    })
    const shape = applyAssist(input, LLM, Either.right({ objections: "none" }))
    expect(shape.scored).toBe(input.rules)
    expect(shape.llm.error).toMatch(/^the answer does not have the requested shape/)
  })

  it("an answer with nothing new assists nothing", () => {
    const input = inputOf(demo)
    const result = applyAssist(input, LLM, Either.right({
      ...empty,
      objections: [{ kind: "price", quote: PRICE }]
    }))
    expect(result.llm.assisted_dimensions).toEqual([])
    expect(result.scored.scorecard).toEqual(input.rules.scorecard)
  })
})

describe("the second reader (pure half; the protocol's tests are in packages/server/test/LlmVerdicts.test.ts)", () => {
  const short = truth("discovery-short")
  const COMPETITOR = "We are also looking at one other vendor."

  it("lists the rules' doubtful objections in the request with their ids; the confident ones are not listed", () => {
    const input = inputOf(short)
    const doubtful = doubtfulFindings(input.content)
    expect(doubtful.map((d) => d.finding.objection.quote), "the rules are unsure of the competitor objection").toContain(COMPETITOR)
    for (const d of doubtful) {
      expect(d.finding.confidence).toBeLessThan(0.45)
      expect(d.id).toBe(`o${input.content.findings.objections.indexOf(d.finding) + 1}`)
      expect(assessmentRequest(input).prompt).toContain(`${d.id}: `)
    }
    expect(assessmentRequest(inputOf(demo, priceOnly)).prompt).toContain("Doubtful findings: none")
  })

  it("verdicts that are not a list are noted and the rest of the answer merged; an added objection on the words it rejected is left out", () => {
    const input = inputOf(short)
    const notList = merged(input, { ...empty, verdicts: "reject them all", objections: [{ kind: "timing", quote: "Yes, I have about twenty minutes." }] })
    expect(notList.notes).toEqual(["verdicts ignored: not a list"])
    expect(notList.added_items).toBe(1)
    expect(notList.content.objections.map((o) => o.quote)).toContain(COMPETITOR)

    const id = doubtfulFindings(input.content).find((d) => d.finding.objection.quote === COMPETITOR)!.id
    const both = merged(input, {
      ...empty,
      verdicts: [{ id, verdict: "reject", reason: "Just context." }],
      objections: [{ kind: "competitor", quote: "looking at one other vendor." }]
    })
    expect(both.content.objections.map((o) => o.quote)).not.toContain(COMPETITOR)
    expect(both.content.objections.filter((o) => o.source === "llm")).toEqual([])
    expect(both.added_items).toBe(0)
    expect(both.notes).toEqual([`objection "looking at one other vendor." not added: the LLM rejected the rules' finding on the same words`])
    expect(both.verdicts).toEqual([expect.objectContaining({ quote: COMPETITOR, verdict: "rejected", reason: "Just context.", source: "rules" })])
  })
})
