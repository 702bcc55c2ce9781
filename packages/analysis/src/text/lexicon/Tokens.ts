/**
 * Tokens and plain text, and where sentences and clauses end: the forms of text the rest of the
 * lexicon reads.
 *
 * The lexicons and patterns of the content analysis (docs/method.md step 7: "rule-based and
 * deterministic first (lexicons and patterns, versioned as `method_version`)") live in this folder,
 * one concept a module. Data, plus the tiny matchers that read it; what is done with a match lives
 * in `Content.ts`.
 *
 * Text comes in two forms:
 * - **tokens**: one per provider word, `raw` as said (with the provider's punctuation, "Dana,")
 *   and `word` bare and lower-cased ("dana"). Fillers, questions and numbers read tokens, because
 *   commas and question marks matter to them.
 * - **plain text** ({@link plain}): the bare words joined by single spaces, contractions expanded
 *   ("don't" → "do not", "let's" → "let us"), hyphens as spaces. Phrase patterns are written
 *   against it, once, in their long form.
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */
import { ends } from "./Punctuation.js"

export interface Token {
  /** The word as the provider gave it, punctuation attached. */
  readonly raw: string
  /** Lower case, without leading/trailing punctuation; keeps a leading currency sign and a trailing %. */
  readonly word: string
}

/** Curly quotes and apostrophes as straight ones, so "don’t" matches "don't". */
const straight = (s: string) => s.replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d]/g, "\"")

export const toToken = (raw: string): Token => ({
  raw,
  word: straight(raw)
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}$€£]+/u, "")
    .replace(/[^\p{L}\p{N}%]+$/u, "")
})

/** Words before "aisle" that keep it a noun ("the aisle", "checkout aisle"); else a recogniser's homophone of "I'll". */
const NOUN_BEFORE = new Set(["the", "a", "an", "this", "that", "each", "every", "same", "next", "other", "one", "which", "whichever", "checkout", "centre", "center", "side", "main", "wrong", "right", "our", "your", "their", "my", "his", "her"])

/** Modal verbs, alone or contracted, after which "of" can only be a misheard "have" ("could of", "I'll of it ready"). */
const MODALS = new Set(["can", "could", "would", "should", "might", "must", "i'll", "we'll", "you'll", "they'll", "he'll", "she'll", "i'd", "we'd", "you'd", "they'd"])
/** A weekday or a day of the month in digits after "buy" or "bye": a deadline ("buy Friday" is "by Friday"; "buy then", "bye then" stay). */
const DEADLINE_AFTER = /^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d+(?:st|nd|rd|th))$/
/** What follows "to" and never "two" or "too": a person spoken to or of, or an article ("back too you", "speak two the officer"). */
const TO_BEFORE = new Set(["you", "him", "her", "them", "us", "me", "the", "your", "our", "my", "their", "his"])
/** Words before "two" that make it the number ("the two you sent", "those two the board chose"). */
const COUNTED_AFTER = new Set(["the", "those", "these", "all", "both", "other", "last", "first", "next", "of", "just", "only"])

/** "you've", "we've"…: heard for the bare pronoun where "have" cannot stand ("shall we've say", "send you've the invite"). */
const PRONOUN_HAVE: Readonly<Record<string, string>> = { "you've": "you", "we've": "we", "i've": "i", "they've": "they" }
/** Auxiliaries a subject's "have" never follows without a past participle ("could i've get those…"). */
const AUX_BEFORE = new Set(["shall", "will", "can", "could", "would", "should", "might", "may", "must"])
/** Where only an object can stand: after a preposition ("before" and "after" also open clauses: "after you've signed") or a verb that takes a person ("to you've both", "ring you've in August"). */
const OBJECT_BEFORE = new Set([
  "to", "with", "for", "from", "at", "by", "about", "than", "send", "sends", "give", "gives", "tell", "show", "call", "ring",
  "email", "get", "bring", "let", "ask", "see", "meet", "thank", "help", "pay", "offer", "book", "invite", "text", "phone", "remind", "owe", "cost", "save"
])
/** Past participles a "have" contraction may take after an auxiliary ("could you've seen it"). */
const participle = (word: string) => /(?:ed|en|wn)$/.test(word) || PARTICIPLES.has(word)
const PARTICIPLES = new Set(["got", "been", "done", "had", "seen", "made", "sent", "gone", "heard", "said", "told", "put", "read", "set", "brought", "bought", "thought", "met", "paid", "left", "lost", "kept", "found", "built", "won", "run", "come", "already", "just", "never", "not"])
/** Singular times that "these" cannot count ("these afternoon" is "this afternoon"). */
const THIS_TIME = /^(?:morning|afternoon|evening|week|weekend|month|year|quarter|term|season|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$/
/** After "bye" or "buy", what makes it "by": a deadline ("bye tomorrow", "bye end of day", "buy the end of the week"). */
const BY_END = new Set(["tomorrow", "tonight"])
const endOf = (tokens: ReadonlyArray<Token>, i: number) => tokens[i]?.word === "end" && tokens[i + 1]?.word === "of"

/** The word as a homophone repair reads it, the provider's punctuation kept. */
const as = (token: Token, word: string): Token => ({ raw: `${word}${token.raw.match(/[^\p{L}\p{N}%']+$/u)?.[0] ?? ""}`, word })

/**
 * A provider word heard as its homophone where the words around it say otherwise: "aisle send the
 * invite" is "I'll send the invite" (speech-to-text hears the contraction as the noun, which keeps
 * its article: "the aisle", and a name its capital: "Aisle Guide"); "of" after a modal is "have"
 * ("I can of it with you"); "buy" or "bye" before a day is "by"; "two" or "too" before a person or
 * an article is "to". The word as the provider gave it stays in the transcript and quotes.
 */
const repaired = (tokens: ReadonlyArray<Token>, i: number): Token => {
  const token = tokens[i]!
  const before = tokens[i - 1]
  const after = tokens[i + 1]?.word ?? ""
  if (token.word === "of" && MODALS.has(before?.word ?? "") && !endsClause(before!.raw) && !endsSentence(before!.raw)) return as(token, "have")
  if ((token.word === "buy" || token.word === "bye") && (DEADLINE_AFTER.test(after) || BY_END.has(after) || endOf(tokens, after === "the" ? i + 2 : i + 1))) return as(token, "by")
  const bare = PRONOUN_HAVE[token.word]
  if (bare !== undefined && !participle(after) && (AUX_BEFORE.has(before?.word ?? "") || (token.word === "you've" && OBJECT_BEFORE.has(before?.word ?? "")))) return as(token, bare)
  if (token.word === "these" && THIS_TIME.test(after)) return as(token, "this")
  // "than" opening a clause is "then": "and than we go live"
  if (token.word === "than" && (before === undefined || endsSentence(before.raw) || ["and", "so", "but", "okay", "ok", "right"].includes(before.word))) return as(token, "then")
  // a word heard as two: "to day", "to morrow"; the first word carries it, the second is left empty
  if (token.word === "to" && (after === "morrow" || (after === "day" && !/^(?:\d|one|two|three|four|five|six|seven|eight|nine|ten)/.test(tokens[i + 2]?.word ?? "") && before?.word !== "day"))) {
    return { raw: `${token.raw.match(/^[^\p{L}\p{N}]*/u)?.[0] ?? ""}${after === "day" ? "today" : "tomorrow"}${tokens[i + 1]!.raw.match(/[^\p{L}\p{N}%']+$/u)?.[0] ?? ""}`, word: after === "day" ? "today" : "tomorrow" }
  }
  if ((token.word === "morrow" || token.word === "day") && before?.word === "to" && repaired(tokens, i - 1).word !== "to") return { raw: "", word: "" }
  if ((token.word === "two" || token.word === "too") && TO_BEFORE.has(after) && !COUNTED_AFTER.has(before?.word ?? "") && !endsClause(token.raw) && !endsSentence(token.raw)) {
    return as(token, "to")
  }
  if ((token.word !== "aisle" && token.word !== "isle") || NOUN_BEFORE.has(before?.word ?? "")) return token
  // "… still high, Aisle Guide do a listing", "Aisle Guide do…": capitalised inside a sentence or before a capital, a name
  const capital = (t: Token | undefined) => t !== undefined && /^\p{Lu}/u.test(t.raw) && t.word !== "i" && !t.word.startsWith("i'")
  if (capital(token) && ((before !== undefined && !/[.?!]["')]*$/.test(before.raw)) || capital(tokens[i + 1]))) return token
  return { raw: token.raw.replace(/(?:aisle|isle)/i, "I'll"), word: "i'll" }
}

/** Tokens read in their context (`repaired`), one for one. */
export const inContext = (tokens: ReadonlyArray<Token>): Array<Token> => tokens.map((_, i) => repaired(tokens, i))

/** Tokens of a written sentence (tests and ad-hoc use; the analysis makes one token per provider word). */
export const tokenize = (text: string): Array<Token> => {
  return inContext(text.split(/\s+/).filter((t) => t.length > 0).map(toToken))
}

/** Contractions written out, so each pattern is written once, in its long form. */
const CONTRACTIONS: Readonly<Record<string, string>> = {
  "can't": "cannot",
  "won't": "will not",
  "shan't": "shall not",
  "let's": "let us",
  "it's": "it is",
  "that's": "that is",
  "what's": "what is",
  "there's": "there is",
  "here's": "here is",
  "he's": "he is",
  "she's": "she is",
  "who's": "who is",
  "how's": "how is",
  "where's": "where is"
}

const expand = (word: string): string =>
  CONTRACTIONS[word] ??
  word
    .replace(/n't$/, " not")
    .replace(/'ll$/, " will")
    .replace(/'re$/, " are")
    .replace(/'m$/, " am")
    .replace(/'ve$/, " have")
    .replace(/'d$/, " would")

/** After a noun's "'s", words that make it "has": "the budget's been cut", "the data's left the UK". */
const HAS_AFTER = new Set(["been", "got", "gotten", "gone", "had", "left", "taken", "come", "grown", "doubled", "halved"])
/** After a noun's "'s", words that make it "is": "nobody's using it", "the number's right"; else it stays a possessive. */
const IS_AFTER = new Set([
  "not", "going", "just", "still", "already", "always", "never", "too", "very", "really", "quite", "pretty", "a", "an", "the", "on", "in",
  "at", "up", "out", "off", "over", "done", "fine", "right", "wrong", "tight", "gone", "frozen", "cut", "capped", "fixed", "set", "locked", "due", "about"
])

/** "nobody's" → "nobody is", "budget's been" → "budget has been"; a possessive ("the board's decision") is kept. */
const expandS = (word: string, next: string | undefined): string => {
  if (!word.endsWith("'s") || CONTRACTIONS[word] !== undefined || next === undefined) return expand(word)
  const stem = word.slice(0, -2)
  if (HAS_AFTER.has(next)) return `${stem} has`
  if (IS_AFTER.has(next) || (next.endsWith("ing") && next.length > 4)) return `${stem} is`
  return word
}

/** The plain text phrase patterns are matched against: bare words, contractions expanded, hyphens as spaces. */
export const plain = (tokens: ReadonlyArray<Token> | string): string => {
  const list = typeof tokens === "string" ? tokenize(tokens) : tokens
  return list
    .map((t, i) => expandS(t.word, list[i + 1]?.word).replace(/(\p{L})-(?=\p{L})/gu, "$1 "))
    .filter((w) => w.length > 0)
    .join(" ")
}

// ---------------------------------------------------------------------------------------------
// Sentence ends

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set(["mr", "mrs", "ms", "dr", "vs", "etc", "e.g", "i.e", "a.m", "p.m", "approx", "inc", "st"])

/** Whether a provider word ends a sentence (".", "?", "!" or "…", not after an abbreviation). */
export const endsSentence = (raw: string): boolean => {
  if (!ends(raw, /[.?!…]$/)) return false
  const bare = straight(raw).toLowerCase().replace(/^[^\p{L}\p{N}]+/u, "").replace(/[.?!…"')\]]+$/u, "")
  return !(ends(raw, /\.$/) && ABBREVIATIONS.has(bare))
}

/** Whether a provider word ends a clause inside a sentence (a comma or a semicolon). */
export const endsClause = (raw: string): boolean => ends(raw, /[,;:]$/)

/** Words that open a new clause after a comma ("…by Thursday, and let us schedule…"). */
export const CLAUSE_OPENERS: ReadonlySet<string> = new Set(["and", "but", "then", "so", "or"])
