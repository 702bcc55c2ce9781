/**
 * The evaluation of the LLM-assisted path (issue 14, item 4) against a real model: each call of a
 * part run through the content analysis as `npm run eval` runs it, then sent to an
 * OpenAI-compatible server in the one structured-output request the worker sends for a tenant with
 * an LLM integration (`analysis/Assist.ts` builds it, `llm/OpenAI.ts` sends it), its answer
 * verified and merged as the worker merges it (`applyAssist`), and both results compared with the
 * annotations by the same rules (`run.ts`).
 *
 *   npm run eval:llm -- --base-url http://127.0.0.1:8080 --model NAME [--part test|train|all] [--jobs N]
 *
 * The key, if the server takes one, is read from `EVAL_LLM_API_KEY` (never from the command line).
 * Printed: the part's figures for the rules alone, for the rules with the LLM (what a tenant with
 * an LLM gets), and for the LLM's own verified items alone (what a design that let the LLM overrule
 * the rules could reach); then the items the LLM added and dropped, and the calls whose request
 * failed (those keep the rules' result, as in the worker). `--json` prints the same as JSON.
 *
 * It sends every call of the part to the server, so it is never run by CI (no network there); with
 * no LLM reachable from this workplace, its figures for a real model are for whoever has one.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Duration, Effect, Either, Redacted } from "effect"
import { applyAssist, assessmentRequest, type ContentAnalysis, mergeAssessment } from "@callsight/analysis"
import type { AssessorService } from "../packages/server/src/llm/Assessor.js"
import { makeOpenAIChat } from "../packages/server/src/llm/OpenAI.js"
import { type CallResult, type CallRun, compare, ITEMS, readSplit, runCall, summarize, type Summary, table } from "./run.js"
import { isMain } from "./turn-model.js"

export interface LlmEvalOptions {
  readonly baseUrl: string
  readonly model: string
  readonly apiKey?: string | undefined
  readonly part: "test" | "train" | "all"
  readonly jobs: number
  readonly timeoutSeconds: number
}

/** A call's content with none of the items the LLM may add (every element 0): what is merged into it is the LLM's alone. */
const withoutItems = (content: ContentAnalysis): ContentAnalysis => ({
  ...content,
  objections: [],
  next_steps: [],
  qualification: { ...content.qualification, elements: content.qualification.elements.map((e) => ({ ...e, score: 0, evidence: null })) },
  findings: { ...content.findings, objections: [], next_steps: [], pains: [], value_claims: [] }
})

interface Assisted {
  readonly rules: CallResult
  readonly assisted: CallResult
  readonly alone: CallResult
  readonly added: number
  readonly dropped: number
  readonly error: string | null
}

/** One call: the rules' result, the worker's merge of the LLM's answer, and the LLM's verified items alone. */
const assessCall = (run: CallRun, part: "train" | "test", assess: AssessorService) =>
  Effect.gen(function* () {
    const { input, content, metrics, scored } = run
    const request = assessmentRequest({ content, speakers: input.speakers, speaker_turns: input.speaker_turns, framework: input.framework })
    const outcome = yield* Effect.either(assess.assess(request))
    const merge = { content, words: input.words, speaker_turns: input.speaker_turns, speakers: input.speakers, framework: input.framework }
    const llm = { provider: assess.provider, model: assess.model }
    const result = applyAssist({ ...merge, metrics, duration_s: input.duration_s, rules: scored }, llm, Either.mapLeft(outcome, (e) => ({ message: e.message })))
    const own = Either.isRight(outcome) ? mergeAssessment({ ...merge, content: withoutItems(content) }, outcome.right) : Either.left("no answer")
    return {
      rules: compare(run, part),
      assisted: compare({ ...run, content: result.content, scored: result.scored }, part),
      alone: compare({ ...run, content: Either.isRight(own) ? own.right.content : withoutItems(content) }, part),
      added: result.llm.added_items,
      dropped: result.llm.dropped_items,
      error: result.llm.error
    } satisfies Assisted
  })

/** The figures of a part with and without the LLM. */
export const evaluateLlm = (options: LlmEvalOptions) =>
  Effect.gen(function* () {
    const split = readSplit()
    const ids = [
      ...(options.part === "train" ? [] : split.test.map((id) => [id, "test"] as const)),
      ...(options.part === "test" ? [] : split.train.map((id) => [id, "train"] as const))
    ]
    const assess = yield* makeOpenAIChat({
      provider: "openai-compatible",
      apiKey: options.apiKey === undefined ? undefined : Redacted.make(options.apiKey),
      baseUrl: options.baseUrl,
      model: options.model,
      timeout: Duration.seconds(options.timeoutSeconds)
    })
    const calls = yield* Effect.forEach(ids, ([id, part]) => assessCall(runCall(id), part, assess), { concurrency: options.jobs })
    return {
      calls: calls.length,
      rules: summarize(calls.map((c) => c.rules)),
      assisted: summarize(calls.map((c) => c.assisted)),
      alone: summarize(calls.map((c) => c.alone)),
      added: calls.reduce((n, c) => n + c.added, 0),
      dropped: calls.reduce((n, c) => n + c.dropped, 0),
      failed: calls.flatMap((c, i) => (c.error === null ? [] : [{ call: ids[i]![0], error: c.error }]))
    }
  }).pipe(Effect.provide(NodeHttpClient.layerUndici))

/** The item rows of a summary (the LLM's items alone are not scored: the dimensions are the rules' work). */
const itemsOnly = (title: string, s: Summary) => table(title, s).split("\n").slice(0, 2 + ITEMS.length).join("\n")

const option = (args: ReadonlyArray<string>, name: string): string | undefined => {
  const at = args.indexOf(`--${name}`)
  return at < 0 ? undefined : args[at + 1]
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const baseUrl = option(args, "base-url")
  const model = option(args, "model")
  const part = option(args, "part") ?? "test"
  if (baseUrl === undefined || model === undefined || !["test", "train", "all"].includes(part)) {
    console.error("usage: npm run eval:llm -- --base-url URL --model NAME [--part test|train|all] [--jobs N] [--timeout SECONDS] [--json]")
    process.exit(2)
  }
  const figures = await Effect.runPromise(evaluateLlm({
    baseUrl,
    model,
    apiKey: process.env["EVAL_LLM_API_KEY"],
    part: part as LlmEvalOptions["part"],
    jobs: Number(option(args, "jobs") ?? 2),
    timeoutSeconds: Number(option(args, "timeout") ?? 120)
  }))
  if (args.includes("--json")) process.stdout.write(`${JSON.stringify(figures, null, 1)}\n`)
  else {
    process.stdout.write([
      `The LLM-assisted path against the annotations (${model} at ${baseUrl}; ${figures.calls} calls of the ${part} part)`,
      "",
      table("rules alone", figures.rules),
      "",
      table("rules with the LLM (the worker's merge)", figures.assisted),
      "",
      itemsOnly("the LLM's verified items alone", figures.alone),
      "",
      `items the LLM added: ${figures.added}; dropped (quote not in the transcript, wrong side, …): ${figures.dropped}`,
      `requests that failed (the rules' result kept): ${figures.failed.length}`,
      ...figures.failed.map((f) => `  ${f.call}: ${f.error}`),
      ""
    ].join("\n"))
  }
}
