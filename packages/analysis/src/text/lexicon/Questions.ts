/**
 * Questions: whether a sentence is one, and whether it is open or closed.
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */
import { ends } from "./Punctuation.js"
import { plain, type Token } from "./Tokens.js"

/** Question words: a question that starts with one is open. */
export const INTERROGATIVES: ReadonlySet<string> = new Set(["what", "why", "how", "who", "whom", "whose", "which", "when", "where"])

/** Auxiliaries and modals that open a yes/no question ("Did anything change…", "Could we book…"). */
export const AUXILIARIES: ReadonlySet<string> = new Set([
  "do", "does", "did", "is", "are", "was", "were", "am", "can", "could", "would", "will", "should", "shall",
  "may", "might", "have", "has", "had", "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't",
  "can't", "couldn't", "wouldn't", "won't", "shouldn't", "haven't", "hasn't"
])

/** A subject after an auxiliary makes it a question ("is that", "could we"); "will do" is not one. */
const SUBJECTS = new Set(["i", "you", "we", "they", "he", "she", "it", "that", "this", "there", "these", "those", "your", "the", "anyone", "anything", "anybody", "everyone", "any", "someone", "something"])

/** Words skipped at the start of a spoken sentence before deciding what it is ("Great, what…"). */
const DISCOURSE_MARKERS = new Set(["so", "and", "but", "ok", "okay", "great", "right", "well", "now", "alright", "understood", "sure", "yeah", "yes", "cool", "perfect", "oh", "um", "uh", "then", "also"])

/** Openers of open requests that work as questions ("tell me about…", "walk me through…"). */
const OPEN_REQUEST = /^(tell me|walk me through|talk me through|describe|explain|help me understand)\b/

const firstContentIndex = (tokens: ReadonlyArray<Token>): number => {
  let i = 0
  while (i < tokens.length - 1 && DISCOURSE_MARKERS.has(tokens[i]!.word)) i++
  return i
}

/**
 * Whether a sentence is a question: it ends in "?"; or, when the provider gave no end punctuation,
 * it opens (after "so", "great", …) with a question word or an auxiliary followed by a subject.
 * A sentence ending in "." or "!" is not a question.
 */
export const isQuestion = (tokens: ReadonlyArray<Token>): boolean => {
  const last = tokens[tokens.length - 1]
  if (last === undefined) return false
  if (ends(last.raw, /\?$/)) return true
  if (ends(last.raw, /[.!…]$/)) return false
  const i = firstContentIndex(tokens)
  const first = tokens[i]?.word ?? ""
  const second = tokens[i + 1]?.word ?? ""
  if (INTERROGATIVES.has(first)) {
    // "what we do is…" and "how I see it" are statements; "what prompted you…", "how is it" are not
    return second !== "" && !["i", "we", "you", "they", "he", "she", "if"].includes(second)
  }
  return AUXILIARIES.has(first) && SUBJECTS.has(second)
}

/**
 * An open question asks for an answer in the buyer's words: a question word among its first four
 * words ("What does that cost you…", "Can I ask how…"), or an open request ("Tell me about…").
 * Everything else is closed (yes/no, either/or).
 */
export const isOpenQuestion = (tokens: ReadonlyArray<Token>): boolean => {
  const i = firstContentIndex(tokens)
  const head = tokens.slice(i, i + 4).map((t) => t.word)
  return head.some((w) => INTERROGATIVES.has(w)) || OPEN_REQUEST.test(plain(tokens.slice(i)))
}
