/**
 * The LLM as a second reader (docs/method.md, "LLM assistance"), through our OpenAI adapter
 * (`llm/OpenAI.ts`) against a local server speaking OpenAI's chat completions: the request lists
 * the rules' objections whose confidence is under `DOUBTFUL`, each with an id; the model's
 * verdicts are read strictly and merged (`applyAssist`). The local model reads the doubtful list
 * from the prompt it is sent, as a model would, and answers what each test has it say. The calls
 * are the fixtures' (their words from the ground truth), analysed by the rules as they are.
 */
import { describe, expect, it } from "@effect/vitest"
import { acousticMetrics, analyzeContent, applyAssist, assessmentRequest, type AssistInput, DOUBTFUL, scoreCall } from "@callsight/analysis"
import { Duration, Effect, Either } from "effect"
import { NodeHttpClient } from "@effect/platform-node"
import { makeOpenAIChat } from "../src/llm/OpenAI.js"
import { truth } from "../../../test/utils/Fixtures.js"
import { truthWords } from "../../../test/utils/TruthWords.js"
import { doubtfulOf, localOpenAI } from "./utils/LocalOpenAI.js"

const EMPTY = { objections: [], next_steps: [], pains: [], value_claims: [], qualification: [] }
/** The rules' analysis of a fixture call, with its words from the ground truth, as the merge's input. */
const inputOf = (call: string): AssistInput => {
  const t = truth(call)
  const words = truthWords(t)
  const speaker_turns = t.turns.map((x) => ({
    speaker: x.speaker === "rep" ? "S1" : "S2",
    role: x.speaker === "rep" ? ("rep" as const) : ("buyer" as const),
    start: x.start,
    end: x.end
  }))
  const content = analyzeContent({ words, speaker_turns, speakers: [], duration_s: t.duration, framework: "MEDDPICC" })
  // as the analysis does: the acoustic metrics of the turns, the content metrics over them
  const metrics = { ...acousticMetrics(speaker_turns, t.duration), ...content.metrics }
  const rules = scoreCall({ metrics, speaker_turns, speakers: [], duration_s: t.duration, content })
  return { content, words, speaker_turns, speakers: [], framework: "MEDDPICC", metrics, duration_s: t.duration, rules }
}

/** The call sent to a local model answering `answer(prompt)`, through the OpenAI adapter, and merged. */
const assessed = (input: AssistInput, answer: (prompt: string) => unknown) =>
  Effect.gen(function* () {
    const server = yield* localOpenAI((prompt) => ({ content: answer(prompt) }))
    const chat = yield* makeOpenAIChat({ provider: "openai-compatible", apiKey: undefined, baseUrl: server.url, model: "local-model", timeout: Duration.seconds(20) })
    const outcome = yield* Effect.either(chat.assess(assessmentRequest(input)))
    const result = applyAssist(input, { provider: chat.provider, model: chat.model }, Either.mapLeft(outcome, (e) => ({ message: e.message })))
    return { result, prompt: server.prompts[0]! }
  }).pipe(Effect.provide(NodeHttpClient.layerUndici))

/** discovery-short: the rules find the competitor objection, and are unsure of it. */
const COMPETITOR = "We are also looking at one other vendor."
/** demo-objection: the rules find the objection to the price, and are sure of it. */
const PRICE = "That sounds useful, but honestly the price is a problem."

const REASON = "Mentioning another vendor is information, not a condition on buying."

describe("the LLM as a second reader", () => {
  it.scoped("a doubtful rule finding it rejects leaves the objections and the scores; the verdict keeps its reason", () =>
    Effect.gen(function* () {
      const input = inputOf("discovery-short")
      const finding = input.content.findings.objections.find((o) => o.objection.quote === COMPETITOR)!
      expect(finding, "the rules find the competitor objection").toBeDefined()
      expect(finding.confidence, "the rules are unsure of it").toBeLessThan(DOUBTFUL)
      const { prompt, result } = yield* assessed(input, (p) => ({
        ...EMPTY,
        verdicts: doubtfulOf(p).filter((d) => d.quote === COMPETITOR).map((d) => ({ id: d.id, verdict: "reject", reason: REASON }))
      }))
      // listed for a verdict, with its id, time, speaker and kind
      expect(prompt).toMatch(new RegExp(`^o\\d+: \\[\\d\\d:\\d\\d\\.\\d\\] S2 \\(competitor\\): ${COMPETITOR.replace(/\./g, "\\.")}$`, "m"))
      expect(result.llm.error).toBeNull()
      expect(result.llm.doubtful_items).toBe(doubtfulOf(prompt).length)
      expect(result.llm.verdicts).toEqual([{
        kind: finding.objection.kind,
        at: finding.objection.at,
        quote: COMPETITOR,
        confidence: finding.confidence,
        source: "rules",
        verdict: "rejected",
        reason: REASON
      }])
      expect(result.llm.notes).toEqual([])
      // out of the objections and their findings
      expect(result.content.objections.map((o) => o.quote)).not.toContain(COMPETITOR)
      expect(result.content.findings.objections).not.toContain(finding)
      expect(result.content.objections).toEqual(input.content.objections.filter((o) => o.quote !== COMPETITOR))
      // and out of the scores: the same rules over the findings without it
      const without = { ...input.content, objections: result.content.objections, findings: { ...input.content.findings, objections: result.content.findings.objections } }
      const rescored = scoreCall({ metrics: input.metrics, speaker_turns: input.speaker_turns, speakers: [], duration_s: input.duration_s, content: without })
      expect(result.scored.scorecard).toEqual(rescored.scorecard)
      // the rep's question back to it no longer counts for objection handling
      const handling = (s: typeof result.scored) => ({
        dimension: s.scorecard.dimensions.find((d) => d.dimension === "objection_handling"),
        evidence: s.evidence.filter((e) => e.dimension === "objection_handling")
      })
      expect(handling(result.scored).evidence.length).toBeLessThan(handling(input.rules).evidence.length)
      expect(handling(result.scored).dimension).not.toEqual(handling(input.rules).dimension)
      expect(result.llm.assisted_dimensions).toContain("objection_handling")
    }), 60_000)

  it.scoped("a confident rule finding it tries to reject stays; only the doubtful are put to it", () =>
    Effect.gen(function* () {
      const input = inputOf("demo-objection")
      const at = input.content.findings.objections.findIndex((o) => o.objection.quote === PRICE)
      expect(input.content.findings.objections[at]?.confidence, "the rules are sure of the objection to the price").toBeGreaterThanOrEqual(DOUBTFUL)
      // its id, were it listed: its place among the rules' objections
      const id = `o${at + 1}`
      const { prompt, result } = yield* assessed(input, () => ({ ...EMPTY, verdicts: [{ id, verdict: "reject", reason: "Price talk is haggling." }] }))
      expect(doubtfulOf(prompt).map((d) => d.id)).not.toContain(id)
      expect(prompt).not.toMatch(new RegExp(`^${id}: `, "m"))
      expect(result.llm.error).toBeNull()
      expect(result.llm.verdicts).toEqual([])
      expect(result.llm.notes).toEqual([`verdict on "${id}" ignored: no doubtful finding has that id`])
      expect(result.content.objections).toEqual(input.content.objections)
      expect(result.scored.scorecard).toEqual(input.rules.scorecard)
    }), 60_000)

  it.scoped("a verdict on an unknown id, of another shape or repeated is ignored and noted; a kept finding is marked; the rest of the answer is merged", () =>
    Effect.gen(function* () {
      const input = inputOf("discovery-short")
      const { prompt, result } = yield* assessed(input, (p) => {
        const id = doubtfulOf(p).find((d) => d.quote === COMPETITOR)!.id
        return {
          ...EMPTY,
          // a time constraint the rules miss, which the merge adds
          objections: [{ kind: "timing", quote: "Yes, I have about twenty minutes." }],
          verdicts: [
            { id: "o99", verdict: "reject", reason: "Not an objection." },
            { id, verdict: "maybe", reason: "Hard to say." },
            { id, verdict: "reject", reason: "   " },
            { id, verdict: "keep", reason: "The buyer is weighing a competitor." },
            { id, verdict: "reject", reason: "On second thought, no." }
          ]
        }
      })
      const id = doubtfulOf(prompt).find((d) => d.quote === COMPETITOR)!.id
      expect(result.llm.error).toBeNull()
      expect(result.llm.notes).toEqual([
        `verdict on "o99" ignored: no doubtful finding has that id`,
        "verdict 2 ignored: not of the requested shape (an id, keep or reject, a reason)",
        "verdict 3 ignored: not of the requested shape (an id, keep or reject, a reason)",
        `verdict 5 ignored: ${id} was judged before`
      ])
      expect(result.llm.verdicts).toEqual([expect.objectContaining({ quote: COMPETITOR, verdict: "kept", reason: "The buyer is weighing a competitor." })])
      const kept = result.content.objections.find((o) => o.quote === COMPETITOR)!
      expect(kept).toEqual({ ...input.content.objections.find((o) => o.quote === COMPETITOR), source: "rules", verdict: "kept" })
      expect(result.content.objections.filter((o) => o.source === "llm").map((o) => o.quote)).toEqual(["Yes, I have about twenty minutes."])
      expect(result.llm.added_items).toBe(1)
    }), 60_000)

  it.scoped("an answer with no verdicts, or no LLM at all, leaves the rules' findings as they were", () =>
    Effect.gen(function* () {
      const input = inputOf("discovery-short")
      // without an LLM: nothing is marked, though the rules are unsure of the competitor objection
      expect(input.content.objections.find((o) => o.quote === COMPETITOR)).not.toHaveProperty("verdict")
      expect(input.content.objections.every((o) => o.source === undefined && o.verdict === undefined)).toBe(true)
      // an answer of the shape before verdicts existed (no `verdicts` at all): the doubtful finding stands, unjudged
      const { result } = yield* assessed(input, () => EMPTY)
      expect(result.llm).toMatchObject({ error: null, verdicts: [], notes: [], added_items: 0 })
      expect(result.llm.doubtful_items).toBeGreaterThan(0)
      expect(result.content.objections).toEqual(input.content.objections)
      expect(result.scored.scorecard).toEqual(input.rules.scorecard)
    }), 60_000)
})
