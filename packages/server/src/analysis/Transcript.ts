/**
 * Words from a speech-to-text provider (ANALYSIS.md step 4), as the analysis uses them. The
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
