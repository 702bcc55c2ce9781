/**
 * Per-frame features, computed as the PCM streams past and kept compactly (a few floats per
 * 10 ms frame), so the samples themselves can be dropped chunk by chunk.
 *
 * Frames are 25 ms (400 samples at 16 kHz) every 10 ms. The signal is preceded by 120 zero
 * samples so that frame i is centred on the 10 ms interval [i/100, (i+1)/100): frame indices
 * are times.
 *
 * Per channel (speech activity): log energy, log energy of the speech band (300–3400 Hz) and
 * its spectral flatness. For the mix (speaker clustering and roles): 20 MFCCs (c0..c19) of a
 * 40-band mel filterbank, and the pitch (autocorrelation from the power spectrum, corrected for
 * the window as in Boersma 1993; 0 when unvoiced).
 */
import FFT from "fft.js"
import { ANALYSIS_RATE } from "./Resample.js"

export const FRAME_RATE = 100 // frames per second
export const HOP = ANALYSIS_RATE / FRAME_RATE // 160
export const FRAME = 400 // 25 ms
const FFT_SIZE = 512
const LEAD_IN = (FRAME - HOP) / 2 // 120: centres frame i on [i, i+1) hops
const MEL_BANDS = 40
export const MFCC_DIMS = 20
const BAND_LOW_HZ = 300
const BAND_HIGH_HZ = 3400
const EPS = 1e-10
// Pitch is read from the 0–4 kHz half of the spectrum: its transform (half the size) is the
// autocorrelation at every other lag, which is resolution enough for voices.
const PITCH_FFT_SIZE = FFT_SIZE / 2
const PITCH_RATE = ANALYSIS_RATE / 2 // lag unit of the half-size autocorrelation
const PITCH_MIN_LAG = Math.floor(PITCH_RATE / 400) // 400 Hz
const PITCH_MAX_LAG = Math.ceil(PITCH_RATE / 70) // 70 Hz
const VOICING_THRESHOLD = 0.45

/** A growable table of `dims` floats per frame, in fixed blocks so growing never copies. */
export class FrameMatrix {
  static readonly BLOCK = 8192
  private readonly blocks: Array<Float32Array> = []
  length = 0
  constructor(readonly dims: number) {}

  push(values: ArrayLike<number>): void {
    const block = this.length % FrameMatrix.BLOCK === 0 ? this.grow() : this.blocks[this.blocks.length - 1]!
    const at = (this.length % FrameMatrix.BLOCK) * this.dims
    for (let d = 0; d < this.dims; d++) block[at + d] = values[d]!
    this.length++
  }

  private grow(): Float32Array {
    const block = new Float32Array(FrameMatrix.BLOCK * this.dims)
    this.blocks.push(block)
    return block
  }

  /** The storage of `frame`: read `dims` values from `offset(frame)`. */
  block(frame: number): Float32Array {
    return this.blocks[Math.floor(frame / FrameMatrix.BLOCK)]!
  }

  offset(frame: number): number {
    return (frame % FrameMatrix.BLOCK) * this.dims
  }

  get(frame: number, dim: number): number {
    return this.block(frame)[this.offset(frame) + dim]!
  }
}

/** A growable Float32Array (one value per frame). */
export class FrameSeries {
  private data = new Float32Array(FrameMatrix.BLOCK)
  length = 0
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Float32Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = value
  }
  /** The values so far (a view; valid until the next push). */
  values(): Float32Array {
    return this.data.subarray(0, this.length)
  }
}

export interface ChannelFeatures {
  /** Frame log energy, dB (full band). */
  readonly logEnergy: Float32Array
  /** Speech-band (300–3400 Hz) log energy, dB. */
  readonly bandEnergy: Float32Array
  /** Spectral flatness of the speech band, dB (0 = white noise, very negative = tonal/harmonic). */
  readonly flatness: Float32Array
}

export interface CallFeatures {
  readonly frames: number
  readonly durationS: number
  readonly channels: ReadonlyArray<ChannelFeatures>
  /** MFCCs of the mix (the mono channel, or the mean of the two). */
  readonly mfcc: FrameMatrix
  /** Pitch of the mix, Hz; 0 where unvoiced. */
  readonly pitch: Float32Array
  /** Correlation of the two channels' samples (stereo only): near 1 means the same signal. */
  readonly channelCorrelation: number | undefined
}

const melScale = (hz: number) => 2595 * Math.log10(1 + hz / 700)
const melInverse = (mel: number) => 700 * (10 ** (mel / 2595) - 1)

/** Triangular mel filters over the power spectrum, as (first bin, weights) pairs. */
const melFilters = (): Array<{ readonly first: number; readonly weights: Float32Array }> => {
  const bins = FFT_SIZE / 2 + 1
  const low = melScale(20)
  const high = melScale(ANALYSIS_RATE / 2)
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) => melInverse(low + ((high - low) * i) / (MEL_BANDS + 1)))
  const binHz = ANALYSIS_RATE / FFT_SIZE
  return Array.from({ length: MEL_BANDS }, (_, m) => {
    const [left, centre, right] = [edges[m]!, edges[m + 1]!, edges[m + 2]!]
    const first = Math.max(0, Math.ceil(left / binHz))
    const last = Math.min(bins - 1, Math.floor(right / binHz))
    const weights = new Float32Array(Math.max(1, last - first + 1))
    for (let k = first; k <= last; k++) {
      const hz = k * binHz
      weights[k - first] = hz <= centre ? (hz - left) / (centre - left) : (right - hz) / (right - centre)
    }
    return { first, weights }
  })
}

/** DCT-II rows for c0..c(MFCC_DIMS-1) over the mel bands, orthonormal. */
const dctMatrix = (): Float32Array => {
  const m = new Float32Array(MFCC_DIMS * MEL_BANDS)
  for (let c = 0; c < MFCC_DIMS; c++) {
    const scale = Math.sqrt((c === 0 ? 1 : 2) / MEL_BANDS)
    for (let b = 0; b < MEL_BANDS; b++) m[c * MEL_BANDS + b] = scale * Math.cos((Math.PI * c * (b + 0.5)) / MEL_BANDS)
  }
  return m
}

const hamming = Float32Array.from({ length: FRAME }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (FRAME - 1)))

/** Autocorrelation of the window itself (normalised), to undo its taper on the frame's. */
const windowAutocorrelation = (): Float64Array => {
  // indexed like the pitch autocorrelation: entry L is the window's at 2L samples
  const r = new Float64Array(PITCH_MAX_LAG + 2)
  for (let lag = 0; lag < r.length; lag++) {
    let acc = 0
    for (let i = 0; i + 2 * lag < FRAME; i++) acc += hamming[i]! * hamming[i + 2 * lag]!
    r[lag] = acc
  }
  const r0 = r[0]!
  for (let lag = 0; lag < r.length; lag++) r[lag]! /= r0
  return r
}

/** One frame → spectrum-derived features; shared buffers, one instance per stream. */
const createFrameKernel = () => {
  const fft = new FFT(FFT_SIZE)
  const input = new Float64Array(FFT_SIZE)
  const spectrum = new Float64Array(FFT_SIZE * 2)
  const power = new Float64Array(FFT_SIZE / 2 + 1)
  const filters = melFilters()
  const dct = dctMatrix()
  const logMel = new Float64Array(MEL_BANDS)
  const pitchFft = new FFT(PITCH_FFT_SIZE)
  const symmetricPower = new Float64Array(PITCH_FFT_SIZE)
  const correlation = new Float64Array(PITCH_FFT_SIZE * 2)
  const windowCorrelation = windowAutocorrelation()
  const bandLow = Math.round((BAND_LOW_HZ * FFT_SIZE) / ANALYSIS_RATE)
  const bandHigh = Math.round((BAND_HIGH_HZ * FFT_SIZE) / ANALYSIS_RATE)

  /** Fills `power` from the frame at `samples[at..at+FRAME)`; returns its log energy (dB). */
  const analyse = (samples: Float32Array, at: number): number => {
    let mean = 0
    for (let i = 0; i < FRAME; i++) mean += samples[at + i]!
    mean /= FRAME
    let energy = 0
    let previous = samples[at]! - mean
    for (let i = 0; i < FRAME; i++) {
      const x = samples[at + i]! - mean
      energy += x * x
      // pre-emphasis flattens speech's spectral tilt so high bands count in the cepstrum
      input[i] = (x - 0.97 * previous) * hamming[i]!
      previous = x
    }
    fft.realTransform(spectrum, input)
    for (let k = 0; k <= FFT_SIZE / 2; k++) {
      const re = spectrum[2 * k]!, im = spectrum[2 * k + 1]!
      power[k] = re * re + im * im
    }
    return 10 * Math.log10(energy / FRAME + EPS)
  }

  /** Speech-band energy (dB) and flatness (dB) of the last analysed frame. */
  const band = (out: { energy: number; flatness: number }) => {
    let sum = 0
    let logSum = 0
    for (let k = bandLow; k <= bandHigh; k++) {
      const p = power[k]! + EPS
      sum += p
      logSum += Math.log(p)
    }
    const n = bandHigh - bandLow + 1
    out.energy = 10 * Math.log10(sum / (FRAME * FRAME) + EPS)
    out.flatness = (10 / Math.LN10) * (logSum / n - Math.log(sum / n))
  }

  /** MFCCs of the last analysed frame into `out`. */
  const mfcc = (out: Float32Array) => {
    for (let m = 0; m < MEL_BANDS; m++) {
      const { first, weights } = filters[m]!
      let e = 0
      for (let k = 0; k < weights.length; k++) e += weights[k]! * power[first + k]!
      logMel[m] = Math.log(e + 1e-6)
    }
    for (let c = 0; c < MFCC_DIMS; c++) {
      let acc = 0
      const row = c * MEL_BANDS
      for (let b = 0; b < MEL_BANDS; b++) acc += dct[row + b]! * logMel[b]!
      out[c] = acc
    }
  }

  /**
   * Pitch of the last analysed frame, Hz, or 0 when unvoiced: the autocorrelation is the
   * transform of the power spectrum; its highest peak in the 70–400 Hz lag range, corrected for
   * the window, is the period when it is strong enough.
   */
  const pitch = (): number => {
    const half = PITCH_FFT_SIZE / 2
    symmetricPower[0] = power[0]!
    for (let k = 1; k < half; k++) symmetricPower[k] = symmetricPower[PITCH_FFT_SIZE - k] = power[k]!
    symmetricPower[half] = power[half]!
    pitchFft.realTransform(correlation, symmetricPower)
    const r0 = correlation[0]!
    if (r0 <= 0) return 0
    // peaks of the corrected autocorrelation; the window correction lifts long lags, so the
    // period is the shortest lag whose peak comes close to the highest (no sub-octave errors)
    let best = VOICING_THRESHOLD
    for (let lag = PITCH_MIN_LAG; lag <= PITCH_MAX_LAG; lag++) {
      const v = correlation[2 * lag]! / r0 / windowCorrelation[lag]!
      if (v > best) best = v
    }
    if (best === VOICING_THRESHOLD) return 0
    let bestLag = 0
    for (let lag = PITCH_MIN_LAG; lag <= PITCH_MAX_LAG && bestLag === 0; lag++) {
      const here = correlation[2 * lag]!
      const isPeak = here >= correlation[2 * (lag - 1)]! && here >= correlation[2 * (lag + 1)]!
      if (isPeak && here / r0 / windowCorrelation[lag]! >= 0.85 * best) bestLag = lag
    }
    if (bestLag === 0) return 0
    // parabolic interpolation of the peak for sub-sample precision
    const a = correlation[2 * (bestLag - 1)]!, b = correlation[2 * bestLag]!, c = correlation[2 * (bestLag + 1)]!
    const denominator = a - 2 * b + c
    const shift = denominator < 0 ? (0.5 * (a - c)) / denominator : 0
    return PITCH_RATE / (bestLag + shift)
  }

  return { analyse, band, mfcc, pitch }
}

/** Holds the not-yet-framed samples of one stream. */
class Framer {
  private buffer: Float32Array
  private length: number
  constructor() {
    this.buffer = new Float32Array(FRAME * 64)
    this.length = LEAD_IN // the zero lead-in
  }
  append(samples: Float32Array): void {
    if (this.length + samples.length > this.buffer.length) {
      const grown = new Float32Array(Math.max(this.buffer.length * 2, this.length + samples.length))
      grown.set(this.buffer.subarray(0, this.length))
      this.buffer = grown
    }
    this.buffer.set(samples, this.length)
    this.length += samples.length
  }
  /** Calls `each(buffer, offset)` for every complete frame, then drops the consumed samples. */
  frames(each: (buffer: Float32Array, offset: number) => void): number {
    let at = 0
    let count = 0
    while (at + FRAME <= this.length) {
      each(this.buffer, at)
      at += HOP
      count++
    }
    this.buffer.copyWithin(0, at, this.length)
    this.length -= at
    return count
  }
}

/** Accumulates the features of a call from its 16 kHz chunks. */
export const createFeatureExtractor = (channelCount: number) => {
  const channels = Array.from({ length: channelCount }, () => ({
    framer: new Framer(),
    kernel: createFrameKernel(),
    logEnergy: new FrameSeries(),
    bandEnergy: new FrameSeries(),
    flatness: new FrameSeries()
  }))
  const mix = channelCount === 1 ? undefined : { framer: new Framer(), kernel: createFrameKernel() }
  const mfcc = new FrameMatrix(MFCC_DIMS)
  const pitch = new FrameSeries()
  const coefficients = new Float32Array(MFCC_DIMS)
  const bandOut = { energy: 0, flatness: 0 }
  let samples = 0
  let sumLR = 0, sumLL = 0, sumRR = 0

  const run = () => {
    for (const ch of channels) {
      ch.framer.frames((buffer, at) => {
        ch.logEnergy.push(ch.kernel.analyse(buffer, at))
        ch.kernel.band(bandOut)
        ch.bandEnergy.push(bandOut.energy)
        ch.flatness.push(bandOut.flatness)
        if (!mix) {
          ch.kernel.mfcc(coefficients)
          mfcc.push(coefficients)
          pitch.push(ch.kernel.pitch())
        }
      })
    }
    mix?.framer.frames((buffer, at) => {
      mix.kernel.analyse(buffer, at)
      mix.kernel.mfcc(coefficients)
      mfcc.push(coefficients)
      pitch.push(mix.kernel.pitch())
    })
  }

  const push = (chunk: ReadonlyArray<Float32Array>) => {
    const n = chunk[0]!.length
    samples += n
    chunk.forEach((data, c) => channels[c]!.framer.append(data))
    if (mix) {
      const left = chunk[0]!, right = chunk[1]!
      const mid = new Float32Array(n)
      for (let i = 0; i < n; i++) {
        const l = left[i]!, r = right[i]!
        mid[i] = 0.5 * (l + r)
        sumLR += l * r
        sumLL += l * l
        sumRR += r * r
      }
      mix.framer.append(mid)
    }
    run()
  }

  const finish = (): CallFeatures => {
    // pad so the last partial hop gets a frame: frames = ceil(samples / HOP)
    const frames = Math.ceil(samples / HOP)
    const pad = new Float32Array(FRAME)
    for (const ch of channels) ch.framer.append(pad)
    mix?.framer.append(pad)
    run()
    return {
      frames,
      durationS: samples / ANALYSIS_RATE,
      channels: channels.map((ch) => ({
        logEnergy: ch.logEnergy.values().subarray(0, frames),
        bandEnergy: ch.bandEnergy.values().subarray(0, frames),
        flatness: ch.flatness.values().subarray(0, frames)
      })),
      mfcc,
      pitch: pitch.values().subarray(0, frames),
      channelCorrelation: mix ? sumLR / Math.sqrt(sumLL * sumRR + EPS) : undefined
    }
  }

  return { push, finish }
}
