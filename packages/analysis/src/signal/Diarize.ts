/**
 * Who spoke when.
 *
 * Stereo with separable channels: a speaker per channel. Each channel's speech activity is its
 * speaker's, except where it is only the other party leaking in (much quieter than the other
 * channel at that moment). Both channels may be active at once: overlaps are kept exactly.
 *
 * Mono: 1.5 s windows over speech (0.75 s apart) are described by the mean and spread of their
 * normalised MFCCs, standardised across the call, and clustered by average linkage with the
 * number of speakers chosen from the data (2–6, `Cluster.ts`) in two views of the same vectors:
 * by direction around the call's mean (cosine), which separates voices best when the mean lies
 * between them, and by position (Euclidean), which still works when one voice dominates the call
 * and so sits at its mean (a rep's monologue with a buyer's "okay" in it: around that centre the
 * rep's windows point every way and cosine sees no structure). The view whose clustering has the
 * higher silhouette wins. Then the windows are resegmented frame by frame: a voice model (GMM) per speaker and
 * a Viterbi pass whose switch penalty keeps turns from flickering; then once more with models
 * trained on that result. Finally turns shorter than the minimum are absorbed by their
 * neighbours.
 *
 * Times here are frame indices (10 ms); `Acoustic.ts` turns them into seconds.
 */
import { cleanMask, runs } from "./Activity.js"
import { centroid, clusterDistances, distances, type Metric, nearest, normalize } from "./Cluster.js"
import type { ChannelFeatures, FrameMatrix } from "./Features.js"
import { FRAME_RATE } from "./Features.js"
import { logLikelihoods, trainGmm, type Gmm } from "./Gmm.js"

export interface SpeakerSegment {
  readonly speaker: number
  readonly start: number
  readonly end: number
}

export interface Diarization {
  readonly method: "channel" | "clustering"
  /** Speakers 0..speakers-1, numbered in order of first speech. */
  readonly speakers: number
  readonly segments: ReadonlyArray<SpeakerSegment>
  /** Mono: the view of the windows the speakers were found in (see `diarizeMono`), for the record. */
  readonly metric?: Metric
  /** Silhouette of each candidate speaker count (mono), for the record. */
  readonly countScores: ReadonlyArray<{ readonly k: number; readonly silhouette: number }>
}

export interface DiarizeOptions {
  /** A speaker's speech separated by less than this (frames) is one turn. */
  readonly turnGap: number
  /** Speaker runs shorter than this (frames) that touch another speaker's speech are absorbed. */
  readonly minTurn: number
  readonly minSpeakers: number
  readonly maxSpeakers: number
}

export const defaultDiarizeOptions: DiarizeOptions = {
  turnGap: Math.round(0.75 * FRAME_RATE),
  minTurn: Math.round(0.5 * FRAME_RATE),
  minSpeakers: 2,
  maxSpeakers: 6
}

// ---------------------------------------------------------------------------------------------
// Turns from per-frame labels

/** Segments of each speaker, joining that speaker's runs across short gaps nobody else fills. */
export const labelsToSegments = (labels: Int8Array, turnGap: number): Array<SpeakerSegment> => {
  const segments: Array<{ speaker: number; start: number; end: number }> = []
  let i = 0
  while (i < labels.length) {
    const speaker = labels[i]!
    if (speaker < 0) {
      i++
      continue
    }
    let end = i
    while (end < labels.length && labels[end] === speaker) end++
    const last = segments[segments.length - 1]
    if (last && last.speaker === speaker && i - last.end < turnGap) last.end = end
    else segments.push({ speaker, start: i, end })
    i = end
  }
  return segments
}

/** Renumbers speakers by first appearance and drops unused numbers. */
const renumber = (segments: ReadonlyArray<SpeakerSegment>): { speakers: number; segments: Array<SpeakerSegment> } => {
  const order = new Map<number, number>()
  for (const s of [...segments].sort((a, b) => a.start - b.start)) if (!order.has(s.speaker)) order.set(s.speaker, order.size)
  return {
    speakers: order.size,
    segments: segments.map((s) => ({ ...s, speaker: order.get(s.speaker)! })).sort((a, b) => a.start - b.start || a.speaker - b.speaker)
  }
}

// ---------------------------------------------------------------------------------------------
// Stereo

/** Whether the two channels carry different parties (not one signal twice). */
export const channelsSeparable = (correlation: number | undefined, masks: ReadonlyArray<Uint8Array>): boolean => {
  if (correlation === undefined || masks.length < 2) return false
  if (Math.abs(correlation) > 0.8) return false
  // a channel that never speaks carries nobody: treat the file as mono
  return masks.every((m) => m.reduce((n, v) => n + v, 0) > FRAME_RATE)
}

/** A party's speech on its own channel, without the other party's leak into it. */
export const diarizeChannels = (
  channels: ReadonlyArray<ChannelFeatures>,
  masks: ReadonlyArray<Uint8Array>,
  options: DiarizeOptions = defaultDiarizeOptions
): Diarization => {
  const LEAK_DB = 15
  const segments: Array<SpeakerSegment> = []
  channels.forEach((own, c) => {
    const other = channels[1 - c]!
    const otherMask = masks[1 - c]!
    const mask = masks[c]!.slice()
    for (let i = 0; i < mask.length; i++) {
      if (mask[i] && otherMask[i] && own.bandEnergy[i]! < other.bandEnergy[i]! - LEAK_DB) mask[i] = 0
    }
    const clean = cleanMask(mask, 1, Math.round(0.15 * FRAME_RATE))
    const labels = new Int8Array(clean.length).fill(-1)
    for (const [start, end] of runs(clean)) labels.fill(c, start, end)
    segments.push(...labelsToSegments(labels, options.turnGap))
  })
  // channel order is the speaker order (S1 = left), whoever speaks first
  return {
    method: "channel",
    speakers: channels.length,
    segments: segments.sort((a, b) => a.start - b.start || a.speaker - b.speaker),
    countScores: []
  }
}

// ---------------------------------------------------------------------------------------------
// Mono

const WINDOW = Math.round(1.5 * FRAME_RATE)
const WINDOW_HOP = Math.round(0.75 * FRAME_RATE)
const MIN_WINDOW = Math.round(0.5 * FRAME_RATE)
const MAX_CLUSTER_ITEMS = 1200
/** A cluster of fewer windows than this share (and at least 3, about 3 s) is an outlier, not a speaker. */
const MIN_SPEAKER_SHARE = 0.02
const GMM_COMPONENTS = 8
const GMM_MAX_FRAMES = 20_000
const SWITCH_PENALTY = 40 // nats: about 0.2–0.4 s of clear evidence to change speaker mid-speech
const GAP_SWITCH_PENALTY = 8 // changing speaker across a pause is cheap

/** Reads normalised MFCC rows of speech frames. */
export const createReader = (mfcc: FrameMatrix, mask: Uint8Array) => {
  const dims = mfcc.dims
  const mean = new Float64Array(dims)
  const scale = new Float64Array(dims)
  let count = 0
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue
    const block = mfcc.block(i), at = mfcc.offset(i)
    for (let d = 0; d < dims; d++) mean[d]! += block[at + d]!
    count++
  }
  for (let d = 0; d < dims; d++) mean[d]! /= Math.max(1, count)
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue
    const block = mfcc.block(i), at = mfcc.offset(i)
    for (let d = 0; d < dims; d++) {
      const e = block[at + d]! - mean[d]! // e * e is e ** 2 to the bit, without the call
      scale[d]! += e * e
    }
  }
  for (let d = 0; d < dims; d++) scale[d] = 1 / Math.sqrt(scale[d]! / Math.max(1, count) + 1e-8)
  /** Normalised row of `frame` into `out[offset..offset+dims)`. */
  const read = (frame: number, out: Float32Array, offset = 0) => {
    const block = mfcc.block(frame), at = mfcc.offset(frame)
    for (let d = 0; d < dims; d++) out[offset + d] = (block[at + d]! - mean[d]!) * scale[d]!
  }
  return { dims, read }
}

type Reader = ReturnType<typeof createReader>

interface Window {
  readonly start: number
  readonly end: number
}

/** ~1.5 s windows over the speech runs (a shorter run is one window; very short runs none). */
export const speechWindows = (mask: Uint8Array): Array<Window> => {
  const windows: Array<Window> = []
  for (const [start, end] of runs(mask)) {
    const length = end - start
    if (length < MIN_WINDOW) continue
    if (length <= WINDOW) {
      windows.push({ start, end })
      continue
    }
    let at = start
    for (; at + WINDOW <= end; at += WINDOW_HOP) windows.push({ start: at, end: at + WINDOW })
    if (at - WINDOW_HOP + WINDOW < end) windows.push({ start: end - WINDOW, end })
  }
  return windows
}

/** Mean and standard deviation of each normalised MFCC over each window, standardised across windows. */
export const embed = (windows: ReadonlyArray<Window>, reader: Reader): { vectors: Float32Array; dims: number } => {
  const d = reader.dims
  const dims = 2 * d
  const vectors = new Float32Array(windows.length * dims)
  const row = new Float32Array(d)
  windows.forEach((w, index) => {
    const base = index * dims
    const n = w.end - w.start
    for (let f = w.start; f < w.end; f++) {
      reader.read(f, row)
      for (let k = 0; k < d; k++) {
        vectors[base + k]! += row[k]! / n
        vectors[base + d + k]! += (row[k]! * row[k]!) / n
      }
    }
    for (let k = 0; k < d; k++) {
      const m = vectors[base + k]!
      vectors[base + d + k] = Math.sqrt(Math.max(0, vectors[base + d + k]! - m * m))
    }
  })
  // every statistic on the same footing
  const n = windows.length
  for (let k = 0; k < dims; k++) {
    let mean = 0
    for (let i = 0; i < n; i++) mean += vectors[i * dims + k]! / n
    let variance = 0
    for (let i = 0; i < n; i++) variance += (vectors[i * dims + k]! - mean) ** 2 / n
    const scale = 1 / Math.sqrt(variance + 1e-8)
    for (let i = 0; i < n; i++) vectors[i * dims + k] = (vectors[i * dims + k]! - mean) * scale
  }
  return { vectors, dims }
}

/** A copy of `vectors` with every row of `dims` values scaled to unit length. */
const unitRows = (vectors: Float32Array, dims: number): Float32Array => {
  const unit = vectors.slice()
  for (let i = 0; i < unit.length; i += dims) normalize(unit.subarray(i, i + dims))
  return unit
}

/**
 * The arrays the resegmentation passes share (allocated once: a long call's passes would
 * otherwise each leave megabytes of them to the collector).
 */
interface Workspace {
  /** The speech frames' mask. */
  readonly mask: Uint8Array
  /** Per speech frame (Viterbi step): the best previous state, and which states came from it (bit s). */
  readonly from: Int8Array
  readonly moved: Uint8Array | Uint32Array
  /** Room for one speaker's training frames. */
  readonly frames: Float32Array
}

const createWorkspace = (mask: Uint8Array, states: number, dims: number): Workspace => {
  let count = 0
  for (let i = 0; i < mask.length; i++) if (mask[i]) count++
  return {
    mask,
    from: new Int8Array(count),
    moved: states <= 8 ? new Uint8Array(count) : new Uint32Array(count),
    frames: new Float32Array(Math.min(count, GMM_MAX_FRAMES) * dims)
  }
}

/** Trains one GMM per speaker on (an even spread of) the frames carrying its label. */
const trainSpeakerModels = (labels: Int8Array, speakers: number, reader: Reader, workspace: Workspace): Array<Gmm | undefined> => {
  const counts = new Int32Array(speakers)
  for (const l of labels) if (l >= 0) counts[l]!++
  return Array.from({ length: speakers }, (_, s) => {
    const total = counts[s]!
    if (total < MIN_WINDOW) return undefined
    const take = Math.min(total, GMM_MAX_FRAMES)
    // every speaker's frames in turn in the same buffer
    const data = workspace.frames.subarray(0, take * reader.dims)
    let seen = 0
    let taken = 0
    for (let i = 0; i < labels.length && taken < take; i++) {
      if (labels[i] !== s) continue
      // keep frame number `seen` when it crosses the next even step
      if (Math.floor(((seen + 1) * take) / total) > taken) reader.read(i, data, taken++ * reader.dims)
      seen++
    }
    return trainGmm(data, taken, reader.dims, GMM_COMPONENTS)
  })
}

/**
 * Viterbi over the speech frames, into `labels`: each frame scores its speaker models; changing
 * speaker costs `SWITCH_PENALTY` inside continuous speech and `GAP_SWITCH_PENALTY` across a pause.
 */
const viterbi = (labels: Int8Array, models: ReadonlyArray<Gmm | undefined>, reader: Reader, workspace: Workspace): Int8Array => {
  const states = models.length
  const { mask, from, moved } = workspace
  labels.fill(-1)
  if (from.length === 0) return labels
  let score = new Float64Array(states)
  let next = new Float64Array(states)
  const row = new Float32Array(reader.dims)
  const emit = (frame: number, out: Float64Array) => {
    reader.read(frame, row)
    logLikelihoods(models, row, 0, out)
  }
  const emission = new Float64Array(states)
  // t counts the speech frames; `previous` is the last one before frame i
  let t = -1
  let previous = -1
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue
    t++
    if (t === 0) {
      emit(i, score)
      previous = i
      continue
    }
    const penalty = i - previous > 1 ? GAP_SWITCH_PENALTY : SWITCH_PENALTY
    previous = i
    let bestPrevious = 0
    for (let s = 1; s < states; s++) if (score[s]! > score[bestPrevious]!) bestPrevious = s
    emit(i, emission)
    let bits = 0
    for (let s = 0; s < states; s++) {
      const stay = score[s]!
      const move = score[bestPrevious]! - penalty
      if (stay >= move || bestPrevious === s) {
        next[s] = stay + emission[s]!
      } else {
        next[s] = move + emission[s]!
        bits |= 1 << s
      }
    }
    from[t] = bestPrevious
    moved[t] = bits
    const swap = score
    score = next
    next = swap
  }
  let state = 0
  for (let s = 1; s < states; s++) if (score[s]! > score[state]!) state = s
  for (let i = mask.length - 1; i >= 0; i--) {
    if (!mask[i]) continue
    labels[i] = state
    if ((moved[t]! >> state) & 1) state = from[t]!
    t--
  }
  return labels
}

/**
 * Absorbs runs shorter than `minTurn` frames that touch another speaker's speech (no pause in
 * between) into the longer neighbour: flicker, not a turn. Isolated short answers stay.
 */
const absorbShortRuns = (labels: Int8Array, minTurn: number): Int8Array => {
  const out = labels.slice()
  for (let pass = 0; pass < 3; pass++) {
    let changed = false
    let i = 0
    while (i < out.length) {
      const speaker = out[i]!
      let end = i
      while (end < out.length && out[end] === speaker) end++
      if (speaker >= 0 && end - i < minTurn) {
        const before = i > 0 ? out[i - 1]! : -1
        const after = end < out.length ? out[end]! : -1
        const lengthOf = (from: number, step: number, label: number) => {
          let n = 0
          for (let k = from; k >= 0 && k < out.length && out[k] === label; k += step) n++
          return n
        }
        const beforeLength = before >= 0 ? lengthOf(i - 1, -1, before) : 0
        const afterLength = after >= 0 ? lengthOf(end, 1, after) : 0
        const target = beforeLength >= afterLength ? before : after
        if (target >= 0) {
          out.fill(target, i, end)
          changed = true
        }
      }
      i = end
    }
    if (!changed) break
  }
  return out
}

/** Mono diarization by clustering (see the module comment). */
export const diarizeMono = (
  mfcc: FrameMatrix,
  mask: Uint8Array,
  options: DiarizeOptions = defaultDiarizeOptions,
  onProgress?: (fraction: number) => void
): Diarization => {
  const reader = createReader(mfcc, mask)
  const windows = speechWindows(mask)
  if (windows.length === 0) {
    // too little speech to tell voices apart: one speaker
    const labels = new Int8Array(mask.length).fill(-1)
    for (const [start, end] of runs(mask)) labels.fill(0, start, end)
    return { method: "clustering", ...renumber(labelsToSegments(labels, options.turnGap)), countScores: [] }
  }
  const { vectors, dims } = embed(windows, reader)
  onProgress?.(0.2)

  // cluster an even spread of at most MAX_CLUSTER_ITEMS windows in both views, keep the better
  // view (by silhouette), then place every window by that view's nearest centroid
  const step = Math.max(1, windows.length / MAX_CLUSTER_ITEMS)
  const picked: Array<number> = []
  for (let x = 0; Math.floor(x) < windows.length; x += step) picked.push(Math.floor(x))
  const clusterOptions = { minK: options.minSpeakers, maxK: options.maxSpeakers, minShare: MIN_SPEAKER_SHARE }
  // the two views take turns with one distance matrix
  const matrix = new Float32Array(picked.length * picked.length)
  const views = (["cosine", "euclidean"] as const).map((metric) => {
    const all = metric === "cosine" ? unitRows(vectors, dims) : vectors
    const sample = new Float32Array(picked.length * dims)
    picked.forEach((w, i) => sample.set(all.subarray(w * dims, (w + 1) * dims), i * dims))
    const clustering = clusterDistances(distances(metric, sample, picked.length, dims, matrix), picked.length, clusterOptions)
    return { metric, all, sample, clustering }
  })
  const view = views[1]!.clustering.silhouette > views[0]!.clustering.silhouette ? views[1]! : views[0]!
  const { metric, all, sample, clustering } = view
  const centroids = Array.from({ length: clustering.k }, (_, c) => centroid(sample, dims, clustering.labels, c, metric))
  onProgress?.(0.4)

  // first labels: each speech frame takes the label of the window centred nearest to it
  let labels: Int8Array = new Int8Array(mask.length).fill(-1)
  const windowLabels = windows.map((_, i) => nearest(all.subarray(i * dims, (i + 1) * dims), centroids, metric))
  windows.forEach((w, i) => {
    const from = i > 0 && windows[i - 1]!.end > w.start ? Math.round((w.start + windows[i - 1]!.end) / 2) : w.start
    labels.fill(windowLabels[i]!, from, w.end)
  })

  // resegment twice: models from the current labels, Viterbi over all speech frames
  const workspace = createWorkspace(mask, clustering.k, reader.dims)
  let spare: Int8Array = new Int8Array(mask.length)
  for (let pass = 0; pass < 2; pass++) {
    const models = trainSpeakerModels(labels, clustering.k, reader, workspace)
    const next = viterbi(spare, models, reader, workspace)
    spare = labels
    labels = next
    onProgress?.(0.6 + 0.2 * pass)
  }
  labels = absorbShortRuns(labels, options.minTurn)
  const { speakers, segments } = renumber(labelsToSegments(labels, options.turnGap))
  return { method: "clustering", speakers, segments, metric, countScores: clustering.scores }
}
