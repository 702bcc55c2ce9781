/**
 * Moments: what the evidence points at, found in the speaker turns (docs/method.md step 6
 * definitions): the rep's monologues, the buyer's stories, interruptions, buyer→rep hand-offs and
 * speaker switches.
 */
import type { SpeakerSummary, Turn } from "../Types.js"

export interface Span {
  readonly start: number
  readonly end: number
}

export interface Stretch extends Span {
  /** The speaker who talks most in the stretch. */
  readonly speaker: string
}

export interface Interruption extends Span {
  /** Who started talking while the other side was speaking. */
  readonly speaker: string
  readonly side: "rep" | "buyer"
  /** The speaker talked over. */
  readonly over: string
}

export interface Handoff extends Span {
  /** The rep speaker who answered. */
  readonly speaker: string
  readonly pause_s: number
}

/** The moments of a call that scoring rules point at (docs/method.md step 6 definitions). */
export interface CallMoments {
  readonly duration_s: number
  readonly hasRep: boolean
  readonly hasBuyer: boolean
  readonly repSpeakers: ReadonlyArray<string>
  readonly repTalk_s: number
  readonly buyerTalk_s: number
  /** Rep stretches in which the buyer side speaks less than 1 s in total, longest first, disjoint. */
  readonly monologues: ReadonlyArray<Stretch>
  /** The same for the buyer side. */
  readonly stories: ReadonlyArray<Stretch>
  /** Turns that start while the other side speaks, with more than 0.3 s of overlap, in time order. */
  readonly interruptions: ReadonlyArray<Interruption>
  /** Buyer turn end → next rep turn start, in time order (overlapping answers excluded). */
  readonly handoffs: ReadonlyArray<Handoff>
  /** Speaker switches (consecutive turns of different speakers). */
  readonly switches: number
}

/** Mostly 1 s: "the other side speaks less than 1 s in total" (docs/method.md). */
const STRETCH_TOLERANCE_S = 1
const INTERRUPTION_OVERLAP_S = 0.3

const roleOf = (turn: Turn, speakers: ReadonlyArray<SpeakerSummary>): "rep" | "buyer" | "unknown" => {
  if (turn.role !== "unknown") return turn.role
  return speakers.find((s) => s.speaker === turn.speaker)?.role ?? "unknown"
}

/** Sorted, merged intervals. */
const union = (spans: ReadonlyArray<Span>): Array<Span> => {
  const sorted = [...spans].filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || a.end - b.end)
  const out: Array<{ start: number; end: number }> = []
  for (const s of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && s.start <= last.end) last.end = Math.max(last.end, s.end)
    else out.push({ start: s.start, end: s.end })
  }
  return out
}

const total = (spans: ReadonlyArray<Span>) => spans.reduce((sum, s) => sum + (s.end - s.start), 0)

/** Time covered by `spans` (sorted, disjoint) inside [a, b], by prefix sums and binary search. */
const overlapQuery = (spans: ReadonlyArray<Span>) => {
  const prefix = [0]
  for (const s of spans) prefix.push(prefix[prefix.length - 1]! + (s.end - s.start))
  // covered time in [0, t]
  const upTo = (t: number): number => {
    let lo = 0
    let hi = spans.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (spans[mid]!.end <= t) lo = mid + 1
      else hi = mid
    }
    const partial = lo < spans.length && spans[lo]!.start < t ? t - spans[lo]!.start : 0
    return prefix[lo]! + partial
  }
  return (a: number, b: number) => (b <= a ? 0 : upTo(b) - upTo(a))
}

/** The speaker with the most time inside [start, end] among `turns`. */
const mainSpeaker = (turns: ReadonlyArray<Turn>, span: Span): string => {
  const time = new Map<string, number>()
  for (const t of turns) {
    const o = Math.min(t.end, span.end) - Math.max(t.start, span.start)
    if (o > 0) time.set(t.speaker, (time.get(t.speaker) ?? 0) + o)
  }
  let best = ""
  let bestTime = -1
  for (const [speaker, t] of time) {
    if (t > bestTime || (t === bestTime && speaker < best)) {
      best = speaker
      bestTime = t
    }
  }
  return best
}

/**
 * Stretches of one side in which the other side speaks less than 1 s in total: for each start,
 * the longest run of the side's speech (two pointers over merged intervals), then the longest
 * disjoint ones, longest first.
 */
const stretches = (own: ReadonlyArray<Turn>, other: ReadonlyArray<Span>): Array<Stretch> => {
  const runs = union(own)
  if (runs.length === 0) return []
  const otherIn = overlapQuery(union(other))
  const candidates: Array<Span> = []
  let j = 0
  for (let i = 0; i < runs.length; i++) {
    if (j < i) j = i
    while (j + 1 < runs.length && otherIn(runs[i]!.start, runs[j + 1]!.end) < STRETCH_TOLERANCE_S) j++
    candidates.push({ start: runs[i]!.start, end: runs[j]!.end })
  }
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)
  const chosen: Array<Span> = []
  for (const c of candidates) {
    if (chosen.every((k) => c.end <= k.start || c.start >= k.end)) chosen.push(c)
  }
  return chosen.map((c) => ({ ...c, speaker: mainSpeaker(own, c) }))
}

/** Find the moments of a call in its speaker turns. */
export const findMoments = (input: {
  readonly speaker_turns: ReadonlyArray<Turn>
  readonly speakers: ReadonlyArray<SpeakerSummary>
  readonly duration_s: number
}): CallMoments => {
  const turns = input.speaker_turns
    .filter((t) => Number.isFinite(t.start) && Number.isFinite(t.end) && t.end > t.start)
    .map((t) => ({ ...t, role: roleOf(t, input.speakers) }))
    .sort((a, b) => a.start - b.start || a.end - b.end || (a.speaker < b.speaker ? -1 : a.speaker > b.speaker ? 1 : 0))
  const rep = turns.filter((t) => t.role === "rep")
  const buyer = turns.filter((t) => t.role !== "rep")

  const interruptions: Array<Interruption> = []
  for (const t of turns) {
    const others = t.role === "rep" ? buyer : rep
    // the other side's turn that was under way when t started, with the longest overlap
    let best: { over: Turn; end: number } | null = null
    for (const o of others) {
      if (o.start >= t.start) break
      if (o.end <= t.start) continue
      const end = Math.min(t.end, o.end)
      if (end - t.start > INTERRUPTION_OVERLAP_S && (best === null || end > best.end)) best = { over: o, end }
    }
    if (best !== null) {
      interruptions.push({
        start: t.start,
        end: best.end,
        speaker: t.speaker,
        side: t.role === "rep" ? "rep" : "buyer",
        over: best.over.speaker
      })
    }
  }

  const handoffs: Array<Handoff> = []
  for (let i = 1; i < turns.length; i++) {
    const prev = turns[i - 1]!
    const next = turns[i]!
    if (prev.role !== "rep" && next.role === "rep" && next.start >= prev.end) {
      handoffs.push({ start: prev.end, end: next.start, speaker: next.speaker, pause_s: next.start - prev.end })
    }
  }

  let switches = 0
  for (let i = 1; i < turns.length; i++) if (turns[i]!.speaker !== turns[i - 1]!.speaker) switches++

  return {
    duration_s: input.duration_s,
    hasRep: rep.length > 0,
    hasBuyer: buyer.length > 0,
    repSpeakers: [...new Set(rep.map((t) => t.speaker))].sort(),
    repTalk_s: total(union(rep)),
    buyerTalk_s: total(union(buyer)),
    monologues: stretches(rep, buyer),
    stories: stretches(buyer, rep),
    interruptions,
    handoffs,
    switches
  }
}
