/**
 * The provider's words attached to our speaker turns (see `Content.ts`, "Attachment"): by time,
 * and where the provider labels speakers, by its labels mapped one to one onto ours (the mapping
 * also gives the share of word time on which the two agree).
 */
import { inContext, type Token, toToken } from "./lexicon/Tokens.js"
import type { Side } from "./Moment.js"
import { round } from "./Round.js"
import type { ContentInput } from "./Transcript.js"
import type { SpeakerSummary, Turn } from "../Types.js"

export interface Attached {
  readonly text: string
  readonly start: number
  readonly end: number
  readonly provider: string | null
  readonly turn: number
  readonly speaker: string
  readonly side: Side
  readonly token: Token
}

/** A word is counted when it has a letter or a digit (not a lone dash). */
export const isWord = (w: Attached) => /[\p{L}\p{N}]/u.test(w.text)

export const sideOf = (turn: Turn, speakers: ReadonlyArray<SpeakerSummary>): Side => {
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
export const attachWords = (input: ContentInput): { words: Array<Attached>; turns: ReadonlyArray<Turn>; agreement: number | null } => {
  const index = indexTurns(input.speaker_turns)
  const { turns } = index
  const words = input.words
    .filter((w) => Number.isFinite(w.start) && Number.isFinite(w.end) && w.text.trim().length > 0)
    .map((w) => ({ ...w, text: w.text.trim(), end: Math.max(w.start, w.end) }))
    .sort((a, b) => a.start - b.start || a.end - b.end || byText(a.text, b.text) || byText(a.speaker ?? "", b.speaker ?? ""))
  const sides = turns.map((t) => sideOf(t, input.speakers))
  // each provider word's token, a homophone read in its context ("aisle send it" is "I'll send it")
  const tokens = inContext(words.map((w) => toToken(w.text)))
  const attach = (w: (typeof words)[number], turn: number, token: Token): Attached => ({
    text: w.text,
    start: w.start,
    end: w.end,
    provider: w.speaker !== undefined && w.speaker !== "" ? w.speaker : null,
    turn,
    speaker: turn >= 0 ? turns[turn]!.speaker : "unknown",
    side: turn >= 0 ? sides[turn]! : "buyer",
    token
  })
  const byTime = words.map((w, i) => attach(w, turns.length === 0 ? -1 : attachTo(index, w.start, w.end), tokens[i]!))
  const labels = speakerMapping(byTime)
  if (labels === null) return { words: byTime, turns, agreement: null }
  const out = byTime.map((a, i) => {
    const mapped = a.provider === null ? undefined : labels.mapping.get(a.provider)
    if (mapped === undefined || mapped === a.speaker) return a
    const turn = largestOverlap(index, a.start, a.end, mapped, EDGE_COLLAR_S)
    return turn >= 0 ? attach(words[i]!, turn, a.token) : a
  })
  return { words: out, turns, agreement: labels.agreement }
}

// ---------------------------------------------------------------------------------------------
// The provider's speaker labels mapped to ours (the diarization agreement)

/** Words with a duration of 0 still count a little. */
const MIN_WORD_S = 0.01

/**
 * Where the provider labelled speakers: each provider label mapped to one of ours (one to one, the
 * mapping that maximises the word time they share), and the share of word time on which the two
 * agree. Null when no word has a provider label.
 */
export const speakerMapping = (
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
