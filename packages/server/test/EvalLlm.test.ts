/**
 * `npm run eval:llm` (eval/llm.ts), the evaluation of the LLM-assisted path, against a local server
 * that speaks OpenAI's chat completions with structured output. The server plays a model that
 * quotes the opening words of every objection the test part's annotations list, and one line no
 * one said: the evaluation must send each call's transcript, drop the invented quote, and count
 * the verified ones as the annotations' objections; a model that rejects every doubtful rule finding
 * listed in the request shows what its rejections did (right and wrong) and the figures with and
 * without them; a model that refuses leaves the rules' figures.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import { evaluateLlm } from "../../../eval/llm.js"
import { doubtfulOf, localOpenAI as localModel } from "./utils/LocalOpenAI.js"

const EVAL = new URL("../../../eval/", import.meta.url)
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, EVAL), "utf8"))

const TEST_CALLS: ReadonlyArray<string> = readJson("split.json").test
/** The first five words of each annotated objection's first turn, as said in the test calls. */
const OBJECTION_OPENINGS = TEST_CALLS.flatMap((id) => {
  const truth = readJson(`calls/${id}.truth.json`) as { turns: Array<{ text: string }> }
  const annotation = readJson(`calls/${id}.annotation.json`) as { objections: Array<{ turns: Array<number> }> }
  return annotation.objections.map((o) => truth.turns[o.turns[0]!]!.text.split(/\s+/).slice(0, 5).join(" "))
})
const INVENTED = "we would never sign this today"

/** A model that quotes every annotated objection's opening words said in the call, and one invented line. */
const quotingObjections = (prompt: string) => ({
  content: {
    objections: [...OBJECTION_OPENINGS.filter((q) => prompt.includes(q)), INVENTED].map((quote) => ({ kind: "need", quote })),
    next_steps: [],
    pains: [],
    value_claims: [],
    qualification: []
  }
})

const OPTIONS = { model: "local-model", part: "test", jobs: 2, timeoutSeconds: 20 } as const

describe("npm run eval:llm", () => {
  it.scoped("sends each test call's transcript, keeps the verified quotes and drops the invented one", () =>
    Effect.gen(function* () {
      const server = yield* localModel(quotingObjections)
      const figures = yield* evaluateLlm({ ...OPTIONS, baseUrl: server.url })
      expect(figures.calls).toBe(TEST_CALLS.length)
      expect(server.prompts).toHaveLength(TEST_CALLS.length)
      expect(figures.failed).toEqual([])
      // one invented quote a call, none of them in any transcript
      expect(figures.dropped).toBe(TEST_CALLS.length)
      const alone = figures.alone.items["objections (any kind)"]!
      const annotated = OBJECTION_OPENINGS.length
      expect(alone.annotated).toBe(annotated)
      // every opening quoted is kept, once, and is its annotated objection: no two share a buyer run
      expect(alone).toMatchObject({ found: annotated, matched: annotated, duplicates: 0, precision: 1, recall: 1 })
      // merged, the LLM only adds where the rules found nothing in the run: the rules' findings stay
      const rules = figures.rules.items["objections (any kind)"]!
      const assisted = figures.assisted.items["objections (any kind)"]!
      expect(assisted.found).toBe(rules.found + figures.added)
      expect(assisted.matched).toBeGreaterThanOrEqual(rules.matched)
      // the LLM quoted nothing else: pains, value claims and next steps are the rules' alone
      for (const item of ["pains", "value claims", "next steps"]) expect(figures.assisted.items[item]).toEqual(figures.rules.items[item])
      expect(figures.alone.items["pains"]!.found).toBe(0)
      // nor any qualification element: alone, every element is 0
      expect(figures.alone.items["qualification ≥1"]!.found).toBe(0)
      // it gave no verdicts: the doubtful findings listed all stand, and the merge is its additions alone
      const listed = server.prompts.reduce((n, p) => n + doubtfulOf(p).length, 0)
      expect(figures.verdicts).toEqual({ doubtful: listed, kept: 0, rejected: [], wrong: 0, right: 0 })
      expect(figures.assisted).toEqual(figures.adding)
    }), 120_000)

  it.scoped("a model that rejects every doubtful finding: what its rejections did, right and wrong, and the figures with and without them", () =>
    Effect.gen(function* () {
      const server = yield* localModel((prompt) => ({
        content: {
          objections: [],
          verdicts: doubtfulOf(prompt).map((d) => ({ id: d.id, verdict: "reject", reason: `No push-back in "${d.quote.slice(0, 20)}".` })),
          next_steps: [],
          pains: [],
          value_claims: [],
          qualification: []
        }
      }))
      const figures = yield* evaluateLlm({ ...OPTIONS, baseUrl: server.url })
      expect(figures.failed).toEqual([])
      const listed = server.prompts.flatMap(doubtfulOf)
      // the test part's rules are unsure of some objections (a confidence under the threshold): each was put to the model and rejected
      expect(listed.length).toBeGreaterThan(0)
      expect(figures.verdicts.doubtful).toBe(listed.length)
      expect(figures.verdicts.kept).toBe(0)
      expect(figures.verdicts.rejected.map((r) => r.quote).sort()).toEqual(listed.map((d) => d.quote).sort())
      expect(figures.verdicts.rejected.every((r) => r.reason.startsWith("No push-back in") && r.confidence < 0.45)).toBe(true)
      expect(figures.verdicts.wrong + figures.verdicts.right).toBe(listed.length)
      // without its verdicts nothing changes (it added nothing); with them, the rejected findings are gone
      expect(figures.adding).toEqual(figures.rules)
      const rules = figures.rules.items["objections (any kind)"]!
      const assisted = figures.assisted.items["objections (any kind)"]!
      expect(assisted.found).toBe(rules.found - listed.length)
      // a right rejection takes out a false finding, a wrong one a finding of an annotated objection
      const falseOf = (t: typeof rules) => t.found - t.duplicates - t.matched
      expect(falseOf(assisted)).toBe(falseOf(rules) - figures.verdicts.right)
      expect(assisted.matched + assisted.duplicates).toBe(rules.matched + rules.duplicates - figures.verdicts.wrong)
      expect(assisted.annotated).toBe(rules.annotated)
      // the other items are the rules' own
      for (const item of ["pains", "value claims", "next steps"]) expect(figures.assisted.items[item]).toEqual(figures.rules.items[item])
    }), 120_000)

  it.scoped("a model that refuses leaves the rules' figures, and says which calls failed", () =>
    Effect.gen(function* () {
      const server = yield* localModel(() => ({ refusal: "I can't help with that." }))
      const figures = yield* evaluateLlm({ ...OPTIONS, baseUrl: server.url })
      expect(figures.failed.map((f) => f.call).sort()).toEqual([...TEST_CALLS].sort())
      expect(figures.failed[0]!.error).toContain("refused")
      expect(figures.assisted).toEqual(figures.rules)
      expect(figures.added).toBe(0)
      expect(figures.alone.items["objections (any kind)"]!.found).toBe(0)
    }), 120_000)
})
