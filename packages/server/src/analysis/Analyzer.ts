/**
 * The analysis of one call file, from bytes to scored result: the acoustic pipeline, then the
 * scorecard. Pure of HTTP and SQL; the worker stores what it answers and the report renders it.
 */
import { Effect } from "effect"
import { analyzeFile } from "./Acoustic.js"
import { METHOD_VERSION } from "./Method.js"
import { scoreCall } from "./Scorecard.js"
import type { AcousticAnalysis, AnalysisFailed, AnalysisStage, AudioFormat, ScoredCall, Turn } from "./Types.js"

/** Everything stored of a completed analysis (the `result` of a call). */
export interface AnalysisResult extends AcousticAnalysis, ScoredCall {
  readonly method_version: string
  /** Words with speakers and times, when a transcriber ran; null for an acoustic-only analysis. */
  readonly transcript: ReadonlyArray<{ speaker: string; start: number; end: number; text: string }> | null
}

export type ProgressListener = (stage: AnalysisStage, fraction: number) => void

export class Analyzer extends Effect.Service<Analyzer>()("Analyzer", {
  succeed: {
    analyze: (
      path: string,
      format: AudioFormat,
      onProgress: ProgressListener = () => {}
    ): Effect.Effect<AnalysisResult, AnalysisFailed> =>
      Effect.gen(function* () {
        const acoustic = yield* analyzeFile(path, { format, onProgress })
        onProgress("score", 0)
        const scored = scoreCall({
          metrics: acoustic.metrics,
          speaker_turns: acoustic.speaker_turns as ReadonlyArray<Turn>,
          speakers: acoustic.speakers,
          duration_s: acoustic.duration_s
        })
        onProgress("report", 1)
        return { ...acoustic, ...scored, method_version: METHOD_VERSION, transcript: null }
      }).pipe(Effect.withSpan("Analyzer.analyze", { attributes: { format } }))
  }
}) {}
