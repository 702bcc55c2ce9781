/** Shared helpers of the analysis tests: fixtures, ground truth, and the diarization error rate. */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures")

export const fixture = (name: string): string => path.join(FIXTURES, name)

export interface TruthTurn {
  readonly speaker: string
  readonly start: number
  readonly end: number
  readonly text: string
}

export interface Truth {
  readonly duration: number
  readonly stereo: boolean
  readonly turns: ReadonlyArray<TruthTurn>
}

export const readTruth = (call: string): Truth => JSON.parse(fs.readFileSync(fixture(`${call}.truth.json`), "utf8")) as Truth

export interface Segment {
  readonly speaker: string
  readonly start: number
  readonly end: number
}

export interface DerResult {
  readonly der: number
  readonly missed: number
  readonly falseAlarm: number
  readonly confusion: number
  /** Scored truth speech, seconds. */
  readonly total: number
  /** hypothesis speaker → truth speaker */
  readonly mapping: Record<string, string>
}

const STEP = 0.01

/** Per 10 ms frame: which speakers (by index) are active. */
const activity = (segments: ReadonlyArray<Segment>, names: ReadonlyArray<string>, frames: number): Array<Uint8Array> =>
  names.map((name) => {
    const active = new Uint8Array(frames)
    for (const s of segments) {
      if (s.speaker !== name) continue
      active.fill(1, Math.max(0, Math.round(s.start / STEP)), Math.min(frames, Math.round(s.end / STEP)))
    }
    return active
  })

/** Every one-to-one assignment of `a` items to `b` slots (or fewer when a > b), as arrays of slot or -1. */
const assignments = (a: number, b: number): Array<Array<number>> => {
  const out: Array<Array<number>> = []
  const current: Array<number> = []
  const used = new Array<boolean>(b).fill(false)
  const walk = (i: number) => {
    if (i === a) {
      out.push([...current])
      return
    }
    for (let j = -1; j < b; j++) {
      if (j >= 0 && used[j]) continue
      // an item stays unmapped only when there are more items than slots left to fill
      if (j === -1 && a - i <= b - used.filter(Boolean).length) continue
      if (j >= 0) used[j] = true
      current.push(j)
      walk(i + 1)
      current.pop()
      if (j >= 0) used[j] = false
    }
  }
  walk(0)
  return out
}

/**
 * Frame-based diarization error rate (10 ms frames): frames within `collar` seconds of a truth
 * turn boundary are not scored; hypothesis speakers are mapped one-to-one onto truth speakers
 * the way that minimises the error; missed + false alarm + confusion over scored truth speech.
 */
export const diarizationErrorRate = (
  truth: ReadonlyArray<Segment>,
  hypothesis: ReadonlyArray<Segment>,
  duration: number,
  collar = 0.25
): DerResult => {
  const frames = Math.ceil(duration / STEP)
  const refNames = [...new Set(truth.map((s) => s.speaker))]
  const hypNames = [...new Set(hypothesis.map((s) => s.speaker))]
  const ref = activity(truth, refNames, frames)
  const hyp = activity(hypothesis, hypNames, frames)
  const scored = new Uint8Array(frames).fill(1)
  for (const s of truth) {
    for (const boundary of [s.start, s.end]) {
      scored.fill(0, Math.max(0, Math.round((boundary - collar) / STEP)), Math.min(frames, Math.round((boundary + collar) / STEP)))
    }
  }
  let total = 0, missed = 0, falseAlarm = 0
  // co-occurrence of hypothesis speaker h and truth speaker r on scored frames
  const overlap = hypNames.map(() => new Float64Array(refNames.length))
  let speakerFrames = 0 // Σ min(|ref|, |hyp|) over scored frames
  for (let f = 0; f < frames; f++) {
    if (!scored[f]) continue
    let nRef = 0, nHyp = 0
    for (const r of ref) nRef += r[f]!
    for (const h of hyp) nHyp += h[f]!
    total += nRef
    missed += Math.max(0, nRef - nHyp)
    falseAlarm += Math.max(0, nHyp - nRef)
    speakerFrames += Math.min(nRef, nHyp)
    for (let h = 0; h < hyp.length; h++) {
      if (!hyp[h]![f]) continue
      for (let r = 0; r < ref.length; r++) if (ref[r]![f]) overlap[h]![r]! += 1
    }
  }
  let bestMatched = -1
  let bestMapping: Array<number> = []
  for (const mapping of assignments(hypNames.length, refNames.length)) {
    const matched = mapping.reduce((sum, r, h) => sum + (r >= 0 ? overlap[h]![r]! : 0), 0)
    if (matched > bestMatched) {
      bestMatched = matched
      bestMapping = mapping
    }
  }
  const confusion = speakerFrames - Math.max(0, bestMatched)
  return {
    der: total > 0 ? (missed + falseAlarm + confusion) / total : 0,
    missed: missed * STEP,
    falseAlarm: falseAlarm * STEP,
    confusion: confusion * STEP,
    total: total * STEP,
    mapping: Object.fromEntries(bestMapping.flatMap((r, h) => (r >= 0 ? [[hypNames[h]!, refNames[r]!]] : [])))
  }
}

/** Rep's share of all speech time in a list of turns (each side's speech as a union of its turns). */
export const repShare = (turns: ReadonlyArray<Segment>, isRep: (speaker: string) => boolean): number => {
  const length = (segments: ReadonlyArray<Segment>) => {
    const sorted = [...segments].sort((a, b) => a.start - b.start)
    let sum = 0, end = -Infinity
    for (const s of sorted) {
      if (s.end <= end) continue
      sum += s.end - Math.max(s.start, end)
      end = s.end
    }
    return sum
  }
  const rep = length(turns.filter((t) => isRep(t.speaker)))
  const buyer = length(turns.filter((t) => !isRep(t.speaker)))
  return rep / (rep + buyer)
}
