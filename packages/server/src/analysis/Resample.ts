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

const passThrough: Resampler = { push: (input) => input, flush: () => new Float32Array(0) }

export const createResampler = (inRate: number, outRate: number = ANALYSIS_RATE): Resampler => {
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

  // `history` holds the input from absolute index `historyStart` on that later outputs still need
  let history = new Float32Array(halfWidth * 2)
  let historyLength = halfWidth - 1 // the signal is preceded by silence (zeros)
  let historyStart = -(halfWidth - 1)
  let consumed = 0 // absolute input samples received
  let produced = 0 // absolute output samples emitted

  const run = (input: Float32Array, final: boolean): Float32Array => {
    // one contiguous view: the kept history, then the new input (then zeros at the end)
    const tail = final ? taps : 0
    const length = historyLength + input.length + tail
    const buffer = length <= history.length ? history : new Float32Array(length)
    if (buffer !== history) buffer.set(history.subarray(0, historyLength))
    buffer.set(input, historyLength)
    buffer.fill(0, historyLength + input.length, length)
    consumed += input.length
    const end = historyStart + length // absolute index one past the buffer
    const totalOut = final ? Math.ceil(consumed / step) : Infinity
    const outBuffer = new Float32Array(Math.max(0, Math.ceil((end - historyStart) / step) + 2))
    let n = 0
    for (;;) {
      if (produced >= totalOut) break
      const position = produced * step
      let base = Math.floor(position)
      let phase = Math.round((position - base) * phases)
      if (phase === phases) {
        phase = 0
        base += 1
      }
      const first = base - halfWidth + 1
      if (first + taps > end) break
      const offset = first - historyStart
      const kernel = phase * taps
      let acc = 0
      for (let k = 0; k < taps; k++) acc += buffer[offset + k]! * kernels[kernel + k]!
      outBuffer[n++] = acc
      produced++
    }
    // keep what the next output needs: from its first tap on
    const nextFirst = Math.floor(produced * step) - halfWidth + 1
    const keepFrom = Math.max(0, Math.min(length, nextFirst - historyStart))
    const keep = length - keepFrom
    if (history.length < keep) history = new Float32Array(keep * 2)
    history.set(buffer.subarray(keepFrom, length), 0)
    historyLength = keep
    historyStart += keepFrom
    return outBuffer.subarray(0, n)
  }

  return {
    push: (input) => run(input, false),
    flush: () => run(new Float32Array(0), true)
  }
}
