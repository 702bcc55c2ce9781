/**
 * Words as a speech-to-text provider would hear them, made from a fixture's ground truth: each
 * turn's text split on spaces, its words spread over the turn in proportion to their length
 * (a short gap after each), with the truth speaker as the provider's own label. The local
 * provider servers of the tests answer with these words in each provider's documented JSON.
 */
import type { Truth } from "./Fixtures.js"

export interface TruthWord {
  /** The word as written in the truth, punctuation attached ("Dana,"). */
  readonly text: string
  readonly start: number
  readonly end: number
  /** The truth speaker ("rep", "prospect"). */
  readonly speaker: string
  readonly confidence: number
}

const round3 = (x: number) => Math.round(x * 1000) / 1000

export const truthWords = (truth: Truth): Array<TruthWord> =>
  truth.turns.flatMap((turn) => {
    const tokens = turn.text.split(/\s+/).filter((t) => t.length > 0)
    const letters = tokens.reduce((n, t) => n + t.length + 1, 0)
    const span = turn.end - turn.start
    let at = turn.start
    return tokens.map((text, i) => {
      const share = (span * (text.length + 1)) / letters
      const word = {
        text,
        start: round3(at),
        end: round3(at + share * 0.85),
        speaker: turn.speaker,
        // deterministic, a little below 1, as real recognisers answer
        confidence: round3(0.9 + ((i * 7) % 10) / 100)
      }
      at += share
      return word
    })
  })

/** The word without its punctuation, lower-cased, as providers answer it beside the punctuated form. */
export const bareWord = (text: string) => text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "").toLowerCase()
