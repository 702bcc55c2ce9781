/**
 * The content analysis of a call (ANALYSIS.md steps 4–7): the provider's words attached to our
 * speaker turns, and what the rules of `Lexicon.ts` find in them — questions, fillers, pains and
 * numbers, objections and the rep's responses, value claims, next steps and the qualification
 * checklist. Pure and deterministic: the same input (words in any order) gives the same output.
 *
 * Decisions, in one place:
 * - **Attachment.** Every word goes to the turn it overlaps most (ties: the earlier turn), else to
 *   the nearest turn. The transcript's segments are runs of one speaker's words, split at a pause
 *   over 2 s, and at a sentence end once a segment is 30 s long.
 * - **Sentences** end at ".", "?", "!" and never cross a segment; when the provider gave no end
 *   punctuation at all, a pause of 0.8 s ends one too.
 * - **Sides.** The rep is the speaker whose role is `rep`; everyone else is the buyer side (as in
 *   the scorecard).
 * - **Objections** (one per buyer run, i.e. consecutive buyer sentences: its first sentence that
 *   matches; a run raising two kinds gets one response, so it counts once). The response is the
 *   rep's next run: `question_back` when it asks a question within its first 30 s and 80 words;
 *   otherwise `long_pitch` when it runs past 30 s or 80 words; otherwise `pause` when the rep
 *   waited 1 s or more; otherwise `other`. `response_pause_s` is always the wait (end of the buyer's
 *   last turn before the rep answered → start of the rep's turn), so a pause and a question back
 *   are both visible; null when the rep never answered.
 * - **Next steps** are dated actions: a clause with an action cue ("book", "send", "schedule"…)
 *   and a day or a time, taken from the clause or completed by what follows up to the end of the
 *   other side's reply ("…next Tuesday…" + "Tuesday at two works" → "Tuesday 14:00"). `due` is a
 *   normalised phrase, never a calendar date (the recording date is unknown): "Tuesday 14:00",
 *   "Thursday", "in 2 weeks", "the 4th". `owner` is the speaker label of the side that will act:
 *   "I will…" → the speaker; "can you…" / "send me…" → the other side; "let us…" / "could we…" →
 *   the speaker who proposed it (the one who sends the invite); null when the wording says nothing.
 *   Actions without a day or time are not recorded.
 * - **Qualification.** Each element of the framework is scored on the sentences that match its cue:
 *   0 = none, 1 = a match (vague), 2 = a match with a specific (a number, a title or named party, a
 *   date, a named competitor). SPIN elements are the rep's questions, specific when the buyer's
 *   answer is. The evidence is the earliest sentence with the best score; its `dimension` is
 *   "qualification" and its `effect` the element's score (not scorecard points).
 */
import {
  BACK_REFERENCE,
  CLAUSE_OPENERS,
  commitmentOf,
  DATES,
  endsClause,
  endsSentence,
  findFillers,
  findNumbers,
  findWhen,
  formatDue,
  FRAMEWORK_ELEMENTS,
  isAgreement,
  isOpenQuestion,
  isQuestion,
  METRIC_CUES,
  METRIC_UNITS,
  MONEY_UNITS,
  NAMED_COMPETITORS,
  isAgendaToday,
  NEXT_STEP_CUES,
  type NumberMention,
  objectionKind,
  PAIN_CUES,
  PARTIES,
  plain,
  QUALIFICATION_CUES,
  type QualificationElementName,
  type Specific,
  TITLES,
  type Token,
  toToken,
  VALUE_CUES
} from "./Lexicon.js"
import type { ContentInput, Framework } from "./Transcript.js"
import type {
  EvidenceItem,
  Metrics,
  NextStepItem,
  ObjectionItem,
  QualificationResult,
  SpeakerSummary,
  TranscriptSegmentItem,
  Turn
} from "./Types.js"

// ---------------------------------------------------------------------------------------------
// Types

export type Side = "rep" | "buyer"

/** Words someone said, and when: what evidence points at. */
export interface Moment {
  readonly speaker: string
  readonly side: Side
  readonly start: number
  readonly end: number
  /** The words as said, clipped to about 200 characters. */
  readonly quote: string
}

export interface Quantity {
  readonly value: number
  readonly unit: string | null
}

export interface QuestionFinding extends Moment {
  readonly open: boolean
}

/** A buyer sentence with a pain cue, or with a business number; the numbers it holds. */
export interface BuyerFinding extends Moment {
  readonly numbers: ReadonlyArray<Quantity>
}

export interface ValueClaim extends Moment {
  /** The buyer's words the claim is tied to, or null for a generic claim. */
  readonly linked_to: Moment | null
  readonly link: "number" | "back_reference" | "pain" | null
  /** The claim has a number of its own (a payback time, a saving). */
  readonly quantified: boolean
}

export interface ObjectionFinding {
  readonly objection: ObjectionItem
  readonly said: Moment
  /** The rep's first sentence after the objection, or null when the rep never answered. */
  readonly reply: Moment | null
  /** The rep's question back, when the response is `question_back`. */
  readonly question: Moment | null
  /** The rep's whole run, when the response is `long_pitch`. */
  readonly pitch: Moment | null
}

export interface NextStepFinding {
  readonly step: NextStepItem
  readonly said: Moment
  /** The other side agreeing ("Tuesday at two works"), or null. */
  readonly confirmation: Moment | null
}

/** What scoring reads: the moments behind the public fields. */
export interface ContentFindings {
  /** The rep's questions, in time order. */
  readonly questions: ReadonlyArray<QuestionFinding>
  /** Buyer sentences with a pain cue (objections excluded). */
  readonly pains: ReadonlyArray<BuyerFinding>
  /** Buyer sentences with a business number (a unit such as %, $, days, or 1,000 and more). */
  readonly numbers: ReadonlyArray<BuyerFinding>
  readonly value_claims: ReadonlyArray<ValueClaim>
  readonly objections: ReadonlyArray<ObjectionFinding>
  readonly next_steps: ReadonlyArray<NextStepFinding>
  /** The rep's longest run of sentences (absence evidence points here). */
  readonly longest_rep_run: Moment | null
  /** The rep's last sentence (where a missing next step shows). */
  readonly last_rep_sentence: Moment | null
  readonly rep_words: number
  readonly buyer_words: number
  readonly rep_fillers: number
}

export type ContentMetrics = Pick<Metrics, "question_count" | "question_rate" | "words_per_minute" | "filler_rate">

export interface ContentAnalysis {
  readonly transcript: ReadonlyArray<TranscriptSegmentItem>
  /** Share of word time on which the provider's speaker labels agree with ours; null without provider labels. */
  readonly diarization_agreement: number | null
  readonly metrics: ContentMetrics
  readonly qualification: QualificationResult
  readonly objections: ReadonlyArray<ObjectionItem>
  readonly next_steps: ReadonlyArray<NextStepItem>
  readonly findings: ContentFindings
}

// ---------------------------------------------------------------------------------------------
// Thresholds (seconds, words)

/** A pause longer than this starts a new transcript segment. */
const SEGMENT_PAUSE_S = 2
/** A segment this long is split at its next sentence end. */
const SEGMENT_MAX_S = 30
/** Without end punctuation, a pause this long ends a sentence. */
const UNPUNCTUATED_SENTENCE_PAUSE_S = 0.8
/** The rep waited before answering an objection. */
export const OBJECTION_PAUSE_S = 1
/** A response longer than this (seconds or words) without a question is a long pitch. */
export const PITCH_S = 30
export const PITCH_WORDS = 80
const QUOTE_CHARS = 200

const round = (x: number, digits: number) => {
  const f = 10 ** digits
  const r = Math.round(x * f) / f
  return r === 0 ? 0 : r
}

/** Clip to about `max` characters at a word boundary. */
export const clip = (text: string, max = QUOTE_CHARS): string => {
  if (text.length <= max) return text
  const cut = text.lastIndexOf(" ", max - 1)
  return `${text.slice(0, cut > max / 2 ? cut : max - 1).replace(/[,;:]$/, "")}…`
}

// ---------------------------------------------------------------------------------------------
// Words attached to our turns

interface Attached {
  readonly text: string
  readonly start: number
  readonly end: number
  readonly provider: string | null
  readonly turn: number
  readonly speaker: string
  readonly side: Side
  readonly token: Token
}

const sideOf = (turn: Turn, speakers: ReadonlyArray<SpeakerSummary>): Side => {
  const role = turn.role !== "unknown" ? turn.role : speakers.find((s) => s.speaker === turn.speaker)?.role
  return role === "rep" ? "rep" : "buyer"
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Turns sorted by start, with `reach[i]`, the latest end among turns 0..i, and `reachAt[i]`, the turn that reaches it. */
interface TurnIndex {
  readonly turns: ReadonlyArray<Turn>
  readonly reach: ReadonlyArray<number>
  readonly reachAt: ReadonlyArray<number>
}

const indexTurns = (speakerTurns: ReadonlyArray<Turn>): TurnIndex => {
  const turns = speakerTurns
    .filter((t) => Number.isFinite(t.start) && Number.isFinite(t.end) && t.end > t.start)
    .slice()
    .sort((a, b) => a.start - b.start || a.end - b.end || byText(a.speaker, b.speaker))
  const reach: Array<number> = []
  const reachAt: Array<number> = []
  turns.forEach((t, i) => {
    const prev = i > 0 ? reach[i - 1]! : -Infinity
    reach.push(Math.max(prev, t.end))
    reachAt.push(i > 0 && prev >= t.end ? reachAt[i - 1]! : i)
  })
  return { turns, reach, reachAt }
}

/**
 * The turn with the largest overlap with [start, end) (ties: the earlier turn), among the turns of
 * `speaker` when given, each turn widened by `collar` seconds on both sides; -1 when none overlaps.
 */
const largestOverlap = ({ turns, reach }: TurnIndex, start: number, end: number, speaker?: string, collar = 0): number => {
  // first turn whose (widened) reach passes the word's start: no earlier turn can overlap it
  let lo = 0
  let hi = turns.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (reach[mid]! + collar > start) hi = mid
    else lo = mid + 1
  }
  let best = -1
  let bestOverlap = 0
  for (let i = lo; i < turns.length && turns[i]!.start - collar < end; i++) {
    const turn = turns[i]!
    if (speaker !== undefined && turn.speaker !== speaker) continue
    const o = Math.min(end, turn.end + collar) - Math.max(start, turn.start - collar)
    if (o > bestOverlap) {
      best = i
      bestOverlap = o
    }
  }
  return best
}

/** How far our turn edges may be off (speech onsets are found late): the DER collar. */
const EDGE_COLLAR_S = 0.25

/** The index of the turn a word belongs to by time: the largest overlap, else the nearest turn. */
const attachTo = (index: TurnIndex, start: number, end: number): number => {
  const overlapping = largestOverlap(index, start, end)
  if (overlapping >= 0) return overlapping
  // nearest: the turn reaching furthest among those that start before the word, or the next one
  const { turns, reachAt } = index
  let lo = 0
  let hi = turns.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (turns[mid]!.start <= start) lo = mid + 1
    else hi = mid
  }
  const k = lo - 1
  const before = k >= 0 ? reachAt[k]! : -1
  const after = k + 1 < turns.length ? k + 1 : -1
  if (before < 0) return after
  if (after < 0) return before
  const dBefore = Math.max(0, start - turns[before]!.end)
  const dAfter = Math.max(0, turns[after]!.start - end)
  return dAfter < dBefore ? after : before
}

/**
 * Every word attached to one of our turns. By time first: the turn it overlaps most, else the
 * nearest. Where the provider labels speakers, its labels are mapped to ours (one to one, as in
 * `diarizationAgreement`, measured on the attachment by time) and a word that also overlaps a
 * turn of its mapped speaker, give or take the 0.25 s our turn edges may be off, goes to that
 * turn: where two people talk at once, or at a turn's late-found onset, time cannot tell who said
 * a word, the provider's label can. A word never moves to a turn further away.
 */
const attachWords = (input: ContentInput): { words: Array<Attached>; turns: ReadonlyArray<Turn>; agreement: number | null } => {
  const index = indexTurns(input.speaker_turns)
  const { turns } = index
  const words = input.words
    .filter((w) => Number.isFinite(w.start) && Number.isFinite(w.end) && w.text.trim().length > 0)
    .map((w) => ({ ...w, text: w.text.trim(), end: Math.max(w.start, w.end) }))
    .sort((a, b) => a.start - b.start || a.end - b.end || byText(a.text, b.text) || byText(a.speaker ?? "", b.speaker ?? ""))
  const sides = turns.map((t) => sideOf(t, input.speakers))
  const attach = (w: (typeof words)[number], turn: number): Attached => ({
    text: w.text,
    start: w.start,
    end: w.end,
    provider: w.speaker !== undefined && w.speaker !== "" ? w.speaker : null,
    turn,
    speaker: turn >= 0 ? turns[turn]!.speaker : "unknown",
    side: turn >= 0 ? sides[turn]! : "buyer",
    token: toToken(w.text)
  })
  const byTime = words.map((w) => attach(w, turns.length === 0 ? -1 : attachTo(index, w.start, w.end)))
  const labels = speakerMapping(byTime)
  if (labels === null) return { words: byTime, turns, agreement: null }
  const out = byTime.map((a, i) => {
    const mapped = a.provider === null ? undefined : labels.mapping.get(a.provider)
    if (mapped === undefined || mapped === a.speaker) return a
    const turn = largestOverlap(index, a.start, a.end, mapped, EDGE_COLLAR_S)
    return turn >= 0 ? attach(words[i]!, turn) : a
  })
  return { words: out, turns, agreement: labels.agreement }
}

// ---------------------------------------------------------------------------------------------
// Segments, sentences, runs, clauses

/** Runs of one speaker's words; split at a pause over 2 s, and at a sentence end once 30 s long. */
const segmentsOf = (words: ReadonlyArray<Attached>): Array<Array<Attached>> => {
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

interface Sentence extends Moment {
  readonly index: number
  /** Consecutive sentences of one side share a run. */
  readonly run: number
  readonly words: ReadonlyArray<Attached>
  readonly tokens: ReadonlyArray<Token>
  readonly plain: string
  readonly text: string
  readonly question: boolean
  readonly numbers: ReadonlyArray<NumberMention>
}

interface Clause extends Moment {
  readonly sentence: number
  readonly run: number
  readonly tokens: ReadonlyArray<Token>
}

const textOf = (words: ReadonlyArray<Attached>) => words.map((w) => w.text).join(" ")

const latestEnd = (words: ReadonlyArray<Attached>) => words.reduce((end, w) => Math.max(end, w.end), -Infinity)

const momentOf = (words: ReadonlyArray<Attached>, text = textOf(words)): Moment => ({
  speaker: words[0]!.speaker,
  side: words[0]!.side,
  start: words[0]!.start,
  end: latestEnd(words),
  quote: clip(text)
})

const sentencesOf = (segments: ReadonlyArray<ReadonlyArray<Attached>>, punctuated: boolean): Array<Sentence> => {
  const groups: Array<ReadonlyArray<Attached>> = []
  for (const segment of segments) {
    let current: Array<Attached> = []
    for (const w of segment) {
      const last = current[current.length - 1]
      if (last !== undefined && !punctuated && w.start - last.end >= UNPUNCTUATED_SENTENCE_PAUSE_S) {
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
    const tokens = words.map((w) => w.token)
    const text = textOf(words)
    out.push({
      ...momentOf(words, text),
      index,
      run,
      words,
      tokens,
      plain: plain(tokens),
      text,
      question: isQuestion(tokens),
      numbers: findNumbers(tokens)
    })
  })
  return out
}

/** Clauses: a sentence cut after a comma or semicolon that is followed by "and", "but", "then", "so", "or". */
const clausesOf = (sentences: ReadonlyArray<Sentence>): Array<Clause> => {
  const out: Array<Clause> = []
  for (const s of sentences) {
    let from = 0
    const cut = (to: number) => {
      // the opener ("and let us schedule…") is left out of the clause's quote
      if (to - from > 1 && from > 0 && CLAUSE_OPENERS.has(s.tokens[from]!.word)) from++
      const words = s.words.slice(from, to)
      if (words.length === 0) return
      const quote = textOf(words).replace(/[,;:]$/, "")
      out.push({ ...momentOf(words, quote), sentence: s.index, run: s.run, tokens: s.tokens.slice(from, to) })
      from = to
    }
    for (let i = 1; i < s.words.length; i++) {
      const prev = s.words[i - 1]!.text
      if (/;$/.test(prev) || (endsClause(prev) && CLAUSE_OPENERS.has(s.tokens[i]!.word))) cut(i)
    }
    cut(s.words.length)
  }
  return out
}

/** Runs: consecutive sentences of one side. */
const runsOf = (sentences: ReadonlyArray<Sentence>): Array<ReadonlyArray<Sentence>> => {
  const out: Array<Array<Sentence>> = []
  for (const s of sentences) (out[s.run] ??= []).push(s)
  return out
}

const runMoment = (run: ReadonlyArray<Sentence>): Moment => momentOf(run.flatMap((s) => s.words))

const momentOfSentence = (s: Sentence): Moment => ({ speaker: s.speaker, side: s.side, start: s.start, end: s.end, quote: s.quote })

// ---------------------------------------------------------------------------------------------
// Diarization agreement

/** Words with a duration of 0 still count a little. */
const MIN_WORD_S = 0.01

/**
 * Where the provider labelled speakers: each provider label mapped to one of ours (one to one, the
 * mapping that maximises the word time they share), and the share of word time on which the two
 * agree. Null when no word has a provider label.
 */
const speakerMapping = (
  words: ReadonlyArray<{ readonly provider: string | null; readonly speaker: string; readonly start: number; readonly end: number }>
): { readonly mapping: ReadonlyMap<string, string>; readonly agreement: number } | null => {
  const labelled = words.filter((w) => w.provider !== null)
  if (labelled.length === 0) return null
  const providers = [...new Set(labelled.map((w) => w.provider!))].sort(byText)
  const ours = [...new Set(labelled.map((w) => w.speaker))].sort(byText)
  const time = providers.map(() => ours.map(() => 0))
  let total = 0
  for (const w of labelled) {
    const d = Math.max(MIN_WORD_S, w.end - w.start)
    time[providers.indexOf(w.provider!)]![ours.indexOf(w.speaker)]! += d
    total += d
  }
  const best = bestAssignment(time)
  const mapping = new Map<string, string>()
  best.columns.forEach((c, r) => c >= 0 && mapping.set(providers[r]!, ours[c]!))
  return { mapping, agreement: round(best.sum / total, 3) }
}

/** The share of word time on which the provider's speaker labels agree with ours; null without labels. */
export const diarizationAgreement = (
  words: ReadonlyArray<{ readonly provider: string | null; readonly speaker: string; readonly start: number; readonly end: number }>
): number | null => speakerMapping(words)?.agreement ?? null

/**
 * The largest sum of one entry per row, each column used at most once (rows may stay unmapped),
 * and the column of each row (-1: unmapped).
 */
const bestAssignment = (m: ReadonlyArray<ReadonlyArray<number>>): { sum: number; columns: Array<number> } => {
  const cols = m[0]?.length ?? 0
  if (cols > 16) {
    // more speakers than a bitmask can hold: greedy, largest shared time first
    const cells = m.flatMap((row, r) => row.map((v, c) => ({ v, r, c }))).sort((a, b) => b.v - a.v || a.r - b.r || a.c - b.c)
    const columns = m.map(() => -1)
    const used = new Set<number>()
    let sum = 0
    for (const x of cells) {
      if (columns[x.r]! >= 0 || used.has(x.c)) continue
      columns[x.r] = x.c
      used.add(x.c)
      sum += x.v
    }
    return { sum, columns }
  }
  // dynamic programming over the set of columns already taken, keeping each state's choices
  let dp = new Map<number, { sum: number; columns: Array<number> }>([[0, { sum: 0, columns: [] }]])
  for (const row of m) {
    const next = new Map<number, { sum: number; columns: Array<number> }>()
    const offer = (key: number, sum: number, columns: Array<number>) => {
      if (sum > (next.get(key)?.sum ?? -1)) next.set(key, { sum, columns })
    }
    for (const [mask, state] of dp) {
      offer(mask, state.sum, [...state.columns, -1])
      for (let c = 0; c < cols; c++) {
        if (mask & (1 << c)) continue
        offer(mask | (1 << c), state.sum + row[c]!, [...state.columns, c])
      }
    }
    dp = next
  }
  return [...dp.values()].reduce((a, b) => (b.sum > a.sum ? b : a))
}

// ---------------------------------------------------------------------------------------------
// Metrics

/** Length of the union of spans. */
const unionLength = (spans: ReadonlyArray<{ readonly start: number; readonly end: number }>): number => {
  let total = 0
  let reach = -Infinity
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.end <= reach) continue
    total += s.end - Math.max(s.start, reach)
    reach = s.end
  }
  return total
}

/** A word is counted when it has a letter or a digit (not a lone dash). */
const isWord = (w: Attached) => /[\p{L}\p{N}]/u.test(w.text)

const contentMetrics = (
  sentences: ReadonlyArray<Sentence>,
  turns: ReadonlyArray<Turn>,
  speakers: ReadonlyArray<SpeakerSummary>,
  duration: number
): { metrics: ContentMetrics; repWords: number; buyerWords: number; fillers: number } => {
  const words = sentences.flatMap((s) => s.words).filter(isWord)
  const repWords = words.filter((w) => w.side === "rep").length
  const buyerWords = words.length - repWords
  const repTime = unionLength(turns.filter((t) => sideOf(t, speakers) === "rep"))
  const buyerTime = unionLength(turns.filter((t) => sideOf(t, speakers) === "buyer"))
  const questions = sentences.filter((s) => s.side === "rep" && s.question).length
  const fillers = sentences.filter((s) => s.side === "rep").reduce((n, s) => n + findFillers(s.tokens).length, 0)
  const perMinute = (n: number, seconds: number) => (seconds > 0 ? round((n / seconds) * 60, 1) : null)
  return {
    metrics: {
      question_count: questions,
      question_rate: duration > 0 ? round(questions / (duration / 600), 1) : null,
      words_per_minute: { rep: perMinute(repWords, repTime), buyer: perMinute(buyerWords, buyerTime) },
      filler_rate: repWords > 0 ? round((fillers / repWords) * 100, 2) : null
    },
    repWords,
    buyerWords,
    fillers
  }
}

// ---------------------------------------------------------------------------------------------
// Findings

const quantities = (numbers: ReadonlyArray<NumberMention>): Array<Quantity> => numbers.map((n) => ({ value: n.value, unit: n.unit }))

/** A number that is a business figure: with a unit such as %, $, days or reps, or 1,000 and more. */
const isBusinessNumber = (n: NumberMention) => (n.unit !== null && METRIC_UNITS.has(n.unit)) || n.value >= 1000

const objectionSentences = (sentences: ReadonlyArray<Sentence>) =>
  new Set(sentences.filter((s) => s.side === "buyer" && objectionKind(s.plain) !== null).map((s) => s.index))

const findPains = (sentences: ReadonlyArray<Sentence>): Array<BuyerFinding> => {
  const objections = objectionSentences(sentences)
  return sentences
    .filter((s) => s.side === "buyer" && !objections.has(s.index) && PAIN_CUES.test(s.plain))
    .map((s) => ({ ...momentOfSentence(s), numbers: quantities(s.numbers) }))
}

const findBusinessNumbers = (sentences: ReadonlyArray<Sentence>): Array<BuyerFinding> =>
  sentences
    .filter((s) => s.side === "buyer" && (METRIC_CUES.test(s.plain) || PAIN_CUES.test(s.plain)) && s.numbers.some(isBusinessNumber))
    .map((s) => ({ ...momentOfSentence(s), numbers: quantities(s.numbers.filter(isBusinessNumber)) }))

/** Words of a run, counted as in the metrics. */
const wordCount = (sentences: ReadonlyArray<Sentence>) => sentences.reduce((n, s) => n + s.words.filter(isWord).length, 0)

const findObjections = (sentences: ReadonlyArray<Sentence>, turns: ReadonlyArray<Turn>): Array<ObjectionFinding> => {
  const runs = runsOf(sentences)
  const out: Array<ObjectionFinding> = []
  runs.forEach((run, r) => {
    if (run[0]!.side !== "buyer") return
    const found = run.map((s) => ({ s, kind: objectionKind(s.plain) })).find((x) => x.kind !== null)
    if (found === undefined || found.kind === null) return
    const { s: said, kind } = found
    const answer = runs[r + 1]
    let response: ObjectionItem["response"] = "other"
    let pause: number | null = null
    let reply: Moment | null = null
    let question: Moment | null = null
    let pitch: Moment | null = null
    if (answer !== undefined) {
      const lastBuyerTurn = turns[run[run.length - 1]!.words[run[run.length - 1]!.words.length - 1]!.turn]
      const repTurn = turns[answer[0]!.words[0]!.turn]
      pause = lastBuyerTurn !== undefined && repTurn !== undefined ? round(Math.max(0, repTurn.start - lastBuyerTurn.end), 2) : null
      reply = momentOfSentence(answer[0]!)
      const start = answer[0]!.start
      let wordsBefore = 0
      for (const s of answer) {
        if (s.start - start > PITCH_S || wordsBefore > PITCH_WORDS) break
        if (s.question) {
          question = momentOfSentence(s)
          break
        }
        wordsBefore += s.words.filter(isWord).length
      }
      const length = answer[answer.length - 1]!.end - start
      if (question !== null) response = "question_back"
      else if (length > PITCH_S || wordCount(answer) > PITCH_WORDS) {
        response = "long_pitch"
        pitch = runMoment(answer)
      } else if (pause !== null && pause >= OBJECTION_PAUSE_S) response = "pause"
    }
    out.push({
      objection: { kind, at: round(said.start, 3), quote: said.quote, response, response_pause_s: pause },
      said: momentOfSentence(said),
      reply,
      question,
      pitch
    })
  })
  return out
}

/** Numbers of the buyer worth tying a claim to: business figures, or counts over a dozen. */
const isSignificant = (n: NumberMention) => isBusinessNumber(n) || n.value > 12

const findValueClaims = (sentences: ReadonlyArray<Sentence>, pains: ReadonlyArray<BuyerFinding>): Array<ValueClaim> => {
  const out: Array<ValueClaim> = []
  for (const s of sentences) {
    if (s.side !== "rep" || s.question || !VALUE_CUES.test(s.plain)) continue
    const earlier = sentences.filter((b) => b.side === "buyer" && b.end <= s.start)
    const own = s.numbers.filter(isSignificant).map((n) => n.value)
    const byNumber = earlier.find((b) => b.numbers.some((n) => isSignificant(n) && own.includes(n.value)))
    const painBefore = [...pains].reverse().find((p) => p.end <= s.start) ?? null
    let linked_to: Moment | null = null
    let link: ValueClaim["link"] = null
    if (byNumber !== undefined) {
      linked_to = momentOfSentence(byNumber)
      link = "number"
    } else if (painBefore !== null && BACK_REFERENCE.test(s.plain)) {
      linked_to = painBefore
      link = "back_reference"
    } else if (painBefore !== null && PAIN_CUES.test(s.plain)) {
      linked_to = painBefore
      link = "pain"
    }
    out.push({ ...momentOfSentence(s), linked_to: linked_to === null ? null : stripMoment(linked_to), link, quantified: s.numbers.length > 0 })
  }
  return out
}

/** Only the moment's own fields (a finding may carry more). */
const stripMoment = (m: Moment): Moment => ({ speaker: m.speaker, side: m.side, start: m.start, end: m.end, quote: m.quote })

const findNextSteps = (sentences: ReadonlyArray<Sentence>): Array<NextStepFinding> => {
  const clauses = clausesOf(sentences)
  const out: Array<NextStepFinding> = []
  let absorbedUntil = -1 // clauses up to this index belong to a step already found
  for (let c = 0; c < clauses.length; c++) {
    const clause = clauses[c]!
    if (!NEXT_STEP_CUES.test(plain(clause.tokens))) continue
    const own = findWhen(clause.tokens)
    if (own === null && c <= absorbedUntil) continue
    // the window: the rest of this run and the other side's reply
    let day = own?.day ?? null
    let time = own?.time ?? null
    let confirmation: Moment | null = null
    let other: Moment | null = null
    let last = c
    for (let d = c + 1; d < clauses.length && clauses[d]!.run <= clause.run + 1; d++) {
      const next = clauses[d]!
      const when = findWhen(next.tokens)
      if (when !== null && when.day !== null && day !== null && when.day !== day) break
      day ??= when?.day ?? null
      time ??= when?.time ?? null
      if (next.side !== clause.side) {
        other ??= next
        if (confirmation === null && isAgreement(next.tokens)) confirmation = next
      }
      last = d
    }
    if (day === null && time === null) continue
    if (isAgendaToday(clause.tokens, { day, time })) continue
    absorbedUntil = Math.max(absorbedUntil, last)
    const previousOther = [...clauses.slice(0, c)].reverse().find((x) => x.side !== clause.side) ?? null
    const commitment = commitmentOf(clause.tokens)
    const owner =
      commitment === "self" || commitment === "shared"
        ? clause.speaker
        : commitment === "other"
          ? (other ?? previousOther)?.speaker ?? null
          : null
    out.push({
      step: { at: round(clause.start, 3), quote: clause.quote, owner, due: formatDue({ day, time }) },
      said: stripMoment(clause),
      confirmation: confirmation === null ? null : stripMoment(confirmation)
    })
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Qualification

const hasSpecific = (s: Sentence, kinds: ReadonlyArray<Specific>): boolean =>
  kinds.some((k) => {
    switch (k) {
      case "number":
        return s.numbers.length > 0
      case "money":
        return s.numbers.some((n) => (n.unit !== null && MONEY_UNITS.has(n.unit)) || n.value >= 1000)
      case "party":
        return PARTIES.test(s.plain) || TITLES.test(s.plain)
      case "date":
        return DATES.test(s.plain)
      case "competitor":
        return NAMED_COMPETITORS.test(s.plain)
    }
  })

/** Metrics (MEDDPICC) are specific only with a business number, not any number. */
const isSpecificFor = (element: QualificationElementName, s: Sentence): boolean =>
  element === "metrics" ? s.numbers.some(isBusinessNumber) : hasSpecific(s, QUALIFICATION_CUES[element].specific)

const qualificationOf = (framework: Framework, sentences: ReadonlyArray<Sentence>): QualificationResult => {
  const runs = runsOf(sentences)
  return {
    framework,
    elements: FRAMEWORK_ELEMENTS[framework].map((element) => {
      const { cue, from } = QUALIFICATION_CUES[element]
      let best: { s: Sentence; score: 1 | 2 } | null = null
      for (const s of sentences) {
        if (from === "buyer" && s.side !== "buyer") continue
        if (from === "rep_question" && !(s.side === "rep" && s.question)) continue
        if (!cue.test(s.plain)) continue
        const evidence = from === "rep_question" ? runs[s.run + 1] ?? [] : [s]
        const score: 1 | 2 = evidence.some((e) => isSpecificFor(element, e)) ? 2 : 1
        if (best === null || score > best.score) best = { s, score }
        if (score === 2) break
      }
      const evidence: EvidenceItem | null = best === null
        ? null
        : { dimension: "qualification", start: best.s.start, end: best.s.end, speaker: best.s.speaker, quote: best.s.quote, effect: best.score }
      return { element, score: best?.score ?? 0, evidence }
    })
  }
}

// ---------------------------------------------------------------------------------------------
// The analysis

/** Analyse the words of a call against our speaker turns. Pure: no clock, no randomness. */
export const analyzeContent = (input: ContentInput): ContentAnalysis => {
  const duration = Number.isFinite(input.duration_s) && input.duration_s > 0 ? input.duration_s : 0
  const { words, turns, agreement } = attachWords(input)
  const segments = segmentsOf(words)
  const punctuated = words.some((w) => endsSentence(w.text))
  const sentences = sentencesOf(segments, punctuated)
  const { metrics, repWords, buyerWords, fillers } = contentMetrics(sentences, turns, input.speakers, duration)

  const questions = sentences
    .filter((s) => s.side === "rep" && s.question)
    .map((s) => ({ ...momentOfSentence(s), open: isOpenQuestion(s.tokens) }))
  const pains = findPains(sentences)
  const objections = findObjections(sentences, turns)
  const nextSteps = findNextSteps(sentences)
  const repRuns = runsOf(sentences).filter((r) => r[0]!.side === "rep")
  const longestRun = repRuns.reduce<ReadonlyArray<Sentence> | null>(
    (best, r) => (best === null || r[r.length - 1]!.end - r[0]!.start > best[best.length - 1]!.end - best[0]!.start ? r : best),
    null
  )
  const lastRep = [...sentences].reverse().find((s) => s.side === "rep")

  return {
    transcript: segments.map((seg) => ({
      speaker: seg[0]!.speaker,
      start: round(seg[0]!.start, 3),
      end: round(latestEnd(seg), 3),
      text: textOf(seg)
    })),
    diarization_agreement: agreement,
    metrics,
    qualification: qualificationOf(input.framework, sentences),
    objections: objections.map((o) => o.objection),
    next_steps: nextSteps.map((n) => n.step),
    findings: {
      questions,
      pains,
      numbers: findBusinessNumbers(sentences),
      value_claims: findValueClaims(sentences, pains),
      objections,
      next_steps: nextSteps,
      longest_rep_run: longestRun === null ? null : runMoment(longestRun),
      last_rep_sentence: lastRep === undefined ? null : momentOfSentence(lastRep),
      rep_words: repWords,
      buyer_words: buyerWords,
      rep_fillers: fillers
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Roles from the words (mono calls; not wired: the caller decides)

/** "this is Mark from Callsight", "my name is Mark with Callsight", "Mark here from Callsight". */
const INTRODUCTION = /(?:^|\s)(?:this is|my name is|i am|it is) [a-z']+(?: [a-z']+)? (?:from|with|at|calling from) [a-z0-9]/
/** An introduction counts in the first minute only: later, "this is X from Y" is about someone else. */
const INTRODUCTION_WITHIN_S = 60
/** Questions tell the rep only when there are a few and one speaker asks most of them. */
const MIN_QUESTIONS = 3
const MIN_QUESTION_SHARE = 0.6

export interface RoleGuess {
  /** The speaker label taken for the rep. */
  readonly rep: string
  /** 0–1: 0.9 for an introduction, the speaker's share of the questions otherwise. */
  readonly confidence: number
  readonly basis: "introduction" | "questions"
}

/**
 * Which speaker is the rep, from the words alone (ANALYSIS.md step 5, mono calls): the speaker who
 * introduces themselves "this is X from <company>" in the first minute; else the speaker who asks
 * most (60 % or more, at least 3) of the questions. Null when the words do not tell. The roles in
 * the turns are ignored.
 */
export const refineRoles = (input: Omit<ContentInput, "framework">): RoleGuess | null => {
  const neutral = { ...input, framework: "MEDDPICC" as const, speaker_turns: input.speaker_turns.map((t) => ({ ...t, role: "unknown" as const })), speakers: [] }
  const { words } = attachWords(neutral)
  const sentences = sentencesOf(segmentsOf(words), words.some((w) => endsSentence(w.text)))
  const intro = sentences.find((s) => s.start <= INTRODUCTION_WITHIN_S && INTRODUCTION.test(s.plain))
  if (intro !== undefined) return { rep: intro.speaker, confidence: 0.9, basis: "introduction" }
  const asked = new Map<string, number>()
  for (const s of sentences) if (s.question) asked.set(s.speaker, (asked.get(s.speaker) ?? 0) + 1)
  const total = [...asked.values()].reduce((a, b) => a + b, 0)
  const [top] = [...asked.entries()].sort((a, b) => b[1] - a[1] || byText(a[0], b[0]))
  if (top === undefined || total < MIN_QUESTIONS || top[1] / total < MIN_QUESTION_SHARE) return null
  return { rep: top[0], confidence: round(top[1] / total, 2), basis: "questions" }
}
