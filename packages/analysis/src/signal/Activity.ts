/**
 * Speech activity per 10 ms frame, from the compact features of one channel.
 *
 * A frame is speech when its speech-band energy stands clear of an adaptive noise floor: the
 * floor is the running minimum over a few seconds (minimum statistics: between words the
 * signal drops to the noise), capped by the call's quiet level so that a long stretch without
 * a pause does not lift the floor into the speech. Frames that are loud but spectrally flat
 * (hiss, rumble, clicks) need a larger margin. The raw decision is then smoothed: short blips
 * removed, a hangover keeps word endings and short gaps are closed.
 */
import type { ChannelFeatures } from "./Features.js"

export interface ActivityOptions {
  /** Margin over the noise floor, dB. */
  readonly marginDb: number
  /** Below the loudest speech by more than this, dB, a frame is never speech. */
  readonly dynamicRangeDb: number
  /** Half-width of the running-minimum window, frames. */
  readonly floorWindow: number
  /** Frames of speech kept after the energy drops (word endings, plosives). */
  readonly hangover: number
  /** Frames of speech added before an onset. */
  readonly leadIn: number
  /** Speech runs shorter than this are dropped, frames. */
  readonly minSpeech: number
  /** Gaps shorter than this are closed, frames. */
  readonly minGap: number
}

export const defaultActivityOptions: ActivityOptions = {
  marginDb: 10,
  dynamicRangeDb: 45,
  floorWindow: 300,
  hangover: 15,
  leadIn: 5,
  minSpeech: 12,
  minGap: 15
}

const MIN_MARGIN_DB = 5

/** The value below which `fraction` of the finite values fall (0.5 dB resolution). */
export const percentile = (values: Float32Array, fraction: number): number => {
  const low = -120, high = 40, step = 0.5
  const bins = new Uint32Array(Math.ceil((high - low) / step) + 1)
  let count = 0
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!
    if (!Number.isFinite(v)) continue
    bins[Math.max(0, Math.min(bins.length - 1, Math.round((v - low) / step)))]!++
    count++
  }
  if (count === 0) return low
  const target = fraction * count
  let seen = 0
  for (let b = 0; b < bins.length; b++) {
    seen += bins[b]!
    if (seen >= target) return low + b * step
  }
  return high
}

/** Moving average over 2·half+1 frames. */
const smooth = (values: Float32Array, half: number): Float32Array => {
  const out = new Float32Array(values.length)
  let sum = 0
  let n = 0
  for (let i = 0; i < Math.min(half, values.length); i++) {
    sum += values[i]!
    n++
  }
  for (let i = 0; i < values.length; i++) {
    const add = i + half
    if (add < values.length) {
      sum += values[add]!
      n++
    }
    const drop = i - half - 1
    if (drop >= 0) {
      sum -= values[drop]!
      n--
    }
    out[i] = sum / n
  }
  return out
}

/**
 * The running minimum over about [i - half, i + half], via block minima (O(n)): frame i's value
 * is `floors[Math.floor(i / block)]` (one value per block, not per frame).
 */
const runningMinimum = (values: Float32Array, half: number): { readonly block: number; readonly floors: Float32Array } => {
  const block = Math.max(1, Math.floor(half / 8))
  const blocks = Math.ceil(values.length / block)
  const minima = new Float32Array(blocks).fill(Infinity)
  for (let i = 0; i < values.length; i++) {
    const b = Math.floor(i / block)
    if (values[i]! < minima[b]!) minima[b] = values[i]!
  }
  const floors = new Float32Array(blocks)
  const reach = Math.ceil(half / block)
  for (let b = 0; b < blocks; b++) {
    let m = Infinity
    for (let k = Math.max(0, b - reach); k <= Math.min(blocks - 1, b + reach); k++) m = Math.min(m, minima[k]!)
    floors[b] = m
  }
  return { block, floors }
}

/** Sets `mask[from..to)` to `value`. */
const fill = (mask: Uint8Array, from: number, to: number, value: number) => mask.fill(value, Math.max(0, from), Math.min(mask.length, to))

/** Runs of 1s: [start, end) frame pairs. */
export const runs = (mask: Uint8Array): Array<readonly [number, number]> => {
  const out: Array<readonly [number, number]> = []
  let start = -1
  for (let i = 0; i <= mask.length; i++) {
    const on = i < mask.length && mask[i] === 1
    if (on && start < 0) start = i
    else if (!on && start >= 0) {
      out.push([start, i])
      start = -1
    }
  }
  return out
}

/**
 * Closes gaps shorter than `minGap` and drops runs shorter than `minRun` (in that order), in a
 * copy of `mask` (or in `into`, which may be `mask` itself).
 */
export const cleanMask = (mask: Uint8Array, minGap: number, minRun: number, into?: Uint8Array): Uint8Array => {
  const out = into ? (into === mask ? into : (into.set(mask), into)) : mask.slice()
  const on = runs(out)
  for (let i = 1; i < on.length; i++) {
    if (on[i]![0] - on[i - 1]![1] < minGap) fill(out, on[i - 1]![1], on[i]![0], 1)
  }
  for (const [start, end] of runs(out)) if (end - start < minRun) fill(out, start, end, 0)
  return out
}

/** The speech mask of one channel: 1 = speech, per frame. */
export const detectSpeech = (features: ChannelFeatures, options: ActivityOptions = defaultActivityOptions): Uint8Array => {
  const energy = smooth(features.bandEnergy, 2)
  const n = energy.length
  const loud = percentile(energy, 0.97)
  const quiet = percentile(energy, 0.1)
  const localFloor = runningMinimum(energy, options.floorWindow)
  const raw = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const floor = Math.min(localFloor.floors[Math.floor(i / localFloor.block)]!, quiet + options.marginDb)
    // a noisy call gets a smaller margin (half its speech-to-floor range), but never less than
    // MIN_MARGIN_DB: steady noise alone spans a few dB and is not speech
    const margin = Math.max(MIN_MARGIN_DB, Math.min(options.marginDb, (loud - floor) / 2))
    // and never in the deep quiet far below the loudest speech
    const threshold = Math.max(floor + margin, loud - options.dynamicRangeDb)
    const e = energy[i]!
    // noise-like spectra (flatness near 0 dB) need a larger margin than voiced speech
    const noiseLike = features.flatness[i]! > -4
    raw[i] = e > threshold + (noiseLike ? 6 : 0) ? 1 : 0
  }
  // blips of a frame or two are clicks, not speech
  const steady = runs(cleanMask(raw, 1, 3, raw))
  // hangover after each run, a little lead-in before it (into the same array, cleared)
  const held = raw.fill(0)
  for (const [start, end] of steady) fill(held, start - options.leadIn, end + options.hangover, 1)
  return cleanMask(held, options.minGap, options.minSpeech, held)
}
