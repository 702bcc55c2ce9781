/**
 * Words from a speech-to-text provider (docs/method.md step 4), as the analysis uses them. The
 * providers' adapters live outside `analysis/` (they speak HTTP); they all answer this shape.
 */

/** One recognised word, its time in seconds from the start of the call. */
export interface Word {
  readonly text: string
  readonly start: number
  readonly end: number
  /** The provider's own speaker label when it diarizes (`"A"`, `"0"`, `"speaker_1"` ...). */
  readonly speaker?: string | undefined
  readonly confidence: number
}

export interface Transcript {
  readonly provider: "deepgram" | "assemblyai" | "openai"
  readonly model: string
  readonly language: string | null
  readonly words: ReadonlyArray<Word>
}

/** The qualification frameworks a tenant may choose (lead-context profile); MEDDPICC by default. */
export type Framework = "MEDDPICC" | "BANT" | "SPIN"

/**
 * What the content analysis (`Content.ts`) finds in the words, beside the acoustic analysis.
 * Its public fields are stored with the call and shown in the report; `Scorecard.ts` scores
 * the four content dimensions from it.
 */
export interface ContentInput {
  /** The provider's words, in any order. */
  readonly words: ReadonlyArray<Word>
  /** Our speaker turns (with roles): every word is attached to one of them by time overlap. */
  readonly speaker_turns: ReadonlyArray<import("../Types.js").Turn>
  readonly speakers: ReadonlyArray<import("../Types.js").SpeakerSummary>
  readonly duration_s: number
  readonly framework: Framework
}
