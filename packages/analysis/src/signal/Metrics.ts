/**
 * The metrics of docs/method.md that need no words, computed from the speaker turns alone (so they
 * can be checked against the same computation on ground-truth turns). rep = the turns whose
 * role is "rep"; buyer side = every other speaker. Content metrics stay null without a
 * transcript.
 */
import type { Metrics, Turn } from "../Types.js"

interface Span {
  readonly start: number
  readonly end: number
}

/** Total length of the union of spans. */
export const unionLength = (spans: ReadonlyArray<Span>): number => {
  const sorted = [...spans].sort((a, b) => a.start - b.start)
  let total = 0
  let reach = -Infinity
  for (const s of sorted) {
    if (s.end <= reach) continue
    total += s.end - Math.max(s.start, reach)
    reach = s.end
  }
  return total
}

/** The union of spans as sorted, disjoint spans. */
const merged = (spans: ReadonlyArray<Span>): Array<Span> => {
  const out: Array<{ start: number; end: number }> = []
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1]
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end)
    else out.push({ start: s.start, end: s.end })
  }
  return out
}

/** Time covered by sorted disjoint `spans` inside [from, to). */
const coveredWithin = (spans: ReadonlyArray<Span>, from: number, to: number): number => {
  // first span ending after `from` (binary search)
  let lo = 0, hi = spans.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (spans[mid]!.end <= from) lo = mid + 1
    else hi = mid
  }
  let total = 0
  for (let i = lo; i < spans.length && spans[i]!.start < to; i++) {
    total += Math.min(to, spans[i]!.end) - Math.max(from, spans[i]!.start)
  }
  return total
}

/**
 * The longest stretch of `own` turns during which `other` speaks less than `toleranceS` in total:
 * from the start of one own turn to the end of a later one (backchannels of the other side
 * under the tolerance do not break it).
 */
export const longestStretch = (own: ReadonlyArray<Span>, otherTurns: ReadonlyArray<Span>, toleranceS = 1): number => {
  const turns = [...own].sort((a, b) => a.start - b.start)
  const other = merged(otherTurns)
  let best = 0
  for (let i = 0; i < turns.length; i++) {
    let reach = turns[i]!.end
    best = Math.max(best, reach - turns[i]!.start)
    for (let j = i + 1; j < turns.length; j++) {
      const end = Math.max(reach, turns[j]!.end)
      if (coveredWithin(other, turns[i]!.start, end) >= toleranceS) break
      reach = end
      best = Math.max(best, reach - turns[i]!.start)
    }
  }
  return best
}

const median = (values: ReadonlyArray<number>): number | null => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const round = (value: number, digits: number): number => {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

/** Overlap that makes a turn start an interruption, seconds. */
export const INTERRUPTION_OVERLAP_S = 0.3

/** Turns of one side that start while the other side is speaking and overlap it by more than 0.3 s. */
const interruptionsBy = (starters: ReadonlyArray<Span>, speakers: ReadonlyArray<Span>): number =>
  starters.filter((t) =>
    speakers.some((o) => o.start < t.start && t.start < o.end && Math.min(t.end, o.end) - t.start > INTERRUPTION_OVERLAP_S)
  ).length

export const acousticMetrics = (turns: ReadonlyArray<Turn>, durationS: number): Metrics => {
  const rep = turns.filter((t) => t.role === "rep")
  const buyer = turns.filter((t) => t.role !== "rep")
  const known = rep.length > 0 && buyer.length > 0
  const repTime = unionLength(rep)
  const buyerTime = unionLength(buyer)
  const speech = unionLength(turns)

  // speaker switches: consecutive turns (by start) of different speakers
  const ordered = [...turns].sort((a, b) => a.start - b.start)
  let switches = 0
  for (let i = 1; i < ordered.length; i++) if (ordered[i]!.speaker !== ordered[i - 1]!.speaker) switches++

  // patience: a buyer turn followed by a rep turn; overlapping replies waited 0 s
  const pauses: Array<number> = []
  for (let i = 0; i + 1 < ordered.length; i++) {
    const current = ordered[i]!, next = ordered[i + 1]!
    if (current.role !== "rep" && next.role === "rep") pauses.push(Math.max(0, next.start - current.end))
  }
  const patience = median(pauses)

  return {
    talk_ratio: known && repTime + buyerTime > 0 ? round(repTime / (repTime + buyerTime), 3) : null,
    longest_monologue_s: known ? round(longestStretch(rep, buyer), 2) : null,
    longest_customer_story_s: known ? round(longestStretch(buyer, rep), 2) : null,
    interactivity: durationS > 0 ? round(switches / (durationS / 60), 2) : null,
    patience_s: known && patience !== null ? round(patience, 2) : null,
    interruptions: known ? interruptionsBy(rep, buyer) + interruptionsBy(buyer, rep) : null,
    silence_ratio: durationS > 0 ? round(Math.max(0, 1 - speech / durationS), 3) : null,
    question_count: null,
    question_rate: null,
    words_per_minute: null,
    filler_rate: null
  }
}
