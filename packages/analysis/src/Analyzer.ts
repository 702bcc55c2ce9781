/**
 * The analysis of one call file, from bytes to scored result: the acoustic pipeline and, when a
 * speech-to-text provider is configured, the transcript at the same time (the provider works while
 * we decode); then the content analysis of the words and the scorecard; then, when the tenant has
 * an LLM, its assessment of the transcript, verified and merged (`Assist.ts`). Pure of HTTP and SQL:
 * the transcriber and the LLM come in as functions, the worker stores what this answers and the
 * report renders it.
 */
import type { CallTypeResult, NextStep, Objection, Qualification, Transcription, TranscriptSegment } from "@callsight/api-spec"
import { Effect, Either } from "effect"
import { type CallType, detectCallType, detectedReason } from "./models/CallTypeModel.js"
import { settleRepChannel } from "./RepChannel.js"
import { analyzeFile } from "./signal/Acoustic.js"
import { acousticMetrics } from "./signal/Metrics.js"
import { applyAssist, assessmentRequest, type LlmAssist, type LlmAssistanceResult } from "./scoring/Assist.js"
import { analyzeContent, type ContentAnalysis } from "./text/Content.js"
import { type Summary, summarize, writtenSummary } from "./text/Summary.js"
import { METHOD_VERSION } from "./Method.js"
import { byCallType, scoreCall } from "./scoring/Scorecard.js"
import type { Framework, Transcript } from "./text/Transcript.js"
import type { AcousticAnalysis, AnalysisFailed, AnalysisStage, AudioFormat, RepChannelDecision, ScoredCall } from "./Types.js"

/** Everything stored of a completed analysis (the `result` of a call). */
export interface AnalysisResult extends AcousticAnalysis, ScoredCall {
  readonly method_version: string
  /** Segments with our speakers and times, when a transcriber ran; null for an acoustic-only analysis. */
  readonly transcript: ReadonlyArray<typeof TranscriptSegment.Type> | null
  /** Where the words came from; null for an acoustic-only analysis. */
  readonly transcription: typeof Transcription.Type | null
  /** The qualification checklist; null without a transcript. */
  readonly qualification: typeof Qualification.Type | null
  readonly objections: ReadonlyArray<typeof Objection.Type>
  readonly next_steps: ReadonlyArray<typeof NextStep.Type>
  /** What the tenant's LLM added; null when none ran (no LLM integration, or no words to assess). */
  readonly llm: LlmAssistanceResult | null
  /** The type the scorecard was weighed by: given (it wins) or detected; null when neither. */
  readonly call_type: typeof CallTypeResult.Type | null
  /** Stereo diarized by channel: which channel is the rep's, and why; null otherwise. */
  readonly rep_channel: RepChannelDecision | null
  /** What the buyer needs, what was agreed, the open risks, quoted (`text/Summary.ts`); null without words. */
  readonly summary: Summary | null
}

export type ProgressListener = (stage: AnalysisStage, fraction: number) => void

export interface AnalyzeOptions<E> {
  /** Transcribes the file; absent for an acoustic-only analysis. */
  readonly transcribe?: ((path: string, format: AudioFormat) => Effect.Effect<Transcript, E>) | undefined
  /** The tenant's qualification framework (MEDDPICC by default). */
  readonly framework?: Framework | undefined
  /**
   * The tenant's LLM: asked once, after the rule-based content analysis, when there is a
   * transcript with words. Its failures never fail the analysis (they are recorded in `llm.error`).
   */
  readonly assist?: LlmAssist | undefined
  readonly onProgress?: ProgressListener | undefined
  /** The call's type as given at upload: it wins over the type detected from the words. */
  readonly callType?: CallType | undefined
  /** Stereo: the rep's channel, or `auto` (the words decide, else the acoustic cues); default left. */
  readonly repChannel?: "left" | "right" | "auto" | undefined
}

/** What the rules find in the words of a call; null without a transcript. */
export const contentOf = (acoustic: AcousticAnalysis, transcript: Transcript | null, framework: Framework): ContentAnalysis | null =>
  transcript === null ? null : analyzeContent({
    words: transcript.words,
    speaker_turns: acoustic.speaker_turns,
    speakers: acoustic.speakers,
    duration_s: acoustic.duration_s,
    framework
  })

/**
 * The call's type: the one given wins; else the one the words say (`CallTypeModel.ts`), the rep's
 * words told from the buyer side's; null with neither (no transcript, or no words the model knows).
 */
export const callTypeOf = (
  acoustic: Pick<AcousticAnalysis, "speakers">,
  content: ContentAnalysis | null,
  given: CallType | null
): typeof CallTypeResult.Type | null => {
  if (given !== null) return { type: given, source: "given", confidence: 1, reason: "given at upload" }
  if (content === null || content.transcript.length === 0) return null
  const reps = new Set(acoustic.speakers.filter((s) => s.role === "rep").map((s) => s.speaker))
  const detected = detectCallType(content.transcript.map((t) => ({ rep: reps.has(t.speaker), text: t.text })))
  return detected === null
    ? null
    : { type: detected.type, source: "detected", confidence: detected.confidence, reason: detectedReason(detected) }
}

/**
 * The words read, and on a stereo call whose rep channel is `auto`, the channel settled by them
 * (`RepChannel.ts`): when the words put the rep on the other channel, the roles are swapped and the
 * words read again with the right roles.
 */
export const readCall = (
  acoustic: AcousticAnalysis,
  transcript: Transcript | null,
  framework: Framework
): { readonly acoustic: AcousticAnalysis; readonly content: ContentAnalysis | null } => {
  const content = contentOf(acoustic, transcript, framework)
  if (content === null || acoustic.rep_channel?.requested !== "auto") return { acoustic, content }
  const settled = settleRepChannel(acoustic, content.transcript, (turns) => acousticMetrics(turns, acoustic.duration_s))
  const swapped = settled.rep_channel?.chosen !== acoustic.rep_channel.chosen
  return { acoustic: settled, content: swapped ? contentOf(settled, transcript, framework) : content }
}

const metricsOf = (acoustic: AcousticAnalysis, content: ContentAnalysis | null) =>
  content === null ? acoustic.metrics : { ...acoustic.metrics, ...content.metrics }

/** The result from the scored content (the rules', or merged with an LLM's). */
const resultOf = (
  acoustic: AcousticAnalysis,
  transcript: Transcript | null,
  content: ContentAnalysis | null,
  scored: ScoredCall,
  llm: LlmAssistanceResult | null,
  callType: typeof CallTypeResult.Type | null,
  summary: Summary | null = content === null ? null : summarize(content, acoustic.speakers, acoustic.speaker_turns)
): AnalysisResult => ({
  ...acoustic,
  metrics: metricsOf(acoustic, content),
  ...scored,
  method_version: METHOD_VERSION,
  transcript: content?.transcript ?? null,
  transcription: transcript === null || content === null ? null : {
    provider: transcript.provider,
    model: transcript.model,
    language: transcript.language,
    diarization_agreement: content.diarization_agreement
  },
  qualification: content?.qualification ?? null,
  objections: content?.objections ?? [],
  next_steps: content?.next_steps ?? [],
  llm,
  call_type: callType,
  rep_channel: acoustic.rep_channel ?? null,
  summary
})

const scoreContent = (acoustic: AcousticAnalysis, content: ContentAnalysis | null, callType: CallType | null): ScoredCall =>
  scoreCall({
    metrics: metricsOf(acoustic, content),
    speaker_turns: acoustic.speaker_turns,
    speakers: acoustic.speakers,
    duration_s: acoustic.duration_s,
    content,
    call_type: callType
  })

/**
 * The acoustic analysis, the words and what the rules found in them, scored with the weights of
 * the call's type (`given` at upload, else detected from the words).
 */
export const combine = (
  heard: AcousticAnalysis,
  transcript: Transcript | null,
  framework: Framework,
  given: CallType | null = null
): AnalysisResult => {
  const { acoustic, content } = readCall(heard, transcript, framework)
  const callType = callTypeOf(acoustic, content, given)
  return resultOf(acoustic, transcript, content, scoreContent(acoustic, content, callType?.type ?? null), null, callType)
}

/**
 * The rules' result, then the LLM's assessment of the transcript merged in and rescored. The LLM
 * is asked only when there are words; whatever it answers or fails with, the analysis succeeds.
 */
export const combineAssisted = (
  heard: AcousticAnalysis,
  transcript: Transcript | null,
  framework: Framework,
  assist: LlmAssist,
  given: CallType | null = null
): Effect.Effect<AnalysisResult> =>
  Effect.gen(function* () {
    const { acoustic, content } = readCall(heard, transcript, framework)
    const callType = callTypeOf(acoustic, content, given)
    const rules = scoreContent(acoustic, content, callType?.type ?? null)
    if (transcript === null || content === null || content.transcript.length === 0) {
      return resultOf(acoustic, transcript, content, rules, null, callType)
    }
    const input = {
      content,
      words: transcript.words,
      speaker_turns: acoustic.speaker_turns,
      speakers: acoustic.speakers,
      framework,
      metrics: metricsOf(acoustic, content),
      duration_s: acoustic.duration_s,
      rules
    }
    const outcome = yield* Effect.either(
      Effect.suspend(() => assist.assess(assessmentRequest(input))).pipe(
        // a defect of the adapter is one more failure of the LLM, never of the call
        Effect.catchAllDefect((defect) => Effect.fail({ message: `the LLM request failed: ${String(defect)}` }))
      )
    )
    const assisted = applyAssist(input, { provider: assist.provider, model: assist.model }, outcome)
    if (assisted.llm.error !== null) {
      yield* Effect.logWarning("the LLM assessment gave nothing; the rule-based result stands").pipe(
        Effect.annotateLogs({ provider: assist.provider, model: assist.model, error: assisted.llm.error })
      )
    }
    // the merged findings rescored with the default weights: weighed again for the call's type
    const scored = callType === null ? assisted.scored : byCallType(assisted.scored, callType.type)
    // the summary of the merged findings; the LLM's sentences where every quote they cite is found
    const extractive = summarize(assisted.content, acoustic.speakers, acoustic.speaker_turns)
    if (extractive === null || assisted.llm.error !== null || Either.isLeft(outcome)) {
      return resultOf(acoustic, transcript, assisted.content, scored, assisted.llm, callType, extractive)
    }
    const answer = outcome.right
    const written = writtenSummary(
      extractive,
      typeof answer === "object" && answer !== null ? (answer as Record<string, unknown>).summary : undefined,
      assisted.content.transcript
    )
    const llm = { ...assisted.llm, dropped_items: assisted.llm.dropped_items + written.dropped }
    return resultOf(acoustic, transcript, assisted.content, scored, llm, callType, written.summary)
  }).pipe(Effect.withSpan("Analyzer.assist", { attributes: { provider: assist.provider, model: assist.model } }))

export class Analyzer extends Effect.Service<Analyzer>()("Analyzer", {
  succeed: {
    analyze: <E = never>(
      path: string,
      format: AudioFormat,
      options: AnalyzeOptions<E> = {}
    ): Effect.Effect<AnalysisResult, AnalysisFailed | E> =>
      Effect.gen(function* () {
        const onProgress = options.onProgress ?? (() => {})
        const transcribe = options.transcribe
        // The provider works on its copy while we decode ours; either failing ends the analysis.
        const [acoustic, transcript] = yield* Effect.all([
          analyzeFile(path, { format, onProgress, ...(options.repChannel === undefined ? {} : { repChannel: options.repChannel }) }).pipe(
            Effect.tap(() => Effect.sync(() => transcribe !== undefined && onProgress("transcribe", 0)))
          ),
          transcribe === undefined ? Effect.succeed(null) : transcribe(path, format)
        ], { concurrency: 2 })
        onProgress("score", 0)
        const framework = options.framework ?? "MEDDPICC"
        const given = options.callType ?? null
        const result = options.assist === undefined
          ? combine(acoustic, transcript, framework, given)
          : yield* combineAssisted(acoustic, transcript, framework, options.assist, given)
        onProgress("report", 1)
        return result
      }).pipe(Effect.withSpan("Analyzer.analyze", { attributes: { format, transcribed: options.transcribe !== undefined } }))
  }
}) {}
