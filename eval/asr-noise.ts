/**
 * What a speech-to-text provider returns for a call, made from the call's ground truth (issue 35,
 * item 3): a pure, seeded transform from the truth turns (and the words `truthWords` spreads over
 * them) to the provider's words, with the faults real recognisers have. The same truth, options
 * and seed always give the same output. `npm run eval -- --asr-noise` measures the content analysis
 * on it (`run.ts`, `eval/README.md` "Transcripts as speech-to-text gives them").
 *
 * The model, in the order it is applied (each part can be switched on alone):
 *
 * 1. **Digits** (`digits`): number words as a formatter writes them (Deepgram `numerals` /
 *    `smart_format`, AssemblyAI `format_text`). A run of cardinal words becomes one token of digits
 *    when it has two words or more ("thirty five" → "35", "two thousand" → "2000", "one hundred and
 *    twenty" → "120", "a hundred" → "100"), when its value is 10 or more ("twelve" → "12"), or when a
 *    unit follows ("three weeks" → "3 weeks"); "percent" after it joins it ("35%"); otherwise one to
 *    nine stay words ("one of them", "two options"). Years: "twenty twenty five" → "2025". Times:
 *    "at two thirty" → "at 2:30"; "half past two" and "quarter to ten" are kept as said. Ordinals
 *    that name a day become "10th": after "the" from the fourth on ("the tenth" → "the 10th"), any
 *    after a month or a weekday ("Tuesday the third"), before "of" + a month, and compounds
 *    ("twenty first" → "21st"); "the first thing" stays.
 * 2. **Word errors** (`wordErrorRate`, e.g. 0.1 or 0.2): a budget of round(rate × words) edits, the
 *    word error rate's own unit, spent on events at places drawn with the seed, each event with an
 *    unchanged word on either side so that no alignment can pair two events into one cheaper edit
 *    (so the measured WER is the asked rate, less nothing):
 *    - substitutions (half of the budget, cost 1): homophones and near-homophones (`CONFUSIONS`:
 *      there/their, to/two/too, for/four, know/no, write/right, can/can't, a/the, and/an/in … about a
 *      hundred groups), else a lost plural "s" or "-ed" ("weeks" → "week", "asked" → "ask");
 *    - dropped short words (a quarter, cost 1): a, an, the, of, to, and, I, it, is, that, in, on …;
 *    - split words (cost 2: a substitution and an insertion): cannot → can not, into → in to,
 *      anyone → any one, maybe → may be …;
 *    - merged words (cost 2: a substitution and a deletion): a lot → alot, kind of → kinda,
 *      going to → gonna, want to → wanna, got to → gotta …;
 *    - inserted fillers (cost 1): "uh", "um"; they also take whatever budget the other kinds could
 *      not spend (splits and merges are rare in the text).
 *    A word keeps its time; a split word's halves share its span, a merged word spans both, a filler
 *    takes the first third of the word it precedes. Changed words get a lower confidence.
 * 3. **Punctuation** (`punctuation`): "keep" as written; "none" (Deepgram `punctuate=false`,
 *    AssemblyAI `punctuate: false`): no punctuation at all; "auto": removed and put back as an
 *    automatic punctuator does, imperfectly: commas, colons and dashes are dropped; a sentence end
 *    of the truth gets "." again with p 0.8 (missed 0.2), and a turn's last word with p 0.95; a
 *    question keeps "?" with p 0.75 (else "."); a comma's pause becomes a spurious "." with p 0.15,
 *    and any other word boundary with p 0.02. Apostrophes, hyphens inside a word, "%" and the ":"
 *    of a time are spelling, not punctuation, and stay; dots inside a word go ("a.m" → "am").
 * 4. **Case** (`lowercase`): every word lower-cased, "I" too.
 * 5. **Label drift** (`labelDrift`, the share of speaker changes affected, e.g. 0.25): at that share
 *    of the edges between two turns of different speakers, one word (p 0.7) or two are moved across
 *    the edge to the neighbouring turn: the last words of the earlier turn to the start of the
 *    later one, or the first words of the later turn to the end of the earlier one (even odds). A
 *    word keeps its time, and a turn always keeps one word of its own. The turns' edges follow the
 *    words moved; the other edges keep the truth's times.
 *
 * Independent random streams drive the word errors, the punctuation and the drift, so switching one
 * part off does not redraw the others. Word times come from `truthWords` (each truth turn's words
 * spread over its time, no pauses between sentences), so without punctuation a pause seldom ends
 * a sentence: "none" is the hard case for an analysis that reads sentences.
 */
import type { ContentInput, Word } from "@callsight/analysis"
import type { Truth } from "../test/utils/Fixtures.js"
import { contentInputOf } from "./calls.js"
import { truthWords } from "../test/utils/TruthWords.js"

// ---------------------------------------------------------------------------------------------
// Options

export type PunctuationMode = "keep" | "none" | "auto"

export interface AsrNoiseOptions {
  readonly seed: number
  /** The share of the words to get wrong, in word-error-rate edits (0 … 0.5). */
  readonly wordErrorRate: number
  readonly punctuation: PunctuationMode
  readonly lowercase: boolean
  readonly digits: boolean
  /** The share of speaker changes at which one or two words move to the other side (0 … 1). */
  readonly labelDrift: number
}

/** No noise: the words as the truth writes them. */
export const CLEAN: Omit<AsrNoiseOptions, "seed"> = { wordErrorRate: 0, punctuation: "keep", lowercase: false, digits: false, labelDrift: 0 }

/** The share of speaker changes whose edge words drift in the full model. */
export const LABEL_DRIFT = 0.25

/** Every part of the model on: lower case, digits, label drift, the given punctuation and word error rate. */
export const fullNoise = (wordErrorRate: number, punctuation: "none" | "auto"): Omit<AsrNoiseOptions, "seed"> => ({
  wordErrorRate,
  punctuation,
  lowercase: true,
  digits: true,
  labelDrift: LABEL_DRIFT
})

// ---------------------------------------------------------------------------------------------
// Output

export interface AsrWord {
  readonly text: string
  readonly start: number
  readonly end: number
  /** The provider's speaker label: the truth speaker of the turn the word ended up in. */
  readonly speaker: string
  readonly confidence: number
}

/** One truth turn as the provider returns it (index for index with the truth's turns). */
export interface AsrTurn {
  readonly speaker: string
  readonly start: number
  readonly end: number
  readonly words: ReadonlyArray<AsrWord>
}

export interface AsrStats {
  /** Words of the truth (tokens with a letter or a digit). */
  readonly words_in: number
  /** Words after the number formatting: what the word error rate is counted against. */
  readonly reference_words: number
  readonly words_out: number
  readonly substitutions: number
  readonly deletions: number
  readonly splits: number
  readonly merges: number
  readonly fillers: number
  /** Edits the events make (S + D + I), the word error rate's numerator. */
  readonly edits: number
  readonly numbers_formatted: number
  readonly drifted_edges: number
  readonly moved_words: number
}

export interface AsrTranscript {
  readonly turns: ReadonlyArray<AsrTurn>
  readonly stats: AsrStats
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** FNV-1a of a string, a 32-bit seed. */
export const hashSeed = (seed: number, key: string): number => {
  let h = 0x811c9dc5 ^ (seed >>> 0)
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

/** mulberry32: uniform in [0, 1). */
const rngOf = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
type Rng = ReturnType<typeof rngOf>

const shuffled = <T>(xs: ReadonlyArray<T>, rng: Rng): Array<T> => {
  const out = xs.slice()
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

const pick = <T>(xs: ReadonlyArray<T>, rng: Rng): T => xs[Math.floor(rng() * xs.length)]!

// ---------------------------------------------------------------------------------------------
// The confusion model's lists

/** Homophones and near-homophones: a word of a group is heard as another of its group. */
export const CONFUSIONS: ReadonlyArray<ReadonlyArray<string>> = [
  ["there", "their", "they're"], ["to", "two", "too"], ["for", "four"], ["know", "no"], ["write", "right"], ["by", "buy", "bye"],
  ["week", "weak"], ["hear", "here"], ["would", "wood"], ["its", "it's"], ["we'll", "will"], ["i'll", "aisle"], ["our", "are", "hour"],
  ["than", "then"], ["accept", "except"], ["new", "knew"], ["one", "won"], ["see", "sea"], ["wait", "weight"], ["way", "weigh"],
  ["where", "wear", "were"], ["whether", "weather"], ["which", "witch"], ["whole", "hole"], ["your", "you're"], ["whose", "who's"],
  ["affect", "effect"], ["sell", "cell"], ["sent", "cent", "scent"], ["meet", "meat"], ["plain", "plane"], ["piece", "peace"],
  ["principal", "principle"], ["some", "sum"], ["through", "threw"], ["board", "bored"], ["break", "brake"], ["fair", "fare"],
  ["sale", "sail"], ["higher", "hire"], ["allowed", "aloud"], ["read", "red"], ["road", "rode"], ["made", "maid"],
  ["mail", "male"], ["pay", "pray"], ["price", "prize"], ["quote", "coat"], ["contract", "contact"], ["sign", "sine"], ["seen", "scene"],
  ["site", "sight", "cite"], ["due", "do", "dew"], ["led", "lead"], ["past", "passed"], ["loan", "lone"], ["rights", "rites"],
  ["role", "roll"], ["steal", "steel"], ["tied", "tide"], ["waste", "waist"], ["lessen", "lesson"],
  ["council", "counsel"], ["patience", "patients"], ["cash", "catch"],
  // near-homophones: function words and contractions a recogniser confuses
  ["can", "can't"], ["want", "won't"], ["were", "we're"], ["a", "the"], ["and", "an", "in"], ["this", "these"], ["at", "that"],
  ["on", "in"], ["of", "have"], ["it", "that"], ["then", "them"], ["we've", "we"], ["they've", "they"], ["you've", "you"], ["i've", "i"],
  ["i'd", "i"], ["we'd", "we"], ["he's", "his"], ["is", "as"], ["could", "good"], ["did", "do"], ["does", "was"], ["what", "want"],
  ["month", "much"], ["quarter", "order"], ["cost", "cross"], ["budget", "budge"], ["fifteen", "fifty"], ["thirteen", "thirty"],
  ["fourteen", "forty"], ["sixteen", "sixty"], ["eighteen", "eighty"], ["nineteen", "ninety"]
]

const CONFUSABLE = (() => {
  const m = new Map<string, Set<string>>()
  for (const group of CONFUSIONS) for (const w of group) for (const other of group) if (other !== w) (m.get(w) ?? m.set(w, new Set()).get(w)!).add(other)
  return new Map([...m].map(([w, s]) => [w, [...s].sort()]))
})()

/** Short words a recogniser loses. */
export const DROPPABLE: ReadonlySet<string> = new Set([
  "a", "an", "the", "of", "to", "and", "i", "it", "is", "that", "in", "on", "at", "we", "so", "but", "just", "do", "be", "for", "or", "as", "are", "was", "you", "if"
])

/** Words heard as two. */
export const SPLITS: Readonly<Record<string, readonly [string, string]>> = {
  cannot: ["can", "not"], into: ["in", "to"], anyone: ["any", "one"], anything: ["any", "thing"], anybody: ["any", "body"],
  everyone: ["every", "one"], everything: ["every", "thing"], everybody: ["every", "body"], maybe: ["may", "be"], onto: ["on", "to"],
  already: ["all", "ready"], sometimes: ["some", "times"], someone: ["some", "one"], something: ["some", "thing"],
  somebody: ["some", "body"], without: ["with", "out"], anyway: ["any", "way"], somewhere: ["some", "where"], nobody: ["no", "body"],
  upfront: ["up", "front"], overall: ["over", "all"], another: ["an", "other"], inside: ["in", "side"], within: ["with", "in"],
  alright: ["all", "right"], outside: ["out", "side"], however: ["how", "ever"], whatever: ["what", "ever"], today: ["to", "day"],
  tomorrow: ["to", "morrow"], otherwise: ["other", "wise"], workflow: ["work", "flow"], onboarding: ["on", "boarding"],
  headcount: ["head", "count"], timeline: ["time", "line"], software: ["soft", "ware"], feedback: ["feed", "back"]
}

/** Two words heard as one. */
export const MERGES: Readonly<Record<string, string>> = {
  "a lot": "alot", "kind of": "kinda", "going to": "gonna", "want to": "wanna", "got to": "gotta", "sort of": "sorta", "out of": "outta",
  "let me": "lemme", "give me": "gimme", "all right": "alright", "have to": "hafta", "a bit": "abit", "every one": "everyone",
  "any one": "anyone", "may be": "maybe", "in to": "into", "some one": "someone", "on to": "onto", "a while": "awhile", "got you": "gotcha"
}

export const FILLERS = ["uh", "um"] as const

// ---------------------------------------------------------------------------------------------
// Tokens

interface Tok {
  /** Leading punctuation ("(", "\""). */
  pre: string
  /** The word, internal apostrophes, hyphens, "%" and ":" of a time kept; may be empty (a lone dash). */
  core: string
  /** Trailing punctuation (",", ".", "?" …). */
  post: string
  start: number
  end: number
  confidence: number
  /** The truth turn it was said in. */
  turn: number
  /** Made by the number formatting (never a word error's place). */
  number: boolean
  /** Touched by a word error. */
  error: boolean
}

const SPLIT_TOKEN = /^([^\p{L}\p{N}$€£]*)(.*?)([^\p{L}\p{N}%]*)$/u

const tokensOf = (truth: Truth): Array<Array<Tok>> => {
  const words = truthWords(truth)
  let k = 0
  return truth.turns.map((turn, t) =>
    turn.text.split(/\s+/).filter((x) => x.length > 0).map((raw) => {
      const w = words[k++]!
      const [, pre = "", core = "", post = ""] = SPLIT_TOKEN.exec(raw) ?? []
      return { pre, core, post, start: w.start, end: w.end, confidence: w.confidence, turn: t, number: false, error: false }
    }))
}

const lower = (s: string) => s.toLowerCase().replace(/\u2019/g, "'")
/** The replacement written in the source's case: "There" → "Their", "I'll" → "Aisle". */
const likeCase = (source: string, word: string) =>
  source.length > 0 && source[0] !== source[0]!.toLowerCase() ? word[0]!.toUpperCase() + word.slice(1) : word
const round3 = (x: number) => Math.round(x * 1000) / 1000
const isWordTok = (t: Tok) => /[\p{L}\p{N}]/u.test(t.core)

// ---------------------------------------------------------------------------------------------
// 1. Digits

const SMALL_NUMBERS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19
}
const TENS_NUMBERS: Readonly<Record<string, number>> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 }
const SCALES: Readonly<Record<string, number>> = { thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 }
const ORDINAL_NUMBERS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12,
  thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20,
  thirtieth: 30
}
const MONTHS = new Set(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"])
const WEEKDAYS = new Set(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
/** Words after a number that make a formatter write it in digits even below ten. */
const UNIT_WORDS = new Set([
  "percent", "per", "dollars", "dollar", "euros", "euro", "pounds", "pound", "k", "grand", "bucks", "cents", "days", "day", "weeks", "week",
  "months", "month", "years", "year", "quarters", "hours", "hour", "minutes", "minute", "seconds", "people", "users", "user", "seats",
  "seat", "licences", "licenses", "licence", "license", "sites", "site", "staff", "reps", "deals", "customers", "accounts", "hires",
  "leads", "times", "x", "o'clock", "am", "pm", "percentage", "points", "trucks", "vans", "stores", "locations", "clinics", "branches",
  "offices", "hundred", "thousand", "million", "a.m", "p.m"
])
const TIME_LEAD = new Set(["at", "by", "around", "from", "until", "till", "before", "after", "about"])
const ordinalSuffix = (n: number) => (n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th")

/** A token's number words ("twenty-five" is two), or null when any part is not one. */
const numberParts = (t: Tok): Array<string> | null => {
  const parts = lower(t.core).split("-")
  return parts.every((p) => p in SMALL_NUMBERS || p in TENS_NUMBERS || p in SCALES || p === "hundred" || p in ORDINAL_NUMBERS || p === "and" || p === "a")
    ? parts
    : null
}

interface NumberRun {
  /** Tokens [from, to) make the number. */
  readonly to: number
  readonly value: number
  readonly words: number
  readonly ordinal: boolean
}

/**
 * The longest well-formed number starting at token `from` (within one turn, never past a token with
 * trailing punctuation): cardinal words with "and" inside ("one hundred and twenty"), "a hundred",
 * a tens-and-unit ordinal ("twenty first").
 */
const readNumber = (tokens: ReadonlyArray<Tok>, from: number): NumberRun | null => {
  let total = 0
  let current = 0
  let last: "none" | "unit" | "teen" | "tens" | "hundred" | "scale" = "none"
  let words = 0
  let best: NumberRun | null = null
  let ordinal = false
  for (let i = from; i < tokens.length && !ordinal; i++) {
    const t = tokens[i]!
    if (i > from && (tokens[i - 1]!.post !== "" || t.pre !== "")) break
    const parts = numberParts(t)
    if (parts === null) break
    let ok = true
    for (let p = 0; p < parts.length && ok; p++) {
      const w = parts[p]!
      const next = parts[p + 1] ?? (i + 1 < tokens.length ? lower(tokens[i + 1]!.core).split("-")[0] : undefined)
      if (w === "a") {
        if (last !== "none" || (next !== "hundred" && next !== "thousand")) ok = false
        else current = 1, last = "unit"
      } else if (w === "and") {
        if (!(last === "hundred" || last === "scale") || next === undefined || !(next in SMALL_NUMBERS || next in TENS_NUMBERS)) ok = false
      } else if (w in SMALL_NUMBERS) {
        const v = SMALL_NUMBERS[w]!
        if (v < 10 ? last === "unit" || last === "teen" : last === "unit" || last === "teen" || last === "tens") ok = false
        else current += v, last = v < 10 ? "unit" : "teen", words++
      } else if (w in TENS_NUMBERS) {
        if (last === "unit" || last === "teen" || last === "tens") ok = false
        else current += TENS_NUMBERS[w]!, last = "tens", words++
      } else if (w === "hundred") {
        if (!(last === "unit" || last === "teen") || current >= 100) ok = false
        else current *= 100, last = "hundred", words++
      } else if (w in SCALES) {
        if (last === "none" || last === "scale") ok = false
        else total += current * SCALES[w]!, current = 0, last = "scale", words++
      } else if (w in ORDINAL_NUMBERS) {
        const v = ORDINAL_NUMBERS[w]!
        if (last === "none" || (last === "tens" && v < 10)) current += v, ordinal = true, words++
        else ok = false
      } else ok = false
    }
    if (!ok) break
    // a run is never read to an "and" or an "a" of its own
    const tail = parts[parts.length - 1]
    if (words > 0 && tail !== "and" && tail !== "a") best = { to: i + 1, value: total + current, words, ordinal }
  }
  return best
}

/** "twenty twenty five", "nineteen ninety nine" → the year, when the words are free of punctuation. */
const readYear = (tokens: ReadonlyArray<Tok>, from: number): NumberRun | null => {
  const w = (i: number) => (i < tokens.length ? lower(tokens[i]!.core) : "")
  const free = (i: number) => tokens[i]!.post === "" && (i + 1 >= tokens.length || tokens[i + 1]!.pre === "")
  const first = w(from)
  if ((first !== "twenty" && first !== "nineteen") || from + 1 >= tokens.length || !free(from)) return null
  const century = first === "twenty" ? 2000 : 1900
  // "twenty twenty-five" and "twenty twenty five"
  const [second = "", hyphened] = w(from + 1).split("-")
  if (second in TENS_NUMBERS) {
    const unitWord = hyphened ?? (free(from + 1) ? w(from + 2) : "")
    const unit = SMALL_NUMBERS[unitWord]
    const hasUnit = unit !== undefined && unit > 0 && unit < 10
    const to = from + (hasUnit && hyphened === undefined ? 3 : 2)
    if (hyphened !== undefined && !hasUnit) return null
    return { to, value: century + TENS_NUMBERS[second]! + (hasUnit ? unit : 0), words: hasUnit ? 3 : 2, ordinal: false }
  }
  if (hyphened === undefined && first === "twenty" && second in SMALL_NUMBERS && SMALL_NUMBERS[second]! >= 10) {
    return { to: from + 2, value: century + SMALL_NUMBERS[second]!, words: 2, ordinal: false }
  }
  return null
}

/** "at two thirty" → "2:30" (an hour of one to twelve and its minutes, after at/by/around …). */
const readTime = (tokens: ReadonlyArray<Tok>, from: number): { to: number; text: string } | null => {
  if (from === 0 || !TIME_LEAD.has(lower(tokens[from - 1]!.core)) || tokens[from - 1]!.post !== "") return null
  const hour = SMALL_NUMBERS[lower(tokens[from]!.core)]
  if (hour === undefined || hour < 1 || hour > 12 || tokens[from]!.post !== "" || from + 1 >= tokens.length) return null
  const m1 = lower(tokens[from + 1]!.core)
  let minutes: number | undefined
  let to = from + 2
  if (m1 === "oh" && tokens[from + 1]!.post === "" && from + 2 < tokens.length) {
    const m2 = SMALL_NUMBERS[lower(tokens[from + 2]!.core)]
    if (m2 !== undefined && m2 > 0 && m2 < 10) minutes = m2, to = from + 3
  } else if (m1 in TENS_NUMBERS && TENS_NUMBERS[m1]! <= 50) {
    minutes = TENS_NUMBERS[m1]!
    const m2 = tokens[from + 1]!.post === "" && from + 2 < tokens.length ? SMALL_NUMBERS[lower(tokens[from + 2]!.core)] : undefined
    if (m2 !== undefined && m2 > 0 && m2 < 10) minutes += m2, to = from + 3
  } else if (m1 === "fifteen" || m1 === "ten") minutes = SMALL_NUMBERS[m1]
  if (minutes === undefined) return null
  return { to, text: `${hour}:${String(minutes).padStart(2, "0")}` }
}

/** Whether an ordinal at tokens [from, to) names a day of the month. */
const dateLike = (tokens: ReadonlyArray<Tok>, from: number, to: number, value: number, words: number): boolean => {
  if (words > 1) return true
  const w = (i: number) => (i >= 0 && i < tokens.length ? lower(tokens[i]!.core) : "")
  const prev = w(from - 1)
  if (MONTHS.has(prev) || WEEKDAYS.has(prev)) return true
  if (prev === "the" && (MONTHS.has(w(from - 2)) || WEEKDAYS.has(w(from - 2)))) return true
  const ofMonth = w(to) === "of" && MONTHS.has(w(to + 1))
  if (ofMonth) return true
  return prev === "the" && value >= 4
}

const join = (run: ReadonlyArray<Tok>, core: string): Tok => ({
  pre: run[0]!.pre,
  core,
  post: run[run.length - 1]!.post,
  start: run[0]!.start,
  end: run[run.length - 1]!.end,
  confidence: Math.min(...run.map((t) => t.confidence)),
  turn: run[0]!.turn,
  number: true,
  error: false
})

/** Number words as digits, one turn's tokens (see the header, 1). */
export const formatNumbersOf = (tokens: ReadonlyArray<Tok>): { tokens: Array<Tok>; formatted: number } => {
  const out: Array<Tok> = []
  let formatted = 0
  const w = (i: number) => (i >= 0 && i < tokens.length ? lower(tokens[i]!.core) : "")
  for (let i = 0; i < tokens.length;) {
    // "half past two", "quarter to ten": kept as said
    const keptAsSaid = (w(i - 1) === "past" || w(i - 1) === "to") && (w(i - 2) === "half" || w(i - 2) === "quarter") && tokens[i - 1]!.post === ""
    const time = keptAsSaid ? null : readTime(tokens, i)
    if (time !== null) {
      out.push(join(tokens.slice(i, time.to), time.text))
      formatted++
      i = time.to
      continue
    }
    const run = keptAsSaid ? null : readYear(tokens, i) ?? readNumber(tokens, i)
    if (run === null) {
      out.push({ ...tokens[i]! })
      i++
      continue
    }
    const after = w(run.to)
    const lastFree = tokens[run.to - 1]!.post === ""
    const digits = run.ordinal
      ? dateLike(tokens, i, run.to, run.value, run.words)
      : run.words > 1 || run.value >= 10 || (lastFree && UNIT_WORDS.has(after))
    if (!digits) {
      for (let k = i; k < run.to; k++) out.push({ ...tokens[k]! })
      i = run.to
      continue
    }
    formatted++
    const text = run.ordinal ? `${run.value}${ordinalSuffix(run.value)}` : String(run.value)
    if (!run.ordinal && lastFree && after === "percent" && run.to < tokens.length && tokens[run.to]!.pre === "") {
      out.push(join(tokens.slice(i, run.to + 1), `${text}%`))
      i = run.to + 1
    } else {
      out.push(join(tokens.slice(i, run.to), text))
      i = run.to
    }
  }
  return { tokens: out, formatted }
}

// ---------------------------------------------------------------------------------------------
// 2. Word errors

type EventKind = "merge" | "split" | "substitution" | "deletion" | "filler"
interface WordEvent {
  readonly kind: EventKind
  /** The token positions it changes (a filler: the token it goes before). */
  readonly at: ReadonlyArray<number>
  readonly cost: number
}

/** Shares of the budget, in the order they are spent; fillers take the rest. */
const SHARES: ReadonlyArray<readonly [EventKind, number]> = [["merge", 0.075], ["split", 0.075], ["substitution", 0.5], ["deletion", 0.25]]

/** A substitute for the word, or null: a homophone of its group, else a plural or "-ed" lost. */
const substituteOf = (word: string, rng: Rng): string | null => {
  const group = CONFUSABLE.get(word)
  if (group !== undefined) return pick(group, rng)
  if (word.length >= 5 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("'s") && !word.endsWith("us")) return word.slice(0, -1)
  if (word.length >= 6 && word.endsWith("ed") && !word.endsWith("eed")) return word.slice(0, -2)
  return null
}

const canSubstitute = (word: string) =>
  CONFUSABLE.has(word) ||
  (word.length >= 5 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("'s") && !word.endsWith("us")) ||
  (word.length >= 6 && word.endsWith("ed") && !word.endsWith("eed"))

/** The events of a call's tokens (flat, in order) for a budget of edits (see the header, 2). */
const chooseEvents = (tokens: ReadonlyArray<Tok>, budget: number, rng: Rng): Array<WordEvent> => {
  const taken = new Uint8Array(tokens.length)
  const editable = (i: number) => !taken[i] && !tokens[i]!.number && isWordTok(tokens[i]!)
  // an event's tokens must be untouched, and so must the words on either side of it
  const room = (at: ReadonlyArray<number>) => {
    const first = at[0]!
    const last = at[at.length - 1]!
    return at.every(editable) && (first === 0 || !taken[first - 1]) && (last + 1 >= tokens.length || !taken[last + 1])
  }
  const candidates: Record<EventKind, Array<ReadonlyArray<number>>> = { merge: [], split: [], substitution: [], deletion: [], filler: [] }
  tokens.forEach((t, i) => {
    if (t.number || !isWordTok(t)) return
    const w = lower(t.core)
    const next = tokens[i + 1]
    if (next !== undefined && next.turn === t.turn && t.post === "" && next.pre === "" && !next.number && `${w} ${lower(next.core)}` in MERGES) {
      candidates.merge.push([i, i + 1])
    }
    if (w in SPLITS) candidates.split.push([i])
    if (canSubstitute(w)) candidates.substitution.push([i])
    if (DROPPABLE.has(w)) candidates.deletion.push([i])
    candidates.filler.push([i])
  })
  const cost: Record<EventKind, number> = { merge: 2, split: 2, substitution: 1, deletion: 1, filler: 1 }
  const events: Array<WordEvent> = []
  let spent = 0
  const spend = (kind: EventKind, target: number) => {
    let used = 0
    for (const at of shuffled(candidates[kind], rng)) {
      if (used >= target || spent >= budget) break
      if (!room(at)) continue
      // a split or a merge never overshoots the budget
      if (spent + cost[kind] > budget) continue
      for (const i of at) taken[i] = 1
      events.push({ kind, at, cost: cost[kind] })
      used += cost[kind]
      spent += cost[kind]
    }
  }
  for (const [kind, share] of SHARES) spend(kind, Math.round(share * budget))
  spend("filler", budget - spent)
  return events.sort((a, b) => a.at[0]! - b.at[0]!)
}

const errorConfidence = (rng: Rng) => round3(0.45 + rng() * 0.3)

/** The call's tokens with the word errors applied (flat, in order). */
const applyWordErrors = (tokens: ReadonlyArray<Tok>, rate: number, rng: Rng) => {
  const references = tokens.filter(isWordTok).length
  const budget = Math.round(rate * references)
  const events = budget > 0 ? chooseEvents(tokens, budget, rng) : []
  const byStart = new Map(events.map((e) => [e.at[0]!, e]))
  const out: Array<Tok> = []
  const count: Record<EventKind, number> = { merge: 0, split: 0, substitution: 0, deletion: 0, filler: 0 }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    const e = byStart.get(i)
    if (e === undefined) {
      out.push({ ...t })
      continue
    }
    count[e.kind]++
    const w = lower(t.core)
    const span = t.end - t.start
    switch (e.kind) {
      case "substitution":
        out.push({ ...t, core: likeCase(t.core, substituteOf(w, rng) ?? w), confidence: errorConfidence(rng), error: true })
        break
      case "deletion": {
        // its punctuation stays where the pause was: on the word before, in the same turn
        const prev = out[out.length - 1]
        if (prev !== undefined && prev.turn === t.turn && prev.post === "") prev.post = t.post
        break
      }
      case "split": {
        const [a, b] = SPLITS[w]!
        const cut = t.start + (span * a.length) / (a.length + b.length)
        out.push({ ...t, core: likeCase(t.core, a), post: "", end: round3(cut - span * 0.02), confidence: errorConfidence(rng), error: true })
        out.push({ ...t, pre: "", core: b, start: round3(cut), confidence: errorConfidence(rng), error: true })
        break
      }
      case "merge": {
        const next = tokens[i + 1]!
        out.push({ ...t, core: likeCase(t.core, MERGES[`${w} ${lower(next.core)}`]!), post: next.post, end: next.end, confidence: errorConfidence(rng), error: true })
        i++
        break
      }
      case "filler": {
        const cut = round3(t.start + span * 0.33)
        out.push({ ...t, pre: "", core: pick(FILLERS, rng), post: "", end: round3(t.start + span * 0.3), confidence: errorConfidence(rng), error: true })
        out.push({ ...t, start: cut })
        break
      }
    }
  }
  return { tokens: out, references, count, edits: events.reduce((n, e) => n + e.cost, 0) }
}

// ---------------------------------------------------------------------------------------------
// 3. Punctuation

const SENTENCE_END = /[.?!]/
const PAUSE = /[,;:\u2014\u2013-]/

/** Punctuation as an automatic punctuator puts it back (see the header, 3); `last` marks a turn's last word. */
const autoPunctuation = (t: Tok, last: boolean, rng: Rng): string => {
  const question = t.post.includes("?")
  const r = rng()
  const mark = () => (question && rng() < 0.75 ? "?" : ".")
  if (last) return r < 0.95 ? mark() : ""
  if (SENTENCE_END.test(t.post)) return r < 0.8 ? mark() : ""
  if (PAUSE.test(t.post)) return r < 0.15 ? "." : ""
  return r < 0.02 ? "." : ""
}

// ---------------------------------------------------------------------------------------------
// 5. Label drift

const driftTurns = (turns: ReadonlyArray<Array<Tok>>, speakers: ReadonlyArray<string>, share: number, rng: Rng) => {
  const n = turns.length
  const gaveStart = new Array<number>(n).fill(0)
  const gaveEnd = new Array<number>(n).fill(0)
  const gotStart: Array<Array<Tok>> = turns.map(() => [])
  const gotEnd: Array<Array<Tok>> = turns.map(() => [])
  let edges = 0
  let moved = 0
  for (let j = 0; j + 1 < n; j++) {
    if (speakers[j] === speakers[j + 1]) continue
    // draw for every speaker change, so the same edges drift whatever the words
    const r = rng()
    const k = rng() < 0.7 ? 1 : 2
    const forward = rng() < 0.5
    if (r >= share) continue
    const giver = forward ? j : j + 1
    const own = turns[giver]!.length - gaveStart[giver]! - gaveEnd[giver]!
    const count = Math.min(k, own - 1)
    if (count <= 0) continue
    edges++
    moved += count
    if (forward) {
      const words = turns[j]!.slice(turns[j]!.length - gaveEnd[j]! - count, turns[j]!.length - gaveEnd[j]!)
      gaveEnd[j]! += count
      gotStart[j + 1]!.unshift(...words)
    } else {
      const words = turns[j + 1]!.slice(gaveStart[j + 1]!, gaveStart[j + 1]! + count)
      gaveStart[j + 1]! += count
      gotEnd[j]!.push(...words)
    }
  }
  const words = turns.map((own, j) => [...gotStart[j]!, ...own.slice(gaveStart[j]!, own.length - gaveEnd[j]!), ...gotEnd[j]!])
  const changedStart = turns.map((_, j) => gaveStart[j]! > 0 || gotStart[j]!.length > 0)
  const changedEnd = turns.map((_, j) => gaveEnd[j]! > 0 || gotEnd[j]!.length > 0)
  return { words, changedStart, changedEnd, edges, moved }
}

// ---------------------------------------------------------------------------------------------
// The transform

const render = (t: Tok) => `${t.pre}${t.core}${t.post}`

/** The provider's answer for a call's truth under the noise `options` (see the header). */
export const asrNoise = (truth: Truth, options: AsrNoiseOptions): AsrTranscript => {
  const byTurn = tokensOf(truth)
  const wordsIn = byTurn.flat().filter(isWordTok).length
  // 1. digits
  let formatted = 0
  const numbered = byTurn.map((turn) => {
    if (!options.digits) return turn
    const r = formatNumbersOf(turn)
    formatted += r.formatted
    return r.tokens
  })
  // 2. word errors, over the whole call
  const errors = applyWordErrors(numbered.flat(), options.wordErrorRate, rngOf(hashSeed(options.seed, "word errors")))
  const turns: Array<Array<Tok>> = truth.turns.map(() => [])
  for (const t of errors.tokens) turns[t.turn]!.push(t)
  // 3. punctuation
  const punctRng = rngOf(hashSeed(options.seed, "punctuation"))
  const punctuated = turns.map((turn) => {
    if (options.punctuation === "keep") return turn
    const words = turn.filter(isWordTok)
    return words.map((t, i) => ({
      ...t,
      pre: "",
      // dots inside a word go too ("a.m" → "am")
      core: t.core.replace(/[.,;!?"]/g, ""),
      post: options.punctuation === "none" ? "" : autoPunctuation(t, i === words.length - 1, punctRng)
    }))
  })
  // 4. case
  const cased = options.lowercase ? punctuated.map((turn) => turn.map((t) => ({ ...t, core: t.core.toLowerCase() }))) : punctuated
  // 5. label drift
  const speakers = truth.turns.map((t) => t.speaker)
  const drift = options.labelDrift > 0
    ? driftTurns(cased, speakers, options.labelDrift, rngOf(hashSeed(options.seed, "label drift")))
    : { words: cased, changedStart: cased.map(() => false), changedEnd: cased.map(() => false), edges: 0, moved: 0 }
  const out: Array<AsrTurn> = truth.turns.map((turn, j) => {
    const words = drift.words[j]!.map((t) => ({ text: render(t), start: t.start, end: t.end, speaker: turn.speaker, confidence: t.confidence }))
    const first = words[0]
    const last = words[words.length - 1]
    return {
      speaker: turn.speaker,
      start: drift.changedStart[j] && first !== undefined ? first.start : turn.start,
      end: drift.changedEnd[j] && last !== undefined ? last.end : turn.end,
      words
    }
  })
  const c = errors.count
  return {
    turns: out,
    stats: {
      words_in: wordsIn,
      reference_words: errors.references,
      words_out: out.reduce((n, t) => n + t.words.length, 0),
      substitutions: c.substitution,
      deletions: c.deletion,
      splits: c.split,
      merges: c.merge,
      fillers: c.filler,
      edits: errors.edits,
      numbers_formatted: formatted,
      drifted_edges: drift.edges,
      moved_words: drift.moved
    }
  }
}

/** All the provider's words of a transcript, in order. */
export const wordsOf = (transcript: AsrTranscript): Array<AsrWord> => transcript.turns.flatMap((t) => t.words)

/**
 * The content analysis' input for the provider's answer: its words, with our speaker turns either
 * the provider's (`"provider"`: the turns' edges follow the drifted labels, as when our diarization
 * cuts where the provider's does) or the truth's (`"truth"`: only the provider's labels drift; the
 * analysis attaches words by time first). Speakers and roles as `contentInputOf` gives them.
 */
export const asrContentInput = (truth: Truth, transcript: AsrTranscript, ourTurns: "provider" | "truth" = "provider"): ContentInput => {
  const words: Array<Word> = wordsOf(transcript)
  if (ourTurns === "truth") return { ...contentInputOf(truth), words }
  const turns = transcript.turns.map((t, j) => ({ speaker: t.speaker, start: t.start, end: t.end, text: truth.turns[j]!.text }))
  return { ...contentInputOf({ ...truth, turns }), words }
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** A text's words for the word error rate: lower case, punctuation off the ends, fillers kept. */
export const werWords = (text: string): Array<string> =>
  text.split(/\s+/).map((w) => w.toLowerCase().replace(/^[^\p{L}\p{N}$€£]+|[^\p{L}\p{N}%]+$/gu, "")).filter((w) => w.length > 0)

/** Substitutions + deletions + insertions of the best alignment (Levenshtein over words), and the rate. */
export const wordErrorRate = (reference: ReadonlyArray<string>, hypothesis: ReadonlyArray<string>): { edits: number; words: number; rate: number } => {
  const m = hypothesis.length
  let prev = new Uint32Array(m + 1)
  let curr = new Uint32Array(m + 1)
  for (let j = 0; j <= m; j++) prev[j] = j
  for (let i = 1; i <= reference.length; i++) {
    curr[0] = i
    const r = reference[i - 1]
    for (let j = 1; j <= m; j++) {
      const sub = prev[j - 1]! + (r === hypothesis[j - 1] ? 0 : 1)
      curr[j] = Math.min(sub, prev[j]! + 1, curr[j - 1]! + 1)
    }
    ;[prev, curr] = [curr, prev]
  }
  const edits = prev[m]!
  return { edits, words: reference.length, rate: reference.length > 0 ? edits / reference.length : 0 }
}

// ---------------------------------------------------------------------------------------------
// The conditions `npm run eval -- --asr-noise` measures

export interface AsrCondition {
  readonly name: string
  /** What the words are, for the tables' heading. */
  readonly words: string
  /** Null: the clean words of the default run. */
  readonly noise: Omit<AsrNoiseOptions, "seed"> | null
  /** Whose turn edges our speaker turns follow (see `asrContentInput`). */
  readonly turns: "provider" | "truth"
}

const described = (n: Omit<AsrNoiseOptions, "seed">): string => {
  const parts: Array<string> = []
  if (n.punctuation !== "keep") parts.push(n.punctuation === "none" ? "no punctuation" : "automatic punctuation")
  if (n.lowercase) parts.push("lower case")
  if (n.digits) parts.push("numbers in digits")
  if (n.wordErrorRate > 0) parts.push(`${Math.round(n.wordErrorRate * 100)}% word errors`)
  if (n.labelDrift > 0) parts.push(`labels drifting at ${Math.round(n.labelDrift * 100)}% of speaker changes`)
  return parts.join(", ")
}

const condition = (name: string, noise: Omit<AsrNoiseOptions, "seed">, turns: "provider" | "truth" = "provider"): AsrCondition => ({
  name,
  words: `speech-to-text: ${described(noise)}${noise.labelDrift > 0 ? (turns === "provider" ? ", our turns cut where the labels are" : ", our turns the truth's") : ""}`,
  noise,
  turns
})

/**
 * The clean words, then every part of the noise at 10% and 20% word errors without punctuation, and
 * at 10% with automatic punctuation: "none" is the hard case for sentences and is measured at both
 * rates; "auto" at 10% says how much a punctuator that is often wrong gives back, and at 20% it
 * would add a fifth pass (the eval's time) to say little the other three do not.
 */
export const ASR_CONDITIONS: ReadonlyArray<AsrCondition> = [
  { name: "clean", words: "words from the ground-truth turns", noise: null, turns: "provider" },
  condition("none, 10% WER", fullNoise(0.1, "none")),
  condition("none, 20% WER", fullNoise(0.2, "none")),
  condition("auto, 10% WER", fullNoise(0.1, "auto"))
]

/** Each part of the noise alone (`--components`), word errors at 10%. */
export const ASR_COMPONENTS: ReadonlyArray<AsrCondition> = [
  condition("punctuation none", { ...CLEAN, punctuation: "none" }),
  condition("punctuation auto", { ...CLEAN, punctuation: "auto" }),
  condition("lower case", { ...CLEAN, lowercase: true }),
  condition("digits", { ...CLEAN, digits: true }),
  condition("word errors 10%", { ...CLEAN, wordErrorRate: 0.1 }),
  condition("label drift", { ...CLEAN, labelDrift: LABEL_DRIFT }),
  condition("label drift, labels only", { ...CLEAN, labelDrift: LABEL_DRIFT }, "truth")
]

/** The seed of `--asr-noise` when `--seed` does not give one (issue 35). */
export const ASR_SEED = 35

/** The noise of one call: the call's own seed drawn from the run's. */
export const noisyCall = (truth: Truth, id: string, seed: number, c: AsrCondition): { input: ContentInput; stats: AsrStats | null } => {
  if (c.noise === null) return { input: contentInputOf(truth), stats: null }
  const transcript = asrNoise(truth, { seed: hashSeed(seed, id), ...c.noise })
  return { input: asrContentInput(truth, transcript, c.turns), stats: transcript.stats }
}

/** Stats summed over calls. */
export const sumStats = (all: ReadonlyArray<AsrStats>): AsrStats => {
  const keys = ["words_in", "reference_words", "words_out", "substitutions", "deletions", "splits", "merges", "fillers", "edits", "numbers_formatted", "drifted_edges", "moved_words"] as const
  return Object.fromEntries(keys.map((k) => [k, all.reduce((n, s) => n + s[k], 0)])) as unknown as AsrStats
}
