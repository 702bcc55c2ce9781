/**
 * `npm run eval:llm` (eval/llm.ts), the evaluation of the LLM-assisted path, against a local server
 * that speaks OpenAI's chat completions with structured output. The server plays a model that
 * quotes the opening words of every objection the test part's annotations list, and one line no
 * one said: the evaluation must send each call's transcript, drop the invented quote, and count
 * the verified ones as the annotations' objections; a model that refuses leaves the rules' figures.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { evaluateLlm } from "../../../eval/llm.js"

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

/** A local OpenAI-compatible server: `POST /v1/chat/completions` answered by `answer(prompt)`, each request kept. */
const localModel = (answer: (prompt: string) => { content?: unknown; refusal?: string }) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; prompts: Array<string>; close: () => void }>((resume) => {
      const prompts: Array<string> = []
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
          if (req.method !== "POST" || req.url !== "/v1/chat/completions" || body.response_format?.type !== "json_schema") {
            res.writeHead(404, { "content-type": "application/json" })
            return res.end(JSON.stringify({ error: { message: "no such route" } }))
          }
          const prompt = body.messages[1].content as string
          prompts.push(prompt)
          const a = answer(prompt)
          res.writeHead(200, { "content-type": "application/json" })
          res.end(JSON.stringify({
            id: "chatcmpl-eval",
            object: "chat.completion",
            model: body.model,
            choices: [{
              index: 0,
              finish_reason: "stop",
              message: { role: "assistant", content: a.content === undefined ? null : JSON.stringify(a.content), refusal: a.refusal ?? null }
            }]
          }))
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          prompts,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        })))
    }),
    (s) => Effect.sync(s.close)
  )

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
