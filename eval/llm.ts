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
 * an LLM gets: its verified items added, the doubtful rule findings it rejected taken out), for the
 * rules with the LLM's additions only (its verdicts left unread: what the merge did before the LLM
 * was a second reader), and for the LLM's own verified items alone (what a design that let the LLM
 * overrule the rules could reach); then the items the LLM added and dropped, what its rejections
 * did (how many rule findings were put to it as doubtful, how many it rejected, and of those how
 * many were annotated objections, wrong rejections, and how many false findings, right ones), and
 * the calls whose request failed (those keep the rules' result, as in the worker). `--json` prints
 * the same as JSON.
 *
 * It sends every call of the part to the server, so it is never run by CI (no network there); with
 * no LLM reachable from this workplace, its figures for a real model are for whoever has one.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { Duration, Effect, Either, Redacted } from "effect"
import { applyAssist, assessmentRequest, type ContentAnalysis, DOUBTFUL, mergeAssessment } from "@callsight/analysis"
import type { AssessorService } from "../packages/server/src/llm/Assessor.js"
import { makeOpenAIChat } from "../packages/server/src/llm/OpenAI.js"
import { type CallResult, type CallRun, compare, ITEMS, readSplit, runCall, summarize, type Summary, table, turnAt } from "./run.js"
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

/** A rule finding the LLM rejected, and whether the annotation lists its turn as an objection (a wrong rejection). */
export interface Rejection {
  readonly call: string
  readonly at: number
  readonly quote: string
  readonly confidence: number
  readonly reason: string
  readonly annotated: boolean
}

interface Assisted {
  readonly rules: CallResult
  readonly assisted: CallResult
  /** The rules with the LLM's additions only: its verdicts left unread. */
  readonly adding: CallResult
  readonly alone: CallResult
  readonly added: number
  readonly dropped: number
  readonly doubtful: number
  readonly kept: number
  readonly rejected: ReadonlyArray<Rejection>
  readonly error: string | null
}

/** The answer with its verdicts left out: what the merge makes of the LLM's additions alone. */
const withoutVerdicts = (answer: unknown): unknown =>
  answer !== null && typeof answer === "object" && !Array.isArray(answer) ? { ...answer, verdicts: [] } : answer

/** One call: the rules' result, the worker's merge of the LLM's answer, and the LLM's verified items alone. */
const assessCall = (run: CallRun, part: "train" | "test", assess: AssessorService) =>
  Effect.gen(function* () {
    const { input, content, metrics, scored } = run
    const request = assessmentRequest({ content, speakers: input.speakers, speaker_turns: input.speaker_turns, framework: input.framework })
    const outcome = yield* Effect.either(assess.assess(request))
    const merge = { content, words: input.words, speaker_turns: input.speaker_turns, speakers: input.speakers, framework: input.framework }
    const llm = { provider: assess.provider, model: assess.model }
    const result = applyAssist({ ...merge, metrics, duration_s: input.duration_s, rules: scored }, llm, Either.mapLeft(outcome, (e) => ({ message: e.message })))
    const adding = applyAssist(
      { ...merge, metrics, duration_s: input.duration_s, rules: scored },
      llm,
      Either.map(Either.mapLeft(outcome, (e) => ({ message: e.message })), withoutVerdicts)
    )
    const own = Either.isRight(outcome) ? mergeAssessment({ ...merge, content: withoutItems(content) }, outcome.right) : Either.left("no answer")
    const annotatedTurns = new Set(run.annotation.objections.flatMap((o) => o.turns))
    const rejected = result.llm.verdicts.filter((v) => v.verdict === "rejected").map((v): Rejection => {
      const turn = turnAt(run.truth, v.at)
      return { call: run.id, at: v.at, quote: v.quote, confidence: v.confidence, reason: v.reason, annotated: turn !== null && annotatedTurns.has(turn) }
    })
    return {
      rules: compare(run, part),
      assisted: compare({ ...run, content: result.content, scored: result.scored }, part),
      adding: compare({ ...run, content: adding.content, scored: adding.scored }, part),
      alone: compare({ ...run, content: Either.isRight(own) ? own.right.content : withoutItems(content) }, part),
      added: result.llm.added_items,
      dropped: result.llm.dropped_items,
      doubtful: result.llm.doubtful_items,
      kept: result.llm.verdicts.filter((v) => v.verdict === "kept").length,
      rejected,
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
      adding: summarize(calls.map((c) => c.adding)),
      alone: summarize(calls.map((c) => c.alone)),
      added: calls.reduce((n, c) => n + c.added, 0),
      dropped: calls.reduce((n, c) => n + c.dropped, 0),
      /** What the second reader did: the rule findings put to it, kept and rejected (each rejection with its reason). */
      verdicts: {
        doubtful: calls.reduce((n, c) => n + c.doubtful, 0),
        kept: calls.reduce((n, c) => n + c.kept, 0),
        rejected: calls.flatMap((c) => c.rejected),
        wrong: calls.reduce((n, c) => n + c.rejected.filter((r) => r.annotated).length, 0),
        right: calls.reduce((n, c) => n + c.rejected.filter((r) => !r.annotated).length, 0)
      },
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
      table("rules with the LLM (the worker's merge: its items added, the doubtful findings it rejected taken out)", figures.assisted),
      "",
      table("rules with the LLM's additions only (its verdicts left unread)", figures.adding),
      "",
      itemsOnly("the LLM's verified items alone", figures.alone),
      "",
      `items the LLM added: ${figures.added}; dropped (quote not in the transcript, wrong side, …): ${figures.dropped}`,
      `rule findings put to the LLM as doubtful (objection confidence under ${DOUBTFUL}): ${figures.verdicts.doubtful}; ` +
      `kept: ${figures.verdicts.kept}; rejected: ${figures.verdicts.rejected.length} — ` +
      `annotated objections (wrong rejections): ${figures.verdicts.wrong}, false findings (right rejections): ${figures.verdicts.right}`,
      ...figures.verdicts.rejected.map((r) =>
        `  ${r.annotated ? "wrong" : "right"}  ${r.call} at ${r.at}s (confidence ${r.confidence.toFixed(2)}): "${r.quote}" — ${r.reason}`
      ),
      `requests that failed (the rules' result kept): ${figures.failed.length}`,
      ...figures.failed.map((f) => `  ${f.call}: ${f.error}`),
      ""
    ].join("\n"))
  }
}
