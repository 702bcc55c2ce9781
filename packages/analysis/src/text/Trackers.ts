/**
 * Trackers (issue 38, item 2): a tenant's named lists of words and phrases, found in a call's
 * transcript. Pure: terms and turns in, mentions out.
 *
 * How a term is found:
 * - **Words, whole.** Text is cut into words (letters and digits, with an inner apostrophe kept:
 *   "don't", "Gong's"); a term matches whole words only, so "AI" never matches "said".
 * - **Case and diacritics do not matter**: "Nestlé", "NESTLE" and "nestle" are one word.
 * - **Stems.** Each word is compared by its Porter2 stem (the Snowball English stemmer, the one
 *   PostgreSQL's `english` configuration uses; `wink-porter2-stemmer`): "pricing", "prices",
 *   "priced" all match the term "price"; "contracts" matches "contract". A word with a digit is
 *   compared as it is. A term in double quotes (`"Gong"`) is matched without stemming (case and
 *   diacritics still ignored): for names a stem would widen. Trackers of competitors (the
 *   Competitors tracker, and any of kind `competitor`) match every term so: names as written.
 * - **Phrases.** A term of several words matches the same words in a row within one turn, whatever
 *   separates them (spaces, a comma, a hyphen, a line break): "annual contract" matches
 *   "annual contracts" and "annual, contract"; "e-mail" is the phrase "e mail".
 * - **One mention per place.** Where two terms of a tracker match at the same word, the longer one
 *   is counted ("annual contract", not also "contract"); a mention's words are not matched again.
 *
 * Each mention names its term (as the tracker spells it), the turn's speaker and start second, the
 * words as said (`matched`, an exact substring of the turn) and the sentence around them (`quote`,
 * an exact substring of the turn, at most about 240 characters).
 */
import porter2 from "wink-porter2-stemmer"

/** One turn of a transcript. */
export interface TrackerTurn {
  readonly speaker: string
  readonly start: number
  readonly text: string
}

/** A term found in a turn. */
export interface TrackerMention {
  /** The term as the tracker spells it. */
  readonly term: string
  readonly speaker: string
  /** The turn's start, in seconds. */
  readonly start: number
  /** The words matched, as said: an exact substring of the turn's text. */
  readonly matched: string
  /** The sentence around them: an exact substring of the turn's text. */
  readonly quote: string
}

interface Word {
  readonly key: string
  readonly exact: string
  readonly from: number
  readonly to: number
}

interface Pattern {
  readonly term: string
  /** Per word: its stem, or (quoted terms) its folded form. */
  readonly keys: ReadonlyArray<string>
  readonly stemmed: boolean
}

/** A compiled list of terms: built once, used on every call. */
export interface TrackerMatcher {
  readonly terms: ReadonlyArray<string>
  /** Patterns by their first word's key, longest first. */
  readonly byFirst: ReadonlyMap<string, ReadonlyArray<Pattern>>
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu

/** Lower case, without diacritics, curly apostrophes straightened. */
export const foldWord = (word: string): string =>
  /^[\x00-\x7f]*$/.test(word) ? word.toLowerCase() : word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/’/g, "'")

const stemCache = new Map<string, string>()

/** The Porter2 stem of a folded word (a word with a digit is its own stem). */
export const stemWord = (folded: string): string => {
  const cached = stemCache.get(folded)
  if (cached !== undefined) return cached
  const stem = /\d/.test(folded) ? folded : porter2(folded)
  if (stemCache.size < 200_000) stemCache.set(folded, stem)
  return stem
}

/** The words of a text with their places. */
const wordsOf = (text: string): Array<Word> => {
  const words: Array<Word> = []
  for (const m of text.matchAll(WORD)) {
    const folded = foldWord(m[0])
    words.push({ key: stemWord(folded), exact: folded, from: m.index, to: m.index + m[0].length })
  }
  return words
}

/** The words of a term as the matcher compares them; empty when the term has no word. */
export const termWords = (term: string): ReadonlyArray<string> => {
  const quoted = /^\s*"(.*)"\s*$/s.exec(term)
  const body = quoted === null ? term : quoted[1]!
  return Array.from(body.matchAll(WORD), (m) => foldWord(m[0]))
}

/**
 * Compiles a tracker's terms (terms without any word are left out). With `stem: false` every term is
 * matched as a quoted one, without stems: for lists of names (competitors), which a stem widens
 * ("Excel" would match "excellent", whose stem is "excel").
 */
export const compileTrackerTerms = (terms: ReadonlyArray<string>, options: { readonly stem?: boolean } = {}): TrackerMatcher => {
  const byFirst = new Map<string, Array<Pattern>>()
  const seen = new Set<string>()
  for (const term of terms) {
    const stemmed = options.stem !== false && !/^\s*".*"\s*$/s.test(term)
    const words = termWords(term)
    if (words.length === 0) continue
    const keys = stemmed ? words.map(stemWord) : words
    const id = `${stemmed ? "s" : "e"}:${keys.join(" ")}`
    if (seen.has(id)) continue
    seen.add(id)
    const list = byFirst.get(keys[0]!) ?? []
    list.push({ term, keys, stemmed })
    byFirst.set(keys[0]!, list)
  }
  // exact patterns are looked up by the folded first word, which is also a stem key when it is its own stem:
  // keep one index and check each pattern's words below
  for (const list of byFirst.values()) list.sort((a, b) => b.keys.length - a.keys.length)
  return { terms, byFirst }
}

const QUOTE_MAX = 240

/** The sentence of `text` around [from, to): cut at . ! ? or a line break, at most about QUOTE_MAX characters. */
const sentenceAround = (text: string, from: number, to: number): string => {
  let start = from
  while (start > 0 && !/[.!?\n]/.test(text[start - 1]!) && from - start < QUOTE_MAX / 2) start--
  while (start < from && /\s/.test(text[start]!)) start++
  let end = to
  while (end < text.length && !/[.!?\n]/.test(text[end]!) && end - to < QUOTE_MAX / 2) end++
  if (end < text.length && /[.!?]/.test(text[end]!)) end++
  // do not cut a word in two at either end
  if (start > 0 && /[\p{L}\p{N}]/u.test(text[start - 1]!)) while (start < from && /[\p{L}\p{N}]/u.test(text[start]!)) start++
  if (end < text.length && /[\p{L}\p{N}]/u.test(text[end]!)) while (end > to && /[\p{L}\p{N}]/u.test(text[end - 1]!)) end--
  return text.slice(start, end).trim()
}

/** Every mention of the matcher's terms in the turns, in the order said. */
export const findTrackerMentions = (matcher: TrackerMatcher, turns: ReadonlyArray<TrackerTurn>): Array<TrackerMention> => {
  const mentions: Array<TrackerMention> = []
  if (matcher.byFirst.size === 0) return mentions
  for (const turn of turns) {
    if (typeof turn.text !== "string" || turn.text.length === 0) continue
    const words = wordsOf(turn.text)
    let i = 0
    while (i < words.length) {
      const w = words[i]!
      const candidates = [...(matcher.byFirst.get(w.key) ?? []), ...(w.exact === w.key ? [] : matcher.byFirst.get(w.exact) ?? [])]
        .sort((a, b) => b.keys.length - a.keys.length)
      let matched: Pattern | undefined
      for (const p of candidates) {
        if (i + p.keys.length > words.length) continue
        if (p.keys.every((k, j) => (p.stemmed ? words[i + j]!.key : words[i + j]!.exact) === k)) {
          matched = p
          break
        }
      }
      if (matched === undefined) {
        i++
        continue
      }
      const last = words[i + matched.keys.length - 1]!
      mentions.push({
        term: matched.term,
        speaker: turn.speaker,
        start: turn.start,
        matched: turn.text.slice(w.from, last.to),
        quote: sentenceAround(turn.text, w.from, last.to)
      })
      i += matched.keys.length
    }
  }
  return mentions
}
