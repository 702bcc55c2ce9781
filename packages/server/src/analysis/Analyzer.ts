/**
 * The analysis of one call file, from bytes to scored result: the acoustic pipeline and, when a
 * speech-to-text provider is configured, the transcript at the same time (the provider works while
 * we decode); then the content analysis of the words and the scorecard. Pure of HTTP and SQL: the
 * transcriber comes in as a function, the worker stores what this answers and the report renders it.
 */
import type { NextStep, Objection, Qualification, Transcription, TranscriptSegment } from "@callsight/api-spec"
import { Effect } from "effect"
import { analyzeFile } from "./Acoustic.js"
import { analyzeContent, type ContentAnalysis } from "./Content.js"
import { METHOD_VERSION } from "./Method.js"
import { scoreCall } from "./Scorecard.js"
import type { Framework, Transcript } from "./Transcript.js"
import type { AcousticAnalysis, AnalysisFailed, AnalysisStage, AudioFormat, ScoredCall } from "./Types.js"

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
}

export type ProgressListener = (stage: AnalysisStage, fraction: number) => void

export interface AnalyzeOptions<E> {
  /** Transcribes the file; absent for an acoustic-only analysis. */
  readonly transcribe?: ((path: string, format: AudioFormat) => Effect.Effect<Transcript, E>) | undefined
  /** The tenant's qualification framework (MEDDPICC by default). */
  readonly framework?: Framework | undefined
  readonly onProgress?: ProgressListener | undefined
}

/** The acoustic analysis, the words and what was found in them, scored. */
export const combine = (
  acoustic: AcousticAnalysis,
  transcript: Transcript | null,
  framework: Framework
): AnalysisResult => {
  const content: ContentAnalysis | null = transcript === null ? null : analyzeContent({
    words: transcript.words,
    speaker_turns: acoustic.speaker_turns,
    speakers: acoustic.speakers,
    duration_s: acoustic.duration_s,
    framework
  })
  const metrics = content === null ? acoustic.metrics : { ...acoustic.metrics, ...content.metrics }
  const scored = scoreCall({
    metrics,
    speaker_turns: acoustic.speaker_turns,
    speakers: acoustic.speakers,
    duration_s: acoustic.duration_s,
    content
  })
  return {
    ...acoustic,
    metrics,
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
    next_steps: content?.next_steps ?? []
  }
}

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
          analyzeFile(path, { format, onProgress }).pipe(
            Effect.tap(() => Effect.sync(() => transcribe !== undefined && onProgress("transcribe", 0)))
          ),
          transcribe === undefined ? Effect.succeed(null) : transcribe(path, format)
        ], { concurrency: 2 })
        onProgress("score", 0)
        const result = combine(acoustic, transcript, options.framework ?? "MEDDPICC")
        onProgress("report", 1)
        return result
      }).pipe(Effect.withSpan("Analyzer.analyze", { attributes: { format, transcribed: options.transcribe !== undefined } }))
  }
}) {}
