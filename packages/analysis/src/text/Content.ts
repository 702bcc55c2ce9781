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
 * - **Objections** (one per buyer voice in a buyer run, i.e. consecutive buyer sentences of one
 *   speaker: the most substantive that matches; a voice raising two kinds gets one response, so it
 *   counts once; two buyers speaking in turn may each raise one, and share the rep's response). The response is the
 *   rep's next run: `question_back` when it asks a question within its first 30 s and 80 words;
 *   otherwise `long_pitch` when it runs past 30 s or 80 words; otherwise `pause` when the rep
 *   waited 1 s or more; otherwise `other`. `response_pause_s` is always the wait (end of the buyer's
 *   last turn before the rep answered → start of the rep's turn), so a pause and a question back
 *   are both visible; null when the rep never answered.
 * - **Next steps** are dated commitments (issue 14): every due chrono-node finds in a sentence
 *   (`Dates.ts`: "by Monday", "on the fifteenth", "Thursday the 21st at two") is tied to the verb
 *   that governs it, read with compromise (`Commitments.ts`): "I will…" / "our installers…" → the
 *   speaker; "let us…" / "we will…" / "shall we…" → the speaker who proposed it; "you send me…" /
 *   "can you send…" → the other side; a past, negated or third-party verb makes no step, nor does a
 *   request without its own date. Several steps in one turn are each found (one per verb). The
 *   other side's reply naming the same day confirms a step and may add the time ("Tuesday at two
 *   works" → "Tuesday 14:00"); a proposal without a day takes the reply's day only when the reply
 *   agrees; an offer ("I can…") needs the reply's agreement. `due` is the phrase as said,
 *   normalised, never a calendar date (the recording date is unknown): "Tuesday 14:00", "the 4th",
 *   "in 2 weeks", "end of the quarter".
 * - **Objections** in negotiation language (contract terms, discounts, approval limits, proof,
 *   security, timing, status quo: `Pushback.ts`) are tried before the early-stage lexicon; each
 *   finding keeps its finer `category`, the public `kind` is the nearest of the product's kinds.
 * - **Qualification.** Each element of the framework is scored on the sentences that match its cue:
 *   0 = none, 1 = a match (vague), 2 = a match with a specific (a number, a title or named party, a
 *   date, a named competitor). SPIN elements are the rep's questions, specific when the buyer's
 *   answer is. The evidence is the earliest sentence with the best score; its `dimension` is
 *   "qualification" and its `effect` the element's score (not scorecard points).
 */
import {
  APPLIED_FIGURE,
  APPROVAL,
  BACK_REFERENCE,
  BURDEN,
  CHAMPION_ACTION,
  CLAUSE_OPENERS,
  DATES,
  endsClause,
  endsSentence,
  findFillers,
  findNumbers,
  FRAMEWORK_ELEMENTS,
  FIRM_REQUIREMENT,
  hasPainCue,
  isAgreement,
  isAuthorityStatement,
  isOpenQuestion,
  isQuestion,
  METRIC_CUES,
  METRIC_UNITS,
  MONEY_UNITS,
  NAMED_COMPETITORS,
  isAgendaToday,
  NEXT_STEP_CUES,
  NOT_PAIN,
  type NumberMention,
  objectionKind,
  PAIN_CUES,
  PARTIES,
  partiesIn,
  plain,
  PROPORTION,
  QUALIFICATION_CUES,
  type QualificationElementName,
  RELATIVE_VALUE,
  SHARE,
  type Specific,
  TITLES,
  type Token,
  toToken,
  VALUE_CUES
} from "./Lexicon.js"
import { type Act, actsIn } from "./Commitments.js"
import { type Due, dueText, findDues, sameDay } from "./Dates.js"
import { objectionKindOf } from "../models/KindModel.js"
import { OBJECTION_MODEL, overrulable, OVERRULED, OWN_WORDS } from "../models/ObjectionModel.js"
import { PAIN_MODEL } from "../models/PainModel.js"
import { likeliest, probabilityOf, turnFeatures } from "../models/TurnModel.js"
import { CATEGORY_KIND, experienceOf, isSettled, pushbackOf, raisedAgainst, RESTATED, topicOf } from "./Pushback.js"
import type { ContentInput, Framework } from "./Transcript.js"
import { VALUE_MODEL } from "../models/ValueModel.js"
import type {
  EvidenceItem,
  Metrics,
  NextStepItem,
  ObjectionItem,
  QualificationResult,
  SpeakerSummary,
  TranscriptSegmentItem,
  Turn
} from "../Types.js"

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
  /** The finer category: discount, contract_terms, approval_limit, proof, security… (`Pushback.ts`), else the kind. */
  readonly category?: string
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

/**
 * The objection a buyer sentence raises: push-back in negotiation language first (`Pushback.ts`,
 * with its finer category), else the early-stage lexicon (`objectionKind`, its kind as category).
 * A sentence that only tells what happened ("the field team stopped after the reorg", "we did a
 * trial with another company in 2021") raises no push-back, and no early-stage timing or need
 * objection: every verb in it is past.
 */
const PROPOSAL = /^(let us|lets|let's)\s/

const objectionOf = (s: Sentence): { kind: ObjectionItem["kind"]; category: string } | null => {
  const narrative = () => {
    const acts = actsIn(s.tokens)
    return acts.length > 0 && acts.every((a) => a.past)
  }
  if (isSettled(s.plain)) return null
  const category = pushbackOf(s.plain)
  if (category !== null) {
    // told in the past: only a bad experience or a concern someone reported still stands
    if (narrative() && experienceOf(s.plain) === null) return null
    return { kind: CATEGORY_KIND[category], category }
  }
  const kind = objectionKind(s.plain)
  if (kind === null) return null
  // the buyer proposing a step ("let's look at that together after the quarter ends") puts nothing off
  if (kind === "timing" && PROPOSAL.test(s.plain)) return null
  if ((kind === "timing" || kind === "need") && narrative()) return null
  return { kind, category: kind }
}

const objectionSentences = (sentences: ReadonlyArray<Sentence>) =>
  new Set(sentences.filter((s) => s.side === "buyer" && objectionOf(s) !== null).map((s) => s.index))

/**
 * A sentence that states a problem: a pain cue, once negated problems and turns of phrase are set
 * aside ("I don't have a problem to solve", "here's my problem though", "switching is a pain"), or
 * a figure that is a burden without any pain word (time or people taken up, a share of the day,
 * failures counted, seats paid for against seats used: `BURDEN`).
 */
const statesPain = (s: Sentence): boolean =>
  hasPainCue(s.plain) || ((s.numbers.length > 0 || PROPORTION.test(s.plain)) && BURDEN.test(s.plain))

/**
 * The sentences that tell the call's pains: each buyer sentence that states one (objections excluded); and where a
 * buyer's turn states none, the learned model (`PainModel.ts`) may hear one, at the sentence it
 * finds most likely.
 */
const painSentences = (sentences: ReadonlyArray<Sentence>): Array<Sentence> => {
  const objections = objectionSentences(sentences)
  const runs = runsOf(sentences)
  const told = runs.flatMap((run, r) => {
    if (run[0]!.side !== "buyer") return []
    const repBefore = runs[r - 1]?.[0]?.side === "rep" ? runs[r - 1]! : []
    return bySpeaker(run).flatMap((voice) => {
      const heard = voice.filter((s) => !objections.has(s.index))
      const stated = heard.filter(statesPain)
      if (stated.length > 0) return stated
      const heardOnly = likeliest(heard, repBefore, PAIN_MODEL)
      return heardOnly === null ? [] : [heardOnly]
    })
  })
  return told
}

const painOf = (s: Sentence): BuyerFinding => ({ ...momentOfSentence(s), numbers: quantities(s.numbers) })

/** A buyer sentence whose figures are business metrics: a metric word or a stated problem, and not who approves. */
const statesMetric = (s: Sentence): boolean => (METRIC_CUES.test(s.plain) || statesPain(s)) && !APPROVAL.test(s.plain)

const findBusinessNumbers = (sentences: ReadonlyArray<Sentence>): Array<BuyerFinding> =>
  sentences
    .filter((s) => s.side === "buyer" && s.numbers.some(isBusinessNumber) && statesMetric(s))
    .map((s) => ({ ...momentOfSentence(s), numbers: quantities(s.numbers.filter(isBusinessNumber)) }))

/** Words of a run, counted as in the metrics. */
const wordCount = (sentences: ReadonlyArray<Sentence>) => sentences.reduce((n, s) => n + s.words.filter(isWord).length, 0)

/**
 * Which of a run's objections names it: what we charge and the buyer's money first, then another
 * vendor, then who decides and when (often a way of putting off the substance), then the catch-all
 * "need" of a doubt, a proof or a risk ("it sounds good in theory, but we're locked into X" is about
 * the competitor; "I'd have to ask her, and the price is above what I had in mind" about the price).
 */
const KIND_RANK: Readonly<Record<ObjectionItem["kind"], number>> = { price: 0, budget: 0, competitor: 1, authority: 2, timing: 2, need: 3 }

const findObjections = (sentences: ReadonlyArray<Sentence>, turns: ReadonlyArray<Turn>): Array<ObjectionFinding> => {
  const runs = runsOf(sentences)
  const out: Array<ObjectionFinding> = []
  runs.forEach((run, r) => {
    if (run[0]!.side !== "buyer") return
    // a restated objection ("like I said, …") counts where it was first raised, unless nothing else is new
    // several in one run: the most substantive kind, the first of it (`KIND_RANK`)
    // what the rep just said: an offer declined or a question about the decision answered is no push-back
    const before = runs[r - 1]
    const asked = before?.[0]?.side === "rep" ? before.map((s) => s.plain).join(" ") : undefined
    const repBefore = before?.[0]?.side === "rep" ? before : []
    // in a multi-party call, each buyer who speaks in the run may raise one ("What I can't move on is the audit." "Which is a problem for me…")
    for (const voice of bySpeaker(run)) {
      const raised = voice
        .map((s) => ({ s, o: objectionOf(s) }))
        .filter((x) => x.o !== null && raisedAgainst(asked, x.s.plain, x.o.kind, x.o.category))
      const fresh = raised.filter((x) => !RESTATED.test(x.s.plain))
      const found = fresh.reduce<typeof fresh[number] | undefined>(
        (best, x) => best === undefined || KIND_RANK[x.o!.kind] < KIND_RANK[best.o!.kind] ? x : best,
        undefined
      ) ?? raised[0]
      // a weak category's phrase the model hears no push-back in, with the rep's turn before, is overruled (`overrulable`)
      const overruled = found !== undefined && found.o !== null && overrulable(found.o.category, found.s.plain) &&
        probabilityOf(turnFeatures(voice, repBefore), OBJECTION_MODEL) < OVERRULED
      if (overruled) continue
      // whether it is push-back is the rules' and the objection model's call; what it is about, the kind model's (`KindModel.ts`)
      if (found !== undefined && found.o !== null) out.push(answered(runs, turns, r, found.s, objectionKindOf(voice, found.o.kind), found.o.category))
      else {
        // what the patterns miss, the learned model may hear (`ObjectionModel.ts`): said where it is most likely; the topic it names, if any, is the rules' kind
        const learned = learnedObjection(voice, repBefore)
        if (learned !== null && raisedAgainst(asked, learned.s.plain, learned.kind, learned.category)) {
          const named = learned.category === "learned" ? null : learned.kind
          out.push(answered(runs, turns, r, learned.s, objectionKindOf(voice, named), learned.category))
        }
      }
    }
  })
  return out
}

/** The finding of an objection said in the run `r`, with the rep's response read from the next run. */
const answered = (
  runs: ReadonlyArray<ReadonlyArray<Sentence>>,
  turns: ReadonlyArray<Turn>,
  r: number,
  said: Sentence,
  kind: ObjectionItem["kind"],
  category: string
): ObjectionFinding => {
  const run = runs[r]!
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
  return {
    objection: { kind, at: round(said.start, 3), quote: said.quote, response, response_pause_s: pause },
    category,
    said: momentOfSentence(said),
    reply,
    question,
    pitch
  }
}

/** A buyer's turn the learned model takes for push-back: its most likely sentence, and the kind its topic names ("need" without one). */
const learnedObjection = (
  voice: ReadonlyArray<Sentence>,
  repBefore: ReadonlyArray<Sentence>
): { s: Sentence; kind: ObjectionItem["kind"]; category: string } | null => {
  // a pain told is the buyer's problem, not push-back against the deal: the model reads only what is not one
  const heard = voice.filter((s) => !statesPain(s))
  if (heard.length === 0 || isSettled(heard.map((s) => s.plain).join(" "))) return null
  const s = likeliest(heard, repBefore, OBJECTION_MODEL)
  // the rep's turn before may lift the buyer's words past the threshold, not stand in for them
  if (s === null || probabilityOf(turnFeatures(heard), OBJECTION_MODEL) < OWN_WORDS) return null
  const topic = topicOf(s.plain)
  return { s, kind: topic === null ? "need" : CATEGORY_KIND[topic], category: topic ?? "learned" }
}

/** A run's sentences grouped by consecutive speaker. */
const bySpeaker = (run: ReadonlyArray<Sentence>): Array<ReadonlyArray<Sentence>> => {
  const out: Array<Array<Sentence>> = []
  for (const s of run) {
    const last = out[out.length - 1]
    if (last !== undefined && last[0]!.speaker === s.speaker) last.push(s)
    else out.push([s])
  }
  return out
}

/** Numbers of the buyer worth tying a claim to: business figures, or counts over a dozen. */
const isSignificant = (n: NumberMention) => isBusinessNumber(n) || n.value > 12

/** A before/after in numbers: "close went from ten days to six", "from forty minutes down to about six". */
const beforeAfter = (s: Sentence): boolean =>
  s.numbers.some((a, i) => {
    const before = s.tokens.slice(Math.max(0, a.from - 3), a.from).map((t) => t.word)
    if (!before.includes("from")) return false
    return s.numbers.slice(i + 1).some((b) => b.from - a.to <= 6 && s.tokens.slice(Math.max(a.to, b.from - 3), b.from).some((t) => t.word === "to"))
  })

/** A result measured in a trial, with its figure: "during the pilot, the median time to notice was six minutes". */
const TRIAL_RESULT = /(?:^|\s)(?:during|after|since|over|in) the (?:pilot|trial|test|rollout|first [a-z]+ weeks?)(?=\s|$)/

/**
 * The rep's value claims: value language (`VALUE_CUES`), or a relative figure that answers what
 * the buyer said (`RELATIVE_VALUE`: a share of time or cost taken off, a ratio, capacity that
 * covers growth; a before/after in numbers; a trial's measured result; the rep's figure applied to
 * the buyer's own number). Questions are not claims, nor features described without a figure.
 * A claim is tied to the buyer's words by a number they said, a back-reference ("you told me…")
 * in the claim or earlier in the rep's run, or a pain stated before (a relative figure, or pain
 * words, answer the last pain). With a back-reference and no pain stated in this call (a pain from
 * an earlier call), the rep's restatement of the buyer's words is what the claim is tied to.
 */
const findValueClaims = (sentences: ReadonlyArray<Sentence>, pains: ReadonlyArray<BuyerFinding>): Array<ValueClaim> => {
  const claimed = sentences.flatMap((s) => {
    const c = s.side === "rep" && !s.question ? claimAt(s, sentences, pains, false) : null
    return c === null ? [] : [{ s, c }]
  })
  // a rep's run with no claim the rules hear: the learned model (`ValueModel.ts`) may hear one, at its most likely sentence
  const runs = runsOf(sentences)
  const learned = runs.flatMap((run, r) => {
    if (run[0]!.side !== "rep" || claimed.some((x) => x.s.run === run[0]!.run)) return []
    const heard = run.filter((s) => !s.question)
    const buyerBefore = runs[r - 1]?.[0]?.side === "buyer" ? runs[r - 1]! : []
    const s = likeliest(heard, buyerBefore, VALUE_MODEL)
    const c = s === null ? null : claimAt(s, sentences, pains, true)
    return s === null || c === null ? [] : [{ s, c }]
  })
  return [...claimed, ...learned].sort((a, b) => a.s.index - b.s.index).map((x) => x.c)
}

/**
 * A rep sentence as a value claim, tied to the buyer's words it answers: a figure of the buyer's it
 * repeats, a back reference ("that's the problem you mentioned") or the pain just before; null when
 * the rules hear no claim in it (a value word, a relative figure, a figure of the buyer's applied),
 * unless the learned model already did (`learned`).
 */
const claimAt = (s: Sentence, sentences: ReadonlyArray<Sentence>, pains: ReadonlyArray<BuyerFinding>, learned: boolean): ValueClaim | null => {
  const cue = VALUE_CUES.test(s.plain)
  const relative = RELATIVE_VALUE.test(s.plain) || beforeAfter(s) || (s.numbers.length > 0 && TRIAL_RESULT.test(s.plain))
  const own = s.numbers.filter(isSignificant).map((n) => n.value)
  const earlier = sentences.filter((b) => b.side === "buyer" && b.end <= s.start)
  const byNumber = own.length === 0 ? undefined : earlier.find((b) => b.numbers.some((n) => isSignificant(n) && own.includes(n.value)))
  const applied = byNumber !== undefined && APPLIED_FIGURE.test(s.plain)
  if (!learned && !cue && !relative && !applied) return null
  const painBefore = [...pains].reverse().find((p) => p.end <= s.start) ?? null
  const backRef = BACK_REFERENCE.test(s.plain)
    ? s
    : sentences.find((r) => r.run === s.run && r.index < s.index && BACK_REFERENCE.test(r.plain)) ?? null
  let linked_to: Moment | null = null
  let link: ValueClaim["link"] = null
  if (byNumber !== undefined) {
    linked_to = momentOfSentence(byNumber)
    link = "number"
  } else if (backRef !== null && (painBefore !== null || relative)) {
    linked_to = painBefore ?? momentOfSentence(backRef)
    link = "back_reference"
  } else if (painBefore !== null && (relative || applied || PAIN_CUES.test(s.plain) || (learned && answersRun(painBefore, s, sentences)))) {
    linked_to = painBefore
    link = "pain"
  }
  return { ...momentOfSentence(s), linked_to: linked_to === null ? null : stripMoment(linked_to), link, quantified: s.numbers.length > 0 || relative }
}

/** The pain was told in the buyer's run just before the rep's run that holds the claim: the claim answers it. */
const answersRun = (pain: Moment, claim: Sentence, sentences: ReadonlyArray<Sentence>): boolean =>
  sentences.some((b) => b.run === claim.run - 1 && b.side === "buyer" && b.start <= pain.start && pain.start < b.end)

/** Only the moment's own fields (a finding may carry more). */
const stripMoment = (m: Moment): Moment => ({ speaker: m.speaker, side: m.side, start: m.start, end: m.end, quote: m.quote })

/**
 * Scheduling talk with no verb of its own that commits anyone: "Would Wednesday the ninth at ten
 * work?", "Thursday at two it is", "the twenty second works", "talk to you on the tenth".
 */
const SCHEDULING = /(?:^|\s)(?:(?:does|would|will|could|should|can) [a-z0-9 ]{0,40}work|works?( for (?:me|you|us))?|it is$|then$|(?:is|sounds|should be) (?:fine|good|great|ok|okay)|same time|talk (?:to you )?(?:then|on|next)|see you|speak (?:then|on)|slot|how about|what about|is that (?:ok|okay|alright)|(?:are we|is (?:it|that|this)|we are) (?:still )?on(?: for)?)(?=\s|$)/
/** A day said again to close ("talk on Wednesday", "see you then"): the step said before, not another one. */
const CLOSING = /(?:^|\s)(?:talk|speak|see you|catch up)(?=\s|$)/
/** "ask her whether the fourteenth works": a day inside a question put to someone else is no due of the asking. */
const WHETHER = new Set(["whether", "if"])
const DISAGREES = /(?:^|\s)(?:^not (?:this|that|next|on|before|until)|no good|(?:does|do|will|would) not work|cannot (?:make|do)|not (?:free|available|possible)|^no)(?=\s|$)/
/** A reply that turns a day down: "mornings are bad for me", "Friday does not work", "I am away that week". */
const DECLINES = /(?:^|\s)(?:no good|(?:does|do|will|would) not work|cannot (?:make|do)|not (?:free|available|possible|great|ideal)|(?:is|are) (?:bad|tricky|difficult|hard|out)|(?:i am|i will be|we are|we will be) (?:away|travelling|traveling|out|off)|rather not|^no(?! problem| worries| rush)|^(?:sorry|unfortunately))(?=\s|$)/
/** A reply that puts the decision off: "I will ask him about Wednesday", "let me check", "I will get back to you". */
const DEFERS = /(?:^|\s)(?:(?:i will|let me|i need to|i have to|i would have to|we will|we need to|i must) (?:first )?(?:ask|check|see|find out|run (?:it|this) by|confirm|think)|get back to you|let you know)(?=\s|$)/

/** Words opening a clause that is only a time, fronted before the clause that acts ("after the board on the 19th, …"). */
const FRONTED = new Set(["after", "on", "by", "before", "from", "once"])

/** "by then", "before then", "ahead of then": the day named last, in this sentence's turn or the few sentences before it. */
const THEN = /(?:^|\s)(?:by|before|ahead of) then(?=\s|$)/
const THEN_LOOKBACK = 6

const withThen = (
  s: Sentence,
  dues: ReadonlyArray<Due>,
  sentences: ReadonlyArray<Sentence>,
  duesOf: (s: Sentence) => ReadonlyArray<Due>
): ReadonlyArray<Due> => {
  if (dues.length > 0 || !THEN.test(s.plain)) return dues
  const at = s.tokens.findIndex((t, i) => t.word === "then" && ["by", "before", "of"].includes(s.tokens[i - 1]?.word ?? ""))
  if (at < 0) return dues
  for (const b of sentences.slice(Math.max(0, s.index - THEN_LOOKBACK), s.index).reverse()) {
    const named = [...duesOf(b)].reverse().find((d) => d.day !== null)
    if (named !== undefined) return [{ day: named.day, time: null, from: at, to: at + 1 }]
  }
  return dues
}

/** Clause spans of a sentence (token ranges): cut after a comma or semicolon before an opener or a new subject. */
const clauseSpans = (s: Sentence): Array<readonly [number, number]> => {
  const out: Array<readonly [number, number]> = []
  let from = 0
  for (let i = 1; i < s.words.length; i++) {
    const prev = s.words[i - 1]!.text
    const word = s.tokens[i]!.word
    if (/;$/.test(prev) || (endsClause(prev) && (CLAUSE_OPENERS.has(word) || CLAUSE_SUBJECTS.has(word)))) {
      out.push([from, i])
      from = i
    }
  }
  out.push([from, s.words.length])
  return out
}
const CLAUSE_SUBJECTS = new Set(["i", "i'll", "i'm", "we", "we'll", "we're", "let's", "you", "you'll", "shall", "could", "can", "would"])

const clauseMoment = (s: Sentence, [from, to]: readonly [number, number]): Moment => {
  const start = from > 0 && to - from > 1 && CLAUSE_OPENERS.has(s.tokens[from]!.word) ? from + 1 : from
  const words = s.words.slice(start, to)
  return momentOf(words, textOf(words).replace(/[,;:]$/, ""))
}

interface StepCandidate {
  readonly sentence: Sentence
  readonly moment: Moment
  readonly owner: string | null
  day: string | null
  time: string | null
  /**
   * A step only once the other side agrees: an offer ("I can…"), a proposal or a request put as a question ("can we
   * meet on Friday?", "can you call me back in two weeks?"), a choice of days ("Tuesday or Wednesday").
   */
  readonly offer: boolean
  /** Days offered as alternatives: the agreeing reply names the one taken. */
  readonly choice: boolean
  /** A date with no committing verb, said as a fragment or a goodbye ("Thursday at eleven then", "talk on the tenth"). */
  readonly restates: boolean
}

/**
 * Next steps are dated commitments (see the header): in each sentence, every due date or time
 * chrono finds (`Dates.ts`) is tied to the act that governs it (`Commitments.ts`: the nearest verb
 * before it in its clause, else the nearest after): a first-person or "we" commitment is a step
 * owned by the speaker; an instruction or a request to the other side ("you send me… by Friday",
 * "can you send… by Friday") is the other side's step; a date with no committing verb is a step
 * only in scheduling talk ("Would Thursday at ten work?"). Negated, past and third-party verbs
 * ("the lights go live", "we had a demo on Monday") make none, nor does a request without its own
 * date. One step per act. The other side's reply that names the same day confirms the step (and
 * may add the time: "Tuesday at two works"); it is not a step of its own. A proposal without a
 * day ("shall we book a call?") borrows the day of the reply only when the reply agrees.
 * A proposal or a request put as a question, an offer and a choice of days ("Tuesday or Wednesday")
 * wait for the other side to agree (a choice takes the day picked); a reply that turns the day down
 * ("mornings are bad for me") drops the step, one that puts it off ("let me check about Wednesday")
 * neither confirms it nor is absorbed. A day said again to close ("talk on Wednesday", "Thursday at
 * eleven then") or a time added a turn later completes the step already found, not a new one.
 */
const findNextSteps = (sentences: ReadonlyArray<Sentence>): Array<NextStepFinding> => {
  const runs = runsOf(sentences)
  const out: Array<{ c: StepCandidate; confirmation: Moment | null }> = []
  const absorbed = new Set<number>()
  const duesCache = new Map<number, ReturnType<typeof findDues>>()
  const duesOf = (s: Sentence) => {
    let d = duesCache.get(s.index)
    if (d === undefined) duesCache.set(s.index, (d = findDues(s.tokens)))
    return d
  }
  const otherSpeaker = (s: Sentence): string | null =>
    (sentences.slice(s.index + 1).find((x) => x.side !== s.side) ?? [...sentences.slice(0, s.index)].reverse().find((x) => x.side !== s.side))?.speaker ?? null
  for (const s of sentences) {
    if (absorbed.has(s.index)) continue
    const dues = withThen(s, duesOf(s), sentences, duesOf)
    // a proposal by both sides without a day ("shall we book a call?") may take the day of an agreeing reply
    const proposal = dues.length === 0 && NEXT_STEP_CUES.test(s.plain) && /(?:^|\s)(?:let us|shall we|(?:could|can|should) we|how about we)(?=\s)/.test(s.plain)
    if (dues.length === 0 && !proposal) continue
    // an open question ("how are you doing today?", "what happens today?") commits nobody
    if (s.question && isOpenQuestion(s.tokens)) continue
    const acts = actsIn(s.tokens)
    const spans = clauseSpans(s)
    const spanOf = (i: number) => spans.find(([a, b]) => i >= a && i < b) ?? spans[0]!
    const used = new Set<number>()
    const found: Array<StepCandidate> = []
    const ownerOf = (act: Act) => (act.actor === "other" ? otherSpeaker(s) : s.speaker)
    for (const due of dues) {
      const span = spanOf(due.from)
      const inSpan = acts.filter((a) => a.at >= span[0] && a.at < span[1])
      // a fronted time ("After the board on the 19th, I'll take it to the VC") belongs to the next clause's act
      const fronted = inSpan.length === 0 && FRONTED.has(s.tokens[span[0]]?.word === "and" ? s.tokens[span[0] + 1]?.word ?? "" : s.tokens[span[0]]!.word)
      const nextSpan = spans[spans.indexOf(span) + 1]
      const act = [...inSpan].reverse().find((a) => a.at < due.from) ?? inSpan.find((a) => a.at >= due.to) ??
        (fronted && nextSpan !== undefined ? acts.find((a) => a.at >= nextSpan[0] && a.at < nextSpan[1]) : undefined)
      const when = { day: due.day, time: due.time }
      if (act !== undefined && act.at < due.from && s.tokens.slice(act.at + 1, due.from).some((t) => WHETHER.has(t.word))) continue
      // in a question, the other side acts only when asked ("can you…"), not in "how are you doing today?"
      if (act !== undefined && s.question && act.actor === "other" && !act.request) continue
      if (act !== undefined && !act.inert && act.actor !== "third") {
        if (used.has(act.at)) continue
        if (isAgendaToday(s.tokens.slice(span[0], span[1]), when)) continue
        used.add(act.at)
        const choice = due.choice === true
        // the question mark belongs to the last clause: "I'll have the accounts set up by Wednesday, and we do the training on Thursday?"
        const asked = s.question && span === spans[spans.length - 1]
        found.push({
          sentence: s, moment: clauseMoment(s, [Math.min(span[0], act.subject), span[1]]), owner: ownerOf(act), ...when,
          offer: act.offer || asked || choice, choice, restates: CLOSING.test(act.infinitive)
        })
      } else if (act === undefined || (act.actor === "third" && !act.inert) || (act.infinitive === "be" && !act.past)) {
        const clause = plain(s.tokens.slice(span[0], span[1]))
        const words = s.tokens.slice(span[0], span[1]).filter((t) => /[\p{L}\p{N}]/u.test(t.word)).length
        // a date that is most of a verbless clause ("Thursday at two, then"); a verb of its own ("next week is tricky",
        // "the pilot ends on the third") makes it a statement, a step only in scheduling talk
        const dateOnly = act === undefined && due.to - due.from >= words / 2 && due.day !== null && !due.day.startsWith("in ")
        if ((!SCHEDULING.test(clause) && !dateOnly) || DISAGREES.test(clause)) continue
        if (found.some((f) => sameDay(f, when))) continue
        const choice = due.choice === true
        found.push({
          sentence: s, moment: clauseMoment(s, span), owner: s.speaker, ...when, offer: s.question || choice, choice,
          restates: dateOnly || CLOSING.test(clause)
        })
      }
    }
    if (proposal && found.length === 0) {
      const act = acts.find((a) => !a.inert && a.actor === "shared")
      if (act !== undefined) found.push({ sentence: s, moment: clauseMoment(s, spanOf(act.at)), owner: ownerOf(act), day: null, time: null, offer: true, choice: false, restates: false })
    }
    // a clock time alone right after a dated step completes it: of the same speaker ("…on Friday. Does ten o'clock work?"),
    // or a step still without a time from the run before ("Will do, ten o'clock")
    const previous = out[out.length - 1]?.c
    const completes = (c: StepCandidate) =>
      c.day === null && c.time !== null && previous !== undefined &&
      (previous.sentence.run === s.run || (previous.time === null && s.run - previous.sentence.run <= 2))
    const completing = found.filter(completes)
    for (const c of completing) previous!.time ??= c.time
    found.splice(0, found.length, ...found.filter((c) => !completing.includes(c)))
    // the reply: the next sentences of another speaker of the same side, when one answers at once (a colleague
    // asked by name), else the sentences of the other side's next run
    const next = sentences[s.index + 1]
    const reply = next !== undefined && next.run === s.run && next.speaker !== s.speaker
      ? sentences.slice(s.index + 1).filter((r) => r.run === s.run && r.speaker === next.speaker)
      : runs[s.run + 1] ?? []
    for (const c of found) {
      let confirmation: Moment | null = null
      let declined = false
      reply.slice(0, 3).forEach((r, k) => {
        const named = duesOf(r)
        // "let me check with him about Wednesday" neither confirms nor turns down: the step waits
        if (DEFERS.test(r.plain)) return
        const agrees = isAgreement(r.tokens) && !DISAGREES.test(r.plain)
        const same = named.find((d) => (c.day === null ? d.day !== null : sameDay(d, c) && d.day !== null))
        // a day turned down: the one named, or the first thing said in reply when it names none ("mornings are bad for me")
        if (DECLINES.test(r.plain) && (same !== undefined || (k === 0 && named.length === 0)) && confirmation === null) declined = true
        else if (same !== undefined && !DISAGREES.test(r.plain)) {
          if (c.choice) {
            c.day = same.day
            c.time = same.time ?? c.time
          }
          c.day ??= same.day
          c.time ??= same.time
          confirmation ??= momentOfSentence(r)
          absorbed.add(r.index)
        } else if (agrees && named.length === 0 && c.day !== null && !c.choice) {
          confirmation ??= momentOfSentence(r)
        }
      })
      if (c.day === null && c.time === null) continue
      if (declined && confirmation === null) continue
      // "I can get you a sample by Friday" in answer to "could you send me a sample by Friday?" accepts; it awaits no answer
      const accepts = c.offer && !s.question && c.day !== null && (runs[s.run - 1] ?? []).some((r) => duesOf(r).some((d) => d.day !== null && sameDay(d, c)))
      if (c.offer && confirmation === null && !accepts) continue
      // said again ("Thursday at eleven then", "talk on Wednesday"): it completes the step said before, not a new one
      const earlier = c.restates ? out.find((o) => o.c.day !== null && c.day !== null && sameDay(o.c, c)) : undefined
      if (earlier !== undefined) {
        earlier.c.time ??= c.time
        continue
      }
      out.push({ c, confirmation })
    }
  }
  return out.map(({ c, confirmation }) => ({
    step: { at: round(c.moment.start, 3), quote: c.moment.quote, owner: c.owner, due: dueText(c) },
    said: stripMoment(c.moment),
    confirmation
  }))
}

// ---------------------------------------------------------------------------------------------
// Qualification

/** A threshold in a process ("anything over fifty thousand", "before we go live"). */
const THRESHOLD = /(?:^|\s)(?:anything|everything|purchases?|spend) (?:over|above|under|below|more than)(?=\s|$)|(?:^|\s)(?:before|until) (?:we|you|they|it) (?:go live|sign|start|roll out)(?=\s|$)/

const hasSpecific = (s: Sentence, kinds: ReadonlyArray<Specific>): boolean =>
  kinds.some((k) => {
    switch (k) {
      case "number":
        return s.numbers.length > 0
      case "money":
        return s.numbers.some((n) => (n.unit !== null && MONEY_UNITS.has(n.unit)) || n.value >= 1000)
      case "business":
        return s.numbers.some(isBusinessNumber) || SHARE.test(s.plain)
      case "party":
        return PARTIES.test(s.plain) || TITLES.test(s.plain)
      case "date":
        return DATES.test(s.plain)
      case "competitor":
        return NAMED_COMPETITORS.test(s.plain)
      case "authority":
        return isAuthorityStatement(s.plain)
      case "firm":
        return FIRM_REQUIREMENT.test(s.plain)
      case "action":
        return CHAMPION_ACTION.test(s.plain)
      case "comparison":
        return s.numbers.some((n) => n.unit === "percent" || (n.unit !== null && MONEY_UNITS.has(n.unit)))
      case "steps": {
        // two parties or steps of the process, or one with a date or a threshold; who signs up to what is the economic buyer's evidence, not steps
        if (isAuthorityStatement(s.plain)) return false
        const parties = partiesIn(s.plain)
        return parties.size >= 2 || (parties.size === 1 && (DATES.test(s.plain) || THRESHOLD.test(s.plain) || s.numbers.some(isBusinessNumber)))
      }
    }
  })

const isSpecificFor = (element: QualificationElementName, s: Sentence): boolean => hasSpecific(s, QUALIFICATION_CUES[element].specific)

/**
 * Whether a sentence touches an element. Pains (identify pain, need) are the call's pains
 * (`painSentences`: the rules' and the learned model's); Metrics are a
 * metric word or a stated problem; a sentence about who approves is neither Metrics nor a criterion.
 */
const cuedFor = (element: QualificationElementName, cue: RegExp, s: Sentence, pains: ReadonlySet<number>): boolean => {
  switch (element) {
    case "identify_pain":
      return pains.has(s.index)
    case "need":
      return pains.has(s.index) || cue.test(s.plain.replace(NOT_PAIN, " "))
    case "metrics":
      return statesMetric(s)
    case "decision_criteria":
      return cue.test(s.plain) && !APPROVAL.test(s.plain)
    default:
      return cue.test(s.plain)
  }
}

const qualificationOf = (framework: Framework, sentences: ReadonlyArray<Sentence>, pains: ReadonlySet<number>): QualificationResult => {
  const runs = runsOf(sentences)
  return {
    framework,
    elements: FRAMEWORK_ELEMENTS[framework].map((element) => {
      const { cue, from } = QUALIFICATION_CUES[element]
      let best: { s: Sentence; score: 1 | 2 } | null = null
      for (const s of sentences) {
        // the rep restating the buyer's figures ("you said an hour of downtime costs you twenty thousand") shows the metric is known
        const restated = element === "metrics" && s.side === "rep" && !s.question && BACK_REFERENCE.test(s.plain)
        if (from === "buyer" && s.side !== "buyer" && !restated) continue
        if (from === "rep_question" && !(s.side === "rep" && s.question)) continue
        if (!cuedFor(element, cue, s, pains) && !restated) continue
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
  const painSaid = painSentences(sentences)
  const pains = painSaid.map(painOf)
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
    qualification: qualificationOf(input.framework, sentences, new Set(painSaid.map((s) => s.index))),
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
