/** Shared helpers of the analysis tests: fixtures, ground truth, and the diarization error rate. */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { decodeFile } from "../src/signal/Decode.js"
import type { AudioFormat } from "../src/Types.js"

export { FIXTURES, fixturePath as fixture, truth as readTruth, type Truth, type TruthTurn } from "../../../test/utils/Fixtures.js"

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

/** A 16-bit PCM WAV file of the given channels (all the same length). */
export const wavBytes = (channels: ReadonlyArray<Float32Array>, sampleRate: number): Uint8Array => {
  const frames = channels[0]?.length ?? 0
  const dataBytes = frames * channels.length * 2
  const bytes = new Uint8Array(44 + dataBytes)
  const view = new DataView(bytes.buffer)
  const text = (at: number, s: string) => [...s].forEach((c, i) => (bytes[at + i] = c.charCodeAt(0)))
  text(0, "RIFF")
  view.setUint32(4, 36 + dataBytes, true)
  text(8, "WAVE")
  text(12, "fmt ")
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true) // PCM
  view.setUint16(22, channels.length, true)
  view.setUint32(24, sampleRate, true)
  view.setUint32(28, sampleRate * channels.length * 2, true)
  view.setUint16(32, channels.length * 2, true)
  view.setUint16(34, 16, true)
  text(36, "data")
  view.setUint32(40, dataBytes, true)
  for (let i = 0; i < frames; i++) {
    channels.forEach((channel, c) => {
      const v = Math.max(-1, Math.min(1, channel[i]!))
      view.setInt16(44 + (i * channels.length + c) * 2, Math.round(v * 32767), true)
    })
  }
  return bytes
}

/** Concatenates Float32Arrays. */
export const concatPcm = (parts: ReadonlyArray<Float32Array>): Float32Array => {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** A private temporary directory, removed by the returned cleanup. */
export const tempDir = (): { readonly dir: string; readonly cleanup: () => void } => {
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "callsight-analysis-"))
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

/** Every 16 kHz sample of a file, per channel (tests only: fixtures are short). */
export const decodeAll = async (file: string, format: AudioFormat): Promise<Array<Float32Array>> => {
  const parts: Array<Array<Float32Array>> = []
  for await (const chunk of decodeFile(file, format)) {
    chunk.channels.forEach((samples, c) => (parts[c] ??= []).push(samples))
  }
  return parts.map(concatPcm)
}
