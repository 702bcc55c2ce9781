/**
 * The shapes the analysis engine works with. It has no HTTP and no SQL: the worker hands it a
 * file, it answers these values, and the same values are stored and shown (api-spec's
 * `CallAnalysis` is their wire form).
 */
import type {
  CallMetrics,
  Evidence,
  NextStep,
  Objection,
  Qualification,
  RepChannelResult,
  Scorecard,
  Speaker,
  SpeakerTurn,
  Transcription,
  TranscriptSegment
} from "@callsight/api-spec"
import { Data } from "effect"

/** The formats the service accepts, as sniffed from the bytes. */
export type AudioFormat = "mp3" | "wav" | "m4a"

export type Turn = typeof SpeakerTurn.Type
export type SpeakerSummary = typeof Speaker.Type
export type Metrics = typeof CallMetrics.Type
export type ScorecardResult = typeof Scorecard.Type
export type EvidenceItem = typeof Evidence.Type
export type TranscriptSegmentItem = typeof TranscriptSegment.Type
export type ObjectionItem = typeof Objection.Type
export type NextStepItem = typeof NextStep.Type
export type QualificationResult = typeof Qualification.Type
/** Which stereo channel was taken for the rep, and why (`RepChannel.ts`). */
export type RepChannelDecision = typeof RepChannelResult.Type
/** The rep channel asked for: a channel, or `auto` (decide from the call). */
export type RepChannelRequest = RepChannelDecision["requested"]
/** Who transcribed a call; `provider` read back from a stored result may name one we no longer know. */
export type TranscriptionInfo = Omit<typeof Transcription.Type, "provider"> & { readonly provider: string }

/** What the acoustic pipeline finds: who spoke when, and the metrics that need no words. */
export interface AcousticAnalysis {
  readonly duration_s: number
  /** Channels of the file (1 or 2); stereo files with separable channels are diarized by channel. */
  readonly channels: number
  readonly diarization: "channel" | "clustering"
  readonly speakers: ReadonlyArray<SpeakerSummary>
  readonly speaker_turns: ReadonlyArray<Turn>
  /** Content metrics (question_count, words_per_minute, filler_rate...) are null without a transcript. */
  readonly metrics: Metrics
  /**
   * Stereo diarized by channel: which channel was taken for the rep and why; null (or absent, in
   * results of other code paths) for mono and for stereo diarized by clustering.
   */
  readonly rep_channel?: RepChannelDecision | null
}

/** The scorecard and the evidence behind every point. */
export interface ScoredCall {
  readonly scorecard: ScorecardResult
  readonly evidence: ReadonlyArray<EvidenceItem>
}

/** Stages reported while a call is processed (`GET /analysis/{call_id}`). */
export type AnalysisStage = "decode" | "diarize" | "transcribe" | "score" | "report"

/** Why an analysis could not be done: the call ends `failed` with this code, and no credit is used. */
export class AnalysisFailed extends Data.TaggedError("AnalysisFailed")<{
  readonly code: "undecodable_audio" | "unsupported_format" | "too_short" | "no_speech"
  readonly message: string
}> {}
