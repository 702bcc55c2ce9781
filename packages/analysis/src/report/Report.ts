/**
 * The call report (docs/method.md step 8): one self-contained HTML page. No scripts, no external
 * fonts, images or style sheets: it opens offline, prints cleanly, and can be saved as a file.
 * Every string from the input is escaped (external ids, speaker labels and transcript words are
 * user-supplied).
 *
 * Sections: header (call id, external id, date, duration, speakers), overall score, the summary
 * (what the buyer needs, what was agreed, open risks, with their quotes; with a transcript), scorecard
 * (with "not assessed" and the reason where it applies, weights, links from each score to its
 * evidence and, with a transcript, the quotes behind it linked to their moment), speaker timeline
 * (inline SVG, one lane per speaker, evidence markers linking to the evidence list), talk-ratio
 * chart with the 43 % reference, metrics beside their reference values, and with a transcript the
 * qualification checklist, objections and the rep's responses, next steps, the evidence list, and
 * the transcript itself (every segment anchored as `t-<start>`, so any moment can be linked; left
 * out with a line saying so when `include_transcript` is false, the quotes and links to it then
 * staying as plain times); without one, what needs a transcript, and before the scorecard the
 * dimensions it could not judge and how to configure a speech-to-text provider
 * (`speech_to_text_setup`). It ends with a method note:
 * `method_version`, the speech-to-text provider and how far its diarization agrees with ours, the
 * tenant's LLM when one assisted (which dimensions, what it added and dropped, or why it gave
 * nothing; the rule findings it rejected are listed with its reasons under the overall score), the
 * weights and the scoring rules. An overall score resting on fewer than 4 of the 6
 * dimensions is shown "partial (n of 6)", in a neutral colour and without a grade word.
 */
import { metricsSection, timelineSection } from "./Acoustics.js"
import { callSummarySection } from "./CallSummary.js"
import { evidenceSection } from "./EvidenceList.js"
import { nextStepsSection, objectionsSection, qualificationSection } from "./Findings.js"
import { headerSection } from "./Header.js"
import { methodSection } from "./MethodNote.js"
import { documentEnd, documentStart } from "./Page.js"
import { missingTranscriptSection } from "./MissingTranscript.js"
import { scorecardSection, summarySection } from "./Scores.js"
import { transcriptSection } from "./TranscriptSection.js"
import { viewOf } from "./View.js"
import type { Summary } from "../text/Summary.js"
import type {
  EvidenceItem,
  Metrics,
  NextStepItem,
  ObjectionItem,
  QualificationResult,
  ScorecardResult,
  SpeakerSummary,
  TranscriptionInfo,
  TranscriptSegmentItem,
  Turn
} from "../Types.js"

export interface ReportInput {
  readonly call_id: string
  readonly external_call_id: string | null
  /** ISO 8601. */
  readonly created_at: string
  readonly duration_s: number
  readonly channels: number | null
  readonly method_version: string
  readonly speakers: ReadonlyArray<SpeakerSummary>
  readonly speaker_turns: ReadonlyArray<Turn>
  readonly metrics: Metrics
  readonly scorecard: ScorecardResult
  readonly evidence: ReadonlyArray<EvidenceItem>
  /** Null for an acoustic-only analysis. */
  readonly transcript: ReadonlyArray<TranscriptSegmentItem> | null
  readonly closer_email?: string | null
  readonly diarization?: "channel" | "clustering" | null
  /** The qualification checklist; null (or absent) when it was not assessed. Shown with a transcript. */
  readonly qualification?: QualificationResult | null
  /** Objections raised by the buyer side and the rep's responses. Shown with a transcript. */
  readonly objections?: ReadonlyArray<ObjectionItem>
  /** Next steps agreed on the call. Shown with a transcript. */
  readonly next_steps?: ReadonlyArray<NextStepItem>
  /** The speech-to-text provider behind the transcript, for the method note. */
  readonly transcription?: TranscriptionInfo | null
  /**
   * Show the transcript section (default true; the tenant's runtime flag `report.include_transcript`).
   * When false the transcript is left out, but the quotes, checklist, objections and next steps stay.
   */
  readonly include_transcript?: boolean
  /**
   * How to configure a speech-to-text provider, in words (the settings by name, no secrets): shown
   * near the scorecard of an analysis without a transcript, after the dimensions it could not judge.
   * The server writes it from its own configuration; absent, the report says only what is missing.
   */
  readonly speech_to_text_setup?: string | null
  /** The call's type and where it came from (given at upload, or detected); null or absent: unknown. Shown in the header. */
  readonly call_type?: {
    readonly type: string
    readonly source: "given" | "detected"
    readonly confidence: number
    readonly reason: string
  } | null
  /** What the buyer needs, what was agreed, the open risks (`text/Summary.ts`); null or absent: none (shown near the top). */
  readonly summary?: Summary | null
  /** Stereo: which channel was taken for the rep and why; null or absent otherwise. Shown in the header. */
  readonly rep_channel?: { readonly requested: string; readonly chosen: string; readonly reason: string } | null
  /** What the tenant's LLM added (null or absent: none ran). */
  readonly llm?: {
    readonly provider: string
    readonly model: string
    readonly assisted_dimensions: ReadonlyArray<string>
    readonly added_items: number
    readonly dropped_items: number
    readonly error: string | null
    /** The rules' doubtful findings put to it (absent in analyses from before it was asked). */
    readonly doubtful_items?: number
    /** Its verdicts on them (absent likewise): the rejected ones are listed. */
    readonly verdicts?: ReadonlyArray<{
      readonly kind: string
      readonly at: number
      readonly quote: string
      readonly confidence: number
      readonly verdict: "kept" | "rejected"
      readonly reason: string
    }>
  } | null
}

/** Render the report of one call as a complete HTML document. Pure: the same input, the same page. */
export const renderReport = (input: ReportInput): string => {
  const view = viewOf(input)
  return [
    documentStart(input),
    headerSection(view),
    `<main class="wrap">`,
    summarySection(view),
    callSummarySection(view, input.summary),
    missingTranscriptSection(view),
    scorecardSection(view),
    timelineSection(view),
    metricsSection(view),
    ...(view.hasTranscript ? [qualificationSection(view), objectionsSection(view), nextStepsSection(view)] : []),
    evidenceSection(view),
    transcriptSection(view),
    methodSection(view),
    `</main>`,
    documentEnd(input)
  ].join("\n")
}
