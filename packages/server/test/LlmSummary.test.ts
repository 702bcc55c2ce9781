/**
 * The call's summary written by the tenant's LLM (docs/method.md, "Summary"), through our OpenAI
 * adapter (`llm/OpenAI.ts`) against a local server speaking OpenAI's chat completions: the request's
 * schema asks for a summary beside the findings; the answer's items are kept only when every quote
 * they cite is found in the transcript, the others dropped and counted, and a part with nothing
 * verifiable keeps the rules' extractive items. The call is a fixture's (its words from the ground
 * truth), analysed by the engine's own `combineAssisted`.
 */
import { describe, expect, it } from "@effect/vitest"
import { combine, combineAssisted, type LlmAssist } from "@callsight/analysis"
import { NodeHttpClient } from "@effect/platform-node"
import { Duration, Effect } from "effect"
import { makeOpenAIChat } from "../src/llm/OpenAI.js"
import { fixtureCall } from "./utils/AnalysedCalls.js"
import { localOpenAI } from "./utils/LocalOpenAI.js"

const EMPTY = { objections: [], verdicts: [], next_steps: [], pains: [], value_claims: [], qualification: [] }

/** The call analysed with a local model answering `answer` through the OpenAI adapter. */
const assisted = (name: string, answer: unknown) =>
  Effect.gen(function* () {
    const server = yield* localOpenAI(() => ({ content: answer }))
    const chat = yield* makeOpenAIChat({ provider: "openai-compatible", apiKey: undefined, baseUrl: server.url, model: "local-model", timeout: Duration.seconds(20) })
    const assist: LlmAssist = {
      provider: chat.provider,
      model: chat.model,
      assess: (request) => Effect.mapError(chat.assess(request), (e) => ({ message: e.message }))
    }
    const { heard, transcript } = fixtureCall(name)
    const result = yield* combineAssisted(heard, transcript, "MEDDPICC", assist)
    return { result, rules: combine(heard, transcript, "MEDDPICC"), prompts: server.prompts }
  }).pipe(Effect.provide(NodeHttpClient.layerUndici))

const NEED = "Our win rate dropped from 31 to 24 percent and nobody knows what reps say."

describe("the summary written by the tenant's LLM", () => {
  it.scoped("keeps the items whose quotes are all in the transcript, in its own characters; drops the others; a part with none keeps the rules'", () =>
    Effect.gen(function* () {
      const { result, rules } = yield* assisted("discovery-short", {
        ...EMPTY,
        summary: {
          needs: [
            // the words as said, with the case and spacing changed: found, and quoted as the transcript has them
            { text: NEED, quotes: ["honestly, our WIN RATE dropped   from thirty one percent to twenty four percent last quarter"] },
            // words nobody said: dropped
            { text: "They need a cheaper tool.", quotes: ["we need something much cheaper"] }
          ],
          agreed: [{ text: "A meeting next Tuesday at two with their revenue operations lead.", quotes: ["Tuesday at two works.", "a quote from another call"] }],
          risks: []
        }
      })
      expect(result.llm?.error).toBeNull()
      const summary = result.summary!
      expect(summary.source).toBe("llm")
      expect(summary.needs).toEqual([{
        kind: "need",
        text: NEED,
        quotes: [{ speaker: "S2", start: expect.any(Number), quote: "Honestly, our win rate dropped from thirty one percent to twenty four percent last quarter" }],
        source: "llm"
      }])
      const segment = result.transcript!.find((s) => s.text.includes(summary.needs[0]!.quotes[0]!.quote))!
      expect(segment.speaker).toBe("S2")
      expect(summary.needs[0]!.quotes[0]!.start).toBeGreaterThanOrEqual(segment.start)
      expect(summary.needs[0]!.quotes[0]!.start).toBeLessThanOrEqual(segment.end)
      // the agreed item cites a quote that is not in the call: dropped, and the rules' agreed items stand
      expect(summary.agreed).toEqual(rules.summary!.agreed)
      expect(summary.agreed.map((i) => i.source)).toEqual(["rules"])
      expect(summary.risks).toEqual(rules.summary!.risks)
      // the two dropped summary items are counted with the others
      expect(result.llm?.dropped_items).toBe(2)
    }), 60_000)

  it.scoped("an answer without a summary (a model that ignores it) leaves the rules' summary", () =>
    Effect.gen(function* () {
      const { prompts, result, rules } = yield* assisted("discovery-short", EMPTY)
      expect(prompts).toHaveLength(1)
      expect(result.llm?.error).toBeNull()
      expect(result.summary).toEqual(rules.summary)
      expect(result.summary?.source).toBe("rules")
    }), 60_000)

  it.scoped("a model that fails leaves the rules' summary, with the failure in llm.error", () =>
    Effect.gen(function* () {
      const { result, rules } = yield* assisted("discovery-short", "not an object")
      expect(result.llm?.error).not.toBeNull()
      expect(result.summary).toEqual(rules.summary)
    }), 60_000)
})
