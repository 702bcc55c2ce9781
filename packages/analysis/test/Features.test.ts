/**
 * The feature extraction is fast, and gives the plain formulas' features to the bit: every
 * series (speech-band energy, flatness, pitch) and every MFCC is compared, as the Float32 the
 * analysis keeps, with a straightforward reference computed here the way the extraction was
 * first written (fft.js, one frame and one sum at a time, a log per band power).
 */
import { describe, expect, it } from "@effect/vitest"
import FFT from "fft.js"
import { createFeatureExtractor, FRAME, HOP, MFCC_KEPT } from "../src/signal/Features.js"
import { ANALYSIS_RATE } from "../src/signal/Resample.js"
import { decodeAll, fixture } from "./utils.js"

const FFT_SIZE = 512
const MEL_BANDS = 40
const EPS = 1e-10

/** The features of one channel (the mix, for MFCCs and pitch), frame by frame, the plain way. */
const reference = (pcm: Float32Array) => {
  const hamming = Float32Array.from({ length: FRAME }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (FRAME - 1)))
  const melScale = (hz: number) => 2595 * Math.log10(1 + hz / 700)
  const melInverse = (mel: number) => 700 * (10 ** (mel / 2595) - 1)
  const low = melScale(20), high = melScale(ANALYSIS_RATE / 2)
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) => melInverse(low + ((high - low) * i) / (MEL_BANDS + 1)))
  const binHz = ANALYSIS_RATE / FFT_SIZE
  const filters = Array.from({ length: MEL_BANDS }, (_, m) => {
    const [left, centre, right] = [edges[m]!, edges[m + 1]!, edges[m + 2]!]
    const first = Math.max(0, Math.ceil(left / binHz))
    const last = Math.min(FFT_SIZE / 2, Math.floor(right / binHz))
    const weights = new Float32Array(Math.max(1, last - first + 1))
    for (let k = first; k <= last; k++) {
      const hz = k * binHz
      weights[k - first] = hz <= centre ? (hz - left) / (centre - left) : (right - hz) / (right - centre)
    }
    return { first, weights }
  })
  const dct = new Float32Array(20 * MEL_BANDS)
  for (let c = 0; c < 20; c++) {
    const scale = Math.sqrt((c === 0 ? 1 : 2) / MEL_BANDS)
    for (let b = 0; b < MEL_BANDS; b++) dct[c * MEL_BANDS + b] = scale * Math.cos((Math.PI * c * (b + 0.5)) / MEL_BANDS)
  }
  const maxLag = Math.ceil(8000 / 70), minLag = Math.floor(8000 / 400)
  const windowCorrelation = new Float64Array(maxLag + 2)
  for (let lag = 0; lag < windowCorrelation.length; lag++) {
    let acc = 0
    for (let i = 0; i + 2 * lag < FRAME; i++) acc += hamming[i]! * hamming[i + 2 * lag]!
    windowCorrelation[lag] = acc
  }
  const w0 = windowCorrelation[0]!
  for (let lag = 0; lag < windowCorrelation.length; lag++) windowCorrelation[lag]! /= w0

  const lead = (FRAME - HOP) / 2
  const padded = new Float32Array(lead + pcm.length + FRAME)
  padded.set(pcm, lead)
  const frames = Math.ceil(pcm.length / HOP)
  const bandEnergy = new Float32Array(frames), flatness = new Float32Array(frames), pitch = new Float32Array(frames)
  const mfcc = new Float32Array(frames * MFCC_KEPT)
  const fft = new FFT(FFT_SIZE), pitchFft = new FFT(FFT_SIZE / 2)
  const input = new Float64Array(FFT_SIZE), spectrum = new Float64Array(2 * FFT_SIZE), power = new Float64Array(FFT_SIZE / 2 + 1)
  const symmetric = new Float64Array(FFT_SIZE / 2), correlation = new Float64Array(FFT_SIZE)
  for (let f = 0; f < frames; f++) {
    const at = f * HOP
    let mean = 0
    for (let i = 0; i < FRAME; i++) mean += padded[at + i]!
    mean /= FRAME
    let previous = padded[at]! - mean
    for (let i = 0; i < FRAME; i++) {
      const x = padded[at + i]! - mean
      input[i] = (x - 0.97 * previous) * hamming[i]!
      previous = x
    }
    fft.realTransform(spectrum, input)
    for (let k = 0; k <= FFT_SIZE / 2; k++) power[k] = spectrum[2 * k]! ** 2 + spectrum[2 * k + 1]! ** 2
    // speech band
    let sum = 0, logSum = 0
    for (let k = 10; k <= 109; k++) {
      const p = power[k]! + EPS
      sum += p
      logSum += Math.log(p)
    }
    bandEnergy[f] = 10 * Math.log10(sum / (FRAME * FRAME) + EPS)
    flatness[f] = (10 / Math.LN10) * (logSum / 100 - Math.log(sum / 100))
    // MFCCs c1..c19
    const logMel = filters.map(({ first, weights }) => {
      let e = 0
      for (let k = 0; k < weights.length; k++) e += weights[k]! * power[first + k]!
      return Math.log(e + 1e-6)
    })
    for (let c = 1; c < 20; c++) {
      let acc = 0
      for (let b = 0; b < MEL_BANDS; b++) acc += dct[c * MEL_BANDS + b]! * logMel[b]!
      mfcc[f * MFCC_KEPT + c - 1] = acc
    }
    // pitch
    const half = FFT_SIZE / 4
    symmetric[0] = power[0]!
    for (let k = 1; k < half; k++) symmetric[k] = symmetric[FFT_SIZE / 2 - k] = power[k]!
    symmetric[half] = power[half]!
    pitchFft.realTransform(correlation, symmetric)
    const r0 = correlation[0]!
    let hz = 0
    if (r0 > 0) {
      let best = 0.45
      for (let lag = minLag; lag <= maxLag; lag++) best = Math.max(best, correlation[2 * lag]! / r0 / windowCorrelation[lag]!)
      let bestLag = 0
      for (let lag = minLag; best > 0.45 && lag <= maxLag && bestLag === 0; lag++) {
        const here = correlation[2 * lag]!
        const isPeak = here >= correlation[2 * (lag - 1)]! && here >= correlation[2 * (lag + 1)]!
        if (isPeak && here / r0 / windowCorrelation[lag]! >= 0.85 * best) bestLag = lag
      }
      if (bestLag > 0) {
        const a = correlation[2 * (bestLag - 1)]!, b = correlation[2 * bestLag]!, c = correlation[2 * (bestLag + 1)]!
        const denominator = a - 2 * b + c
        hz = 8000 / (bestLag + (denominator < 0 ? (0.5 * (a - c)) / denominator : 0))
      }
    }
    pitch[f] = hz
  }
  return { frames, bandEnergy, flatness, pitch, mfcc }
}

/** The extractor's features, fed in pieces of uneven sizes. */
const extracted = (pcm: Float32Array) => {
  const extractor = createFeatureExtractor(1)
  for (let at = 0, size = 4001; at < pcm.length; at += size, size = (size * 13) % 70_001 + 97) extractor.push([pcm.subarray(at, at + size)])
  const features = extractor.finish()
  const mfcc = new Float32Array(features.frames * MFCC_KEPT)
  for (let f = 0; f < features.frames; f++) for (let d = 0; d < MFCC_KEPT; d++) mfcc[f * MFCC_KEPT + d] = features.mfcc.get(f, d)
  return { frames: features.frames, ...features.channels[0]!, pitch: features.pitch, mfcc }
}

/** Indices where two Float32Arrays differ (NaN equals NaN). */
const differences = (a: Float32Array, b: Float32Array) => {
  const out: Array<number> = []
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (!Object.is(a[i], b[i]) && !(a[i] === 0 && b[i] === 0)) out.push(i)
  return out
}

const expectSame = (pcm: Float32Array) => {
  const want = reference(pcm)
  const got = extracted(pcm)
  expect(got.frames).toBe(want.frames)
  for (const key of ["bandEnergy", "flatness", "pitch", "mfcc"] as const) {
    expect({ key, differences: differences(got[key], want[key]).slice(0, 5) }).toEqual({ key, differences: [] })
  }
}

describe("features: the plain formulas' values, to the bit", () => {
  it("a fixture call (speech, pauses)", async () => {
    const [pcm] = await decodeAll(fixture("discovery-short.wav"), "wav")
    expectSame(pcm!.subarray(0, 40 * ANALYSIS_RATE))
  })

  it("noise, tones, silence, clipping and a DC offset", () => {
    let seed = 12345
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1
    const seconds = 12
    const pcm = Float32Array.from({ length: seconds * ANALYSIS_RATE }, (_, i) => {
      const t = i / ANALYSIS_RATE
      const part = Math.floor(t / 2)
      if (part === 0) return 0.3 * random() // white noise
      if (part === 1) return 0.5 * Math.sin(2 * Math.PI * 180 * t) + 0.2 * Math.sin(2 * Math.PI * 360 * t) // a voiced-like tone
      if (part === 2) return 0 // digital silence
      if (part === 3) return Math.max(-1, Math.min(1, 3 * Math.sin(2 * Math.PI * 220 * t))) // clipped
      if (part === 4) return 0.25 + 1e-6 * random() // DC and a whisper of noise
      return 1e-7 * random() // almost nothing
    })
    expectSame(pcm)
  })
})
