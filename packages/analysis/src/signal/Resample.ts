/**
 * Streaming sample-rate conversion to the analysis rate (16 kHz), one channel at a time.
 *
 * A windowed-sinc (Blackman) polyphase filter: every output sample is a dot product of the input
 * around its exact position with one of a table of precomputed kernels. The kernel is centred on
 * the output instant, so the output keeps the input's timing (no delay to correct). When
 * downsampling the cut-off follows the output's Nyquist, so 44.1/48 kHz recordings do not fold
 * their upper band into the speech band the features look at. 8 zero crossings a side are
 * plenty for analysis (not for listening) and keep 48 → 16 kHz at ~52 taps per sample.
 */

export const ANALYSIS_RATE = 16_000

const ZERO_CROSSINGS = 8
const MAX_PHASES = 1024

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

export interface Resampler {
  /** Resample the next piece of input; returns what can already be computed. */
  readonly push: (input: Float32Array) => Float32Array
  /** The output still held back for lack of input after it (the signal ends in silence). */
  readonly flush: () => Float32Array
}

export interface ResamplerOptions {
  /**
   * `push` and `flush` answer a view of an output buffer that the next call overwrites (for a
   * caller that copies what it keeps); otherwise every answer is a new array.
   */
  readonly reuseOutput?: boolean
}

const passThrough: Resampler = { push: (input) => input, flush: () => new Float32Array(0) }

export const createResampler = (inRate: number, outRate: number = ANALYSIS_RATE, options: ResamplerOptions = {}): Resampler => {
  if (inRate === outRate) return passThrough
  const step = inRate / outRate // input samples per output sample
  // exact phases for the usual rational ratios (44.1k→16k is 441/160), a fine grid otherwise
  const divisor = gcd(inRate, outRate)
  const exactPhases = outRate / divisor
  const phases = exactPhases <= MAX_PHASES ? exactPhases : MAX_PHASES
  const cutoff = 0.5 * Math.min(1, 1 / step) * 0.92 // cycles per input sample
  const halfWidth = Math.ceil(ZERO_CROSSINGS / (2 * cutoff))
  const taps = 2 * halfWidth
  // kernel[p][k] weighs input (base - halfWidth + 1 + k) for an output at base + p / phases
  const kernels = new Float32Array(phases * taps)
  for (let p = 0; p < phases; p++) {
    const frac = p / phases
    let sum = 0
    for (let k = 0; k < taps; k++) {
      const t = k - halfWidth + 1 - frac // distance from the output instant, in input samples
      const x = 2 * cutoff * t
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x)
      const w = t / (halfWidth + 1) // -1..1 over the support
      const blackman = Math.abs(w) >= 1 ? 0 : 0.42 + 0.5 * Math.cos(Math.PI * w) + 0.08 * Math.cos(2 * Math.PI * w)
      const v = sinc * blackman
      kernels[p * taps + k] = v
      sum += v
    }
    // unity gain at DC for every phase
    for (let k = 0; k < taps; k++) kernels[p * taps + k]! /= sum
  }

  // `work` starts with the input from absolute index `historyStart` on that later outputs still
  // need (`historyLength` samples); each call appends its input there (and zeros at the end), so
  // the outputs read one contiguous view. It grows to the largest call's need and is reused.
  let work = new Float32Array(halfWidth * 2)
  let historyLength = halfWidth - 1 // the signal is preceded by silence (zeros)
  let historyStart = -(halfWidth - 1)
  let consumed = 0 // absolute input samples received
  let produced = 0 // absolute output samples emitted
  let output = new Float32Array(0)

  const run = (input: Float32Array, final: boolean): Float32Array => {
    const tail = final ? taps : 0
    const length = historyLength + input.length + tail
    if (length > work.length) {
      const grown = new Float32Array(Math.max(length, 2 * work.length))
      grown.set(work.subarray(0, historyLength))
      work = grown
    }
    const buffer = work
    buffer.set(input, historyLength)
    buffer.fill(0, historyLength + input.length, length)
    consumed += input.length
    const end = historyStart + length // absolute index one past the buffer
    const totalOut = final ? Math.ceil(consumed / step) : Infinity
    const capacity = Math.max(0, Math.ceil((end - historyStart) / step) + 2)
    const outBuffer = !options.reuseOutput ? new Float32Array(capacity) : output.length >= capacity ? output : (output = new Float32Array(capacity))
    // where output `p` reads (its first tap, relative to the buffer) and with which kernel; -1
    // when it is past the input (or the end of the signal)
    let kernelOf = 0
    const offsetOf = (p: number): number => {
      if (p >= totalOut) return -1
      const position = p * step
      let base = Math.floor(position)
      let phase = Math.round((position - base) * phases)
      if (phase === phases) {
        phase = 0
        base += 1
      }
      const first = base - halfWidth + 1
      if (first + taps > end) return -1
      kernelOf = phase * taps
      return first - historyStart
    }
    let n = 0
    // four outputs at a time when the input reaches the fourth (each sum waits on its own
    // additions only, so four run side by side; each adds its taps in order, as alone)
    for (;;) {
      const o3 = offsetOf(produced + 3)
      if (o3 < 0) break
      const k3 = kernelOf
      const o0 = offsetOf(produced), k0 = kernelOf
      const o1 = offsetOf(produced + 1), k1 = kernelOf
      const o2 = offsetOf(produced + 2), k2 = kernelOf
      let a0 = 0, a1 = 0, a2 = 0, a3 = 0
      for (let k = 0; k < taps; k++) {
        a0 += buffer[o0 + k]! * kernels[k0 + k]!
        a1 += buffer[o1 + k]! * kernels[k1 + k]!
        a2 += buffer[o2 + k]! * kernels[k2 + k]!
        a3 += buffer[o3 + k]! * kernels[k3 + k]!
      }
      outBuffer[n++] = a0
      outBuffer[n++] = a1
      outBuffer[n++] = a2
      outBuffer[n++] = a3
      produced += 4
    }
    for (;;) {
      const offset = offsetOf(produced)
      if (offset < 0) break
      const kernel = kernelOf
      let acc = 0
      for (let k = 0; k < taps; k++) acc += buffer[offset + k]! * kernels[kernel + k]!
      outBuffer[n++] = acc
      produced++
    }
    // keep what the next output needs: from its first tap on
    const nextFirst = Math.floor(produced * step) - halfWidth + 1
    const keepFrom = Math.max(0, Math.min(length, nextFirst - historyStart))
    buffer.copyWithin(0, keepFrom, length)
    historyLength = length - keepFrom
    historyStart += keepFrom
    return outBuffer.subarray(0, n)
  }

  return {
    push: (input) => run(input, false),
    flush: () => run(new Float32Array(0), true)
  }
}
