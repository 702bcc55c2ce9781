/**
 * The attached words read as speech: transcript segments (runs of one speaker's words), sentences
 * and runs (consecutive sentences of one side), and the moments they make (see `Content.ts`,
 * "Attachment" and "Sentences").
 */
import type { Attached } from "./Attach.js"
import { findNumbers, type NumberMention } from "./lexicon/Numbers.js"
import { isQuestion } from "./lexicon/Questions.js"
import { CLAUSE_OPENERS, endsClause, endsSentence, plain, type Token, tokenize } from "./lexicon/Tokens.js"
import { clip, type Moment } from "./Moment.js"
import { SENTENCE_END_MODEL } from "../models/SentenceEndModel.js"
import { probabilityOf } from "../models/TurnModel.js"

/** A pause longer than this starts a new transcript segment. */
const SEGMENT_PAUSE_S = 2
/** A segment this long is split at its next sentence end. */
const SEGMENT_MAX_S = 30
/** Without end punctuation, a pause this long ends a sentence. */
const UNPUNCTUATED_SENTENCE_PAUSE_S = 0.8

/** Runs of one speaker's words; split at a pause over 2 s, and at a sentence end once 30 s long. */
export const segmentsOf = (words: ReadonlyArray<Attached>): Array<Array<Attached>> => {
  const out: Array<Array<Attached>> = []
  let current: Array<Attached> = []
  for (const w of words) {
    const last = current[current.length - 1]
    const split =
      last !== undefined &&
      (w.speaker !== last.speaker ||
        w.start - last.end > SEGMENT_PAUSE_S ||
        (last.end - current[0]!.start >= SEGMENT_MAX_S && endsSentence(last.text)))
    if (split) {
      out.push(current)
      current = []
    }
    current.push(w)
  }
  if (current.length > 0) out.push(current)
  return out
}

export interface Sentence extends Moment {
  readonly index: number
  /** Consecutive sentences of one side share a run. */
  readonly run: number
  readonly words: ReadonlyArray<Attached>
  readonly tokens: ReadonlyArray<Token>
  readonly plain: string
  readonly text: string
  readonly question: boolean
  readonly numbers: ReadonlyArray<NumberMention>
  /**
   * Whether the transcript marks clauses with commas. Speech-to-text without punctuation, or with
   * an automatic punctuator that gives only sentence ends, does not: where a comma would cut a
   * clause, a word that opens one must (`opensClause`).
   */
  readonly commas: boolean
}

export const textOf = (words: ReadonlyArray<Attached>) => words.map((w) => w.text).join(" ")

export const latestEnd = (words: ReadonlyArray<Attached>) => words.reduce((end, w) => Math.max(end, w.end), -Infinity)

export const momentOf = (words: ReadonlyArray<Attached>, text = textOf(words)): Moment => ({
  speaker: words[0]!.speaker,
  side: words[0]!.side,
  start: words[0]!.start,
  end: latestEnd(words),
  quote: clip(text)
})

/** Words that take a new clause after them ("I think we…", "if you…"): a subject after them does not start a sentence. */
const BINDERS: ReadonlySet<string> = new Set([
  "that", "if", "because", "cause", "when", "whenever", "and", "but", "or", "so", "think", "know", "guess", "hope", "mean", "said", "say",
  "says", "sure", "unless", "until", "before", "after", "where", "what", "how", "which", "who", "whether", "than", "as", "like", "then",
  "once", "while", "since", "though", "although", "suppose", "reckon", "believe", "feel", "felt", "worry", "worried", "afraid", "glad",
  "maybe", "perhaps", "why", "till", "wish", "bet", "means", "thought"
])
/** A subject and its verb that open a clause: "I'll", "we can", "you could", "they don't"… */
const SUBJECT_VERB = /^(i'll|i'm|i've|i'd|we'll|we're|we've|we'd|you'll|you're|you've|you'd|they'll|they're|they've|let's|that's|it's|there's|he'll|she'll|it'll|that'll|he's|she's|he'd|she'd|lemme|gimme)$/
const SUBJECTS_ALONE: ReadonlySet<string> = new Set(["i", "we", "you", "they", "he", "she"])
const VERBS_AFTER: ReadonlySet<string> = new Set([
  "will", "can", "could", "would", "should", "shall", "need", "have", "had", "am", "are", "do", "don't", "can't", "won't", "didn't",
  "just", "also", "really", "still", "already", "never", "always", "want", "send", "get", "got", "go", "went", "use", "pay", "sign"
])
/** A question's first words: an auxiliary before a subject ("can you", "shall we", "is it"). */
const AUXILIARIES: ReadonlySet<string> = new Set(["can", "could", "would", "will", "shall", "should", "do", "does", "did", "is", "are", "was", "have", "has"])
const QUESTION_SUBJECTS: ReadonlySet<string> = new Set(["you", "we", "i", "it", "they", "that", "this", "there"])
/** Question words that open a question with the next word ("how about", "what if", "when do"). */
const WH: ReadonlySet<string> = new Set(["how", "what", "when", "where", "why"])
const WH_AFTER: ReadonlySet<string> = new Set(["about", "if"])
const WH_CONTRACTED = /^(?:how|what|when|where|who)'s$/
/** A condition put before its clause: "if I send it by Monday…", "once we've got the export…". */
const CONDITIONS: ReadonlySet<string> = new Set(["if", "once", "unless"])
/** Words that answer or turn the talk and so open a sentence when a subject follows ("okay we'll…", "no that won't…"). */
const MARKERS: ReadonlySet<string> = new Set(["okay", "ok", "alright", "right", "well", "look", "yes", "yeah", "no", "sure", "great", "thanks", "honestly", "anyway", "perfect", "fine"])

/**
 * Whether the words from `at` open a clause of their own: a subject with its verb ("I'll", "we
 * can"), an auxiliary before a subject ("can you", "shall we"), a question word that asks ("how
 * about", "what if", "when's", "when would"), a condition with its subject ("if I send…"), or a marker or a joining word before any of them
 * ("okay we'll", "no that's", "and I'll", "then let's"), and the word before does not take a clause after it ("I think we…", "if
 * you…"), is not a subject ("I'll have that…") and does not ask with it ("can I have…"). What a comma or a full stop would say where speech-to-text gave none.
 */
export const opensClause = (words: ReadonlyArray<string>, at: number): boolean => {
  const before = at > 0 ? words[at - 1]! : ""
  // "I'll have that…", "we can do…": what follows a subject is its verb, not a new clause
  if (at === 0 || BINDERS.has(before) || SUBJECT_VERB.test(before) || SUBJECTS_ALONE.has(before) || (AUXILIARIES.has(before) && !words[at]!.includes("'"))) return false
  const word = (k: number) => words[at + k] ?? ""
  const clause = (k: number) =>
    SUBJECT_VERB.test(word(k)) || (SUBJECTS_ALONE.has(word(k)) && VERBS_AFTER.has(word(k + 1))) ||
    (AUXILIARIES.has(word(k)) && QUESTION_SUBJECTS.has(word(k + 1))) ||
    WH_CONTRACTED.test(word(k)) || (WH.has(word(k)) && (AUXILIARIES.has(word(k + 1)) || WH_AFTER.has(word(k + 1)))) ||
    (CONDITIONS.has(word(k)) && (SUBJECTS_ALONE.has(word(k + 1)) || SUBJECT_VERB.test(word(k + 1))))
  return clause(0) || ((MARKERS.has(word(0)) || CLAUSE_OPENERS.has(word(0))) && clause(1))
}

/** A word as the sentence-end model reads it: numbers in digits ("35", "2:30", "10th") as one shape. */
const gapWord = (w: string | undefined): string => (w === undefined ? "^" : /\d/.test(w) ? "<num>" : w)
/** How long the sentence so far is, in the sentence-end model's buckets of words. */
const SINCE_BUCKETS = [1, 2, 3, 4, 6, 9, 13] as const

/**
 * The features of the gap before `words[at]` for the sentence-end model (`SentenceEndModel.ts`):
 * the two words before it and the two after (`a:` `aa:` `b:` `bb:`), the pairs on each side and
 * across it (`a2:` `b2:` `x:`), how many words the sentence has so far (`n:`, bucketed), and whether
 * `opensClause` reads a clause opening there (`o:clause`).
 */
export const gapFeatures = (words: ReadonlyArray<string>, at: number, since: number): Set<string> => {
  const [aa, a, b, bb] = [words[at - 2], words[at - 1], words[at], words[at + 1]].map(gapWord)
  const n = SINCE_BUCKETS.filter((k) => since >= k).length
  const out = new Set([`a:${a}`, `aa:${aa}`, `b:${b}`, `bb:${bb}`, `a2:${aa}_${a}`, `b2:${b}_${bb}`, `x:${a}_${b}`, `n:${n}`])
  if (opensClause(words, at)) out.add("o:clause")
  return out
}

/** Whether the sentence-end model ends a sentence before `words[at]`, the sentence so far `since` words long. */
const endsBefore = (words: ReadonlyArray<string>, at: number, since: number): boolean =>
  probabilityOf(gapFeatures(words, at, since), SENTENCE_END_MODEL) > SENTENCE_END_MODEL.threshold

/**
 * Sentences of each segment: ended by a full stop, a question or an exclamation mark; where
 * speech-to-text gave no punctuation, also by a pause of 0.8 s, or where the sentence-end model
 * (`SentenceEndModel.ts`) reads a sentence end.
 */
export const sentencesOf = (segments: ReadonlyArray<ReadonlyArray<Attached>>, punctuated: boolean, commas = punctuated): Array<Sentence> => {
  const groups: Array<ReadonlyArray<Attached>> = []
  for (const segment of segments) {
    const words = segment.map((w) => w.token.word)
    let current: Array<Attached> = []
    for (const [i, w] of segment.entries()) {
      const last = current[current.length - 1]
      if (last !== undefined && !punctuated && (w.start - last.end >= UNPUNCTUATED_SENTENCE_PAUSE_S || endsBefore(words, i, current.length))) {
        groups.push(current)
        current = []
      }
      current.push(w)
      if (endsSentence(w.text)) {
        groups.push(current)
        current = []
      }
    }
    if (current.length > 0) groups.push(current)
  }
  const out: Array<Sentence> = []
  let run = -1
  groups.forEach((words, index) => {
    if (index === 0 || words[0]!.side !== groups[index - 1]![0]!.side) run++
    out.push(sentenceOf(words, index, run, commas))
  })
  return out
}

const sentenceOf = (words: ReadonlyArray<Attached>, index: number, run: number, commas: boolean): Sentence => {
  const tokens = words.map((w) => w.token)
  const text = textOf(words)
  return {
    ...momentOf(words, text),
    index,
    run,
    words,
    tokens,
    plain: plain(tokens),
    text,
    question: isQuestion(tokens),
    numbers: findNumbers(tokens),
    commas
  }
}

/** Who or what a new clause is about: after "and" or "but" without a comma these start one ("…is steep and we are…"). */
const SUBJECTS: ReadonlySet<string> = new Set([
  "i", "i'm", "i'd", "i've", "i'll", "we", "we're", "we'd", "we've", "we'll", "you", "you're", "they", "they're", "it", "it's",
  "there", "there's", "that's", "honestly", "frankly"
])
/** After a comma, a new clause may also start with what it is about ("…, the timing is worse"). */
const CLAUSE_STARTS: ReadonlySet<string> = new Set([...SUBJECTS, "that", "this", "the", "my", "our", "their", "what", "if", "also", "plus"])
/** Openers that join two statements ("plus", "also", "besides" as well as `CLAUSE_OPENERS`). */
const JOINERS: ReadonlySet<string> = new Set([...CLAUSE_OPENERS, "plus", "also", "besides", "although", "though"])
/** Neither side of a cut is shorter than this many words: "yes, and" is not two clauses. */
const MIN_CLAUSE_WORDS = 3

/**
 * The clauses of a sentence, where one sentence may say two things ("The price is steep, and
 * honestly the timing is worse."): cut after a comma, semicolon, colon or dash before a joining
 * word or a new subject, and, where the provider gave no punctuation, before "and", "but" or "plus"
 * followed by a new subject. Each side keeps at least three words; one clause is the sentence.
 * A clause keeps its sentence's index and run.
 */
export const clausesOf = (s: Sentence): ReadonlyArray<Sentence> => {
  const cuts: Array<number> = []
  let from = 0
  for (let i = 1; i < s.words.length; i++) {
    const prev = s.words[i - 1]!.text
    const word = s.tokens[i]!.word
    const next = s.tokens[i + 1]?.word
    const punctuated = (endsClause(prev) || /[-–—]$/.test(prev)) && (JOINERS.has(word) || CLAUSE_STARTS.has(word))
    const bare = !endsClause(prev) && (word === "and" || word === "but" || word === "plus") && next !== undefined && SUBJECTS.has(next)
    if ((punctuated || bare) && i - from >= MIN_CLAUSE_WORDS && s.words.length - i >= MIN_CLAUSE_WORDS) {
      cuts.push(i)
      from = i
    }
  }
  if (cuts.length === 0) return [s]
  return [0, ...cuts].map((at, k) => sentenceOf(s.words.slice(at, cuts[k] ?? s.words.length), s.index, s.run, s.commas))
}

/**
 * The sentences of a written text (a transcript segment's, a script turn's): cut after ".", "?"
 * and "!"; a stretch without end punctuation (speech-to-text without it) is cut as `sentencesOf`
 * cuts words, where the sentence-end model reads an end.
 */
export const sentencesOfText = (text: string): Array<string> =>
  text.split(/(?<=[.?!]["')]*)\s+/).filter((x) => x.trim().length > 0).flatMap((piece) => {
    const raws = piece.trim().split(/\s+/)
    if (/[.?!]["')]*$/.test(piece.trim())) return [piece]
    const words = tokenize(piece).map((t) => t.word)
    const out: Array<string> = []
    let from = 0
    for (let i = 1; i < raws.length; i++) {
      if (endsBefore(words, i, i - from)) {
        out.push(raws.slice(from, i).join(" "))
        from = i
      }
    }
    out.push(raws.slice(from).join(" "))
    return out
  })

/** Runs: consecutive sentences of one side. */
export const runsOf = (sentences: ReadonlyArray<Sentence>): Array<ReadonlyArray<Sentence>> => {
  const out: Array<Array<Sentence>> = []
  for (const s of sentences) (out[s.run] ??= []).push(s)
  return out
}

export const runMoment = (run: ReadonlyArray<Sentence>): Moment => momentOf(run.flatMap((s) => s.words))

export const momentOfSentence = (s: Sentence): Moment => ({ speaker: s.speaker, side: s.side, start: s.start, end: s.end, quote: s.quote })

/** A run's sentences grouped by consecutive speaker. */
export const bySpeaker = (run: ReadonlyArray<Sentence>): Array<ReadonlyArray<Sentence>> => {
  const out: Array<Array<Sentence>> = []
  for (const s of run) {
    const last = out[out.length - 1]
    if (last !== undefined && last[0]!.speaker === s.speaker) last.push(s)
    else out.push([s])
  }
  return out
}
