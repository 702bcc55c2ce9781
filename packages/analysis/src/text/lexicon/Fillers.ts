/**
 * Fillers (docs/method.md step 6: `filler_rate`, filler words per 100 rep words): hesitation sounds,
 * hedge words, and the two-word fillers ("you know", "I mean", "sort of") told apart from their
 * literal uses.
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */
import { endsClause, endsSentence, type Token } from "./Tokens.js"

/**
 * Hesitation sounds: always fillers. Backchannels ("mm-hmm", "yeah") are not fillers: they answer
 * someone. "ah" and "oh" are left out: they mostly react to what was said.
 */
export const FILLER_SOUNDS: ReadonlySet<string> = new Set(["um", "umm", "uh", "uhh", "uhm", "er", "erm", "ehm", "hmm"])

/**
 * Hedge words counted as fillers every time: in speech they carry no meaning of their own.
 * Not counted: "actually", "so", "well", "right", "okay", "just": too often they do mean something
 * ("what actually closes business").
 */
export const FILLER_WORDS: ReadonlySet<string> = new Set(["basically", "literally"])

/** Before "sort of" / "kind of", these make it a noun phrase ("what kind of tool"), not a hedge. */
const KIND_OF_DETERMINERS = new Set(["a", "the", "this", "that", "these", "those", "what", "which", "any", "some", "one", "every", "each", "no", "same", "different", "other", "all", "our", "your", "their", "my", "his", "her", "its", "right", "wrong"])

/** After "you know", these make "know" a verb with an object ("you know what we do"). */
const KNOW_OBJECTS = new Set(["what", "how", "where", "when", "why", "who", "whether", "if", "that", "about", "the", "it", "him", "her", "them", "me", "us", "this", "those", "these", "a", "an", "your", "our", "my", "their", "each", "more", "better", "best"])

/** Before "you know", these make it a question or a clause ("do you know", "as you know"). */
const KNOW_OPENERS = new Set(["do", "did", "does", "if", "as", "would", "will", "can", "could", "should", "that", "what", "how", "when", "whether", "unless"])

/** After "I mean", these make "mean" a verb ("I mean it", "I mean to"). */
const MEAN_OBJECTS = new Set(["it", "that", "to", "what", "you", "this", "the", "a", "business"])

/** Before "like", these make it a verb or a preposition ("I like", "would like", "looks like", "a tool like"). */
const LIKE_NOT_FILLER_BEFORE = new Set(["i", "you", "we", "they", "he", "she", "it", "would", "'d", "to", "do", "don't", "did", "didn't", "does", "doesn't", "really", "also", "look", "looks", "looked", "feel", "feels", "felt", "sound", "sounds", "seem", "seems", "something", "anything", "nothing", "just", "much", "more", "most", "exactly", "things", "people", "tools", "tool", "one", "ones"])

export interface FillerMatch {
  /** Index of the first token of the filler. */
  readonly at: number
  /** Tokens it spans (1 or 2). */
  readonly length: number
  readonly filler: string
}

/**
 * The fillers in a run of tokens; each counts once, whatever its length ("you know" is one filler).
 * "like" counts only when set off by a comma ("we, like, never call") or next to another filler,
 * and never after a word that makes it a verb or preposition ("I like it", "tools like this").
 */
export const findFillers = (tokens: ReadonlyArray<Token>): Array<FillerMatch> => {
  const out: Array<FillerMatch> = []
  const word = (i: number) => tokens[i]?.word ?? ""
  const commaBefore = (i: number) => i > 0 && endsClause(tokens[i - 1]!.raw)
  const sentenceStart = (i: number) => i === 0 || endsSentence(tokens[i - 1]!.raw)
  for (let i = 0; i < tokens.length; i++) {
    const w = word(i)
    const next = word(i + 1)
    const prev = sentenceStart(i) ? "" : word(i - 1)
    if (FILLER_SOUNDS.has(w) || FILLER_WORDS.has(w)) {
      out.push({ at: i, length: 1, filler: w })
    } else if (w === "you" && next === "know" && !KNOW_OPENERS.has(prev) && !KNOW_OBJECTS.has(word(i + 2))) {
      out.push({ at: i, length: 2, filler: "you know" })
      i++
    } else if (w === "i" && next === "mean" && !MEAN_OBJECTS.has(endsSentence(tokens[i + 1]!.raw) ? "" : word(i + 2))) {
      out.push({ at: i, length: 2, filler: "i mean" })
      i++
    } else if ((w === "sort" || w === "kind") && next === "of" && !KIND_OF_DETERMINERS.has(prev)) {
      out.push({ at: i, length: 2, filler: `${w} of` })
      i++
    } else if (w === "like" && !LIKE_NOT_FILLER_BEFORE.has(prev)) {
      const setOff = commaBefore(i) || endsClause(tokens[i]!.raw)
      const besideFiller = FILLER_SOUNDS.has(prev) || FILLER_SOUNDS.has(next)
      if (setOff || besideFiller) out.push({ at: i, length: 1, filler: "like" })
    }
  }
  return out
}
