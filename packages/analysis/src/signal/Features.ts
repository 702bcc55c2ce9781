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
import { createPairFft } from "./Fft.js"
import { ANALYSIS_RATE } from "./Resample.js"
import { kernel as wasm, placed } from "./wasm/Kernel.js"

export const FRAME_RATE = 100 // frames per second
export const HOP = ANALYSIS_RATE / FRAME_RATE // 160
export const FRAME = 400 // 25 ms
const FFT_SIZE = 512
const LEAD_IN = (FRAME - HOP) / 2 // 120: centres frame i on [i, i+1) hops
/** Samples per block of the frames' means: a frame is five blocks, a hop two (`Framer.frames`). */
const SUM_BLOCK = 80
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
/** The period is the first peak whose corrected autocorrelation is at least this share of the highest. */
const PERIOD_PEAK_SHARE = 0.85

/** A growable table of `dims` floats per frame, in fixed blocks so growing never copies. */
export class FrameMatrix {
  static readonly BLOCK = 8192
  private readonly blocks: Array<Float32Array> = []
  length = 0
  constructor(readonly dims: number) {}

  push(values: ArrayLike<number>): void {
    const block = this.append()
    const at = this.offset(this.length - 1)
    for (let d = 0; d < this.dims; d++) block[at + d] = values[d]!
  }

  /**
   * Adds a frame and answers its storage, for the caller to write its `dims` values at
   * `offset(length - 1)` (no copy through another array).
   */
  append(): Float32Array {
    const block = this.length % FrameMatrix.BLOCK === 0 ? this.grow() : this.blocks[this.blocks.length - 1]!
    this.length++
    return block
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

/** An ArrayBuffer that grows in place (ES2024; Node ≥ 20). */
interface ResizableArrayBuffer extends ArrayBuffer {
  readonly maxByteLength: number
  resize(byteLength: number): void
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer

/**
 * A growable series of one float per frame, whose values end up in one Float32Array of the
 * exact length without being copied: the buffer is resizable and grows in place (its maximum is
 * address space reserved, not memory; pages are used as the series fills them). Past the maximum
 * (46 hours) it moves to a buffer with a larger one.
 */
export class FrameSeries {
  static readonly STEP = 64 * 1024 // bytes added at a time
  private buffer = new ResizableArrayBuffer(0, { maxByteLength: 64 * 1024 * 1024 })
  private data = new Float32Array(this.buffer) // tracks the buffer's length
  length = 0
  push(value: number): void {
    if (this.length === this.data.length) this.grow()
    this.data[this.length++] = value
  }
  private grow(): void {
    const size = this.buffer.byteLength + FrameSeries.STEP
    if (size <= this.buffer.maxByteLength) {
      this.buffer.resize(size)
      return
    }
    const larger = new ResizableArrayBuffer(size, { maxByteLength: 2 * this.buffer.maxByteLength })
    new Uint8Array(larger).set(new Uint8Array(this.buffer))
    this.buffer = larger
    this.data = new Float32Array(larger)
  }
  /** The first `length` values (zeros past the end) as one array; the series starts again. */
  take(length: number): Float32Array {
    while (this.data.length < length) this.grow()
    const values = new Float32Array(this.buffer, 0, length)
    this.buffer = new ResizableArrayBuffer(0, { maxByteLength: this.buffer.maxByteLength })
    this.data = new Float32Array(this.buffer)
    this.length = 0
    return values
  }
}

export interface ChannelFeatures {
  /** Speech-band (300–3400 Hz) log energy, dB. */
  readonly bandEnergy: Float32Array
  /** Spectral flatness of the speech band, dB (0 = white noise, very negative = tonal/harmonic). */
  readonly flatness: Float32Array
}

export interface CallFeatures {
  readonly frames: number
  readonly durationS: number
  readonly channels: ReadonlyArray<ChannelFeatures>
  /**
   * MFCCs c1..c19 of the mix (the mono channel, or the mean of the two): `MFCC_KEPT` values per
   * frame. c0, the frame's loudness, is not kept: it says more about the microphone than the
   * voice, and nothing reads it.
   */
  readonly mfcc: FrameMatrix
  /** Pitch of the mix, Hz; 0 where unvoiced. */
  readonly pitch: Float32Array
  /** Correlation of the two channels' samples (stereo only): near 1 means the same signal. */
  readonly channelCorrelation: number | undefined
}

/** MFCCs kept per frame (c1..c19). */
export const MFCC_KEPT = MFCC_DIMS - 1

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

/** DCT-II rows for c0..c(rows-1) over the mel bands, orthonormal. */
const dctMatrix = (rows: number): Float32Array => {
  const m = new Float32Array(rows * MEL_BANDS)
  for (let c = 0; c < rows; c++) {
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

/** The speech band's first and last bins. */
const BAND_LOW = Math.round((BAND_LOW_HZ * FFT_SIZE) / ANALYSIS_RATE)
const BAND_HIGH = Math.round((BAND_HIGH_HZ * FFT_SIZE) / ANALYSIS_RATE)
/** Band powers multiplied together before one logarithm is taken (`band`). */
const FLATNESS_CHUNK = 10
/** The runs of FLATNESS_CHUNK band powers (the last may be shorter). */
const BAND_RUNS = Math.ceil((BAND_HIGH - BAND_LOW + 1) / FLATNESS_CHUNK)
/** The band powers the bound below holds for (the least is EPS); a larger one takes the sum of logs. */
const MAX_BAND_POWER = 1e10
/**
 * How far (dB) the flatness from the logs of products can be from the one from the sum of logs,
 * with margin. Every |log p| is at most 23.1 (p in [1e-10, 1e10]): the 100 logarithms (< 1 ulp
 * each) and the partial sums (at most 2310, half an ulp each) put the sum of logs within 2.6e-11
 * of the exact sum; the 10 products (9 roundings each), their logarithms and sums put the other
 * within 3e-12. Divided by 100 and scaled by 10/ln 10, and with the roundings of those steps,
 * the two flatness values differ by less than 2e-12 dB; the bound is 50 times that.
 */
const FLATNESS_BOUND = 1e-10

/**
 * A pitch candidate whose autocorrelation is below `threshold · r0 · window` by more than this
 * relative margin cannot beat the threshold once divided out (the divisions round by far less),
 * so it is skipped without dividing.
 */
const BOUND_MARGIN = 1 - 1e-9

/**
 * Frames → spectrum-derived features; shared buffers, one instance per stream. Frames are
 * transformed two at a time in the WebAssembly kernel (`createPairFft`, frame A in one lane,
 * B in the other: each frame's spectrum is its own transform's, to the bit), and so are the sums
 * and searches after the transform (the band's, the cepstra's, the pitch's), each lane's values
 * its own frame's; the logarithms, which WebAssembly has not, are taken here frame by frame.
 *
 * The speech band's sums (`band`) and the pitch's peak search (`pitch`) moved into the kernel
 * (`bandPair`, `pitchPair`) from per-frame JavaScript loops, and with them the JavaScript copies
 * of each frame's power spectrum and autocorrelation went (the kernel's memory is read instead):
 * the features of a 60-minute mono call, 1,556 → 1,252 ms CPU (medians of 6 alternated runs;
 * the pitch ~10 %, the band ~4 %, the copies ~6 %), the same features to the bit.
 */
const createFrameKernel = () => {
  const fft = createPairFft(FFT_SIZE)
  const pitchFft = createPairFft(PITCH_FFT_SIZE)
  const BINS = FFT_SIZE / 2 + 1
  // the kernel's scratch (bytes): the two frames' inputs (two doubles a slot), their spectra,
  // their powers (read there by the band, the cepstra and the autocorrelation; JavaScript keeps
  // no copy); the pitch transform's inputs and outputs
  const INPUT = 0
  const SPECTRA = INPUT + FFT_SIZE * 16
  const POWERS = SPECTRA + 2 * FFT_SIZE * 16
  const PITCH_INPUT = POWERS + BINS * 16
  const PITCH_OUTPUT = PITCH_INPUT + PITCH_FFT_SIZE * 16
  const MELS = PITCH_OUTPUT + 2 * PITCH_FFT_SIZE * 16
  const CEPSTRA = MELS + MEL_BANDS * 16
  const SAMPLES = CEPSTRA + MFCC_KEPT * 16 // the two frames' samples (floats), B's HOP after A's
  const BANDS = SAMPLES + (HOP + FRAME) * 4 // `bandPair`'s products, sums and range flags
  const PITCHES = BANDS + (BAND_RUNS + 2) * 16 // `pitchPair`'s two pitches
  const SCRATCH = PITCHES + 16
  // the cepstra's tables in the kernel: each mel filter's first bin and length (i32s), their
  // weights one filter after the other, the DCT's rows c1..c19 (c0 is not kept)
  const filters = melFilters()
  const weightCount = filters.reduce((n, f) => n + f.weights.length, 0)
  const FIRSTS = 0, COUNTS = FIRSTS + 4 * MEL_BANDS, WEIGHTS = COUNTS + 4 * MEL_BANDS, DCT = WEIGHTS + 8 * weightCount
  const cepstrumTables = placed(DCT + 8 * MFCC_KEPT * MEL_BANDS, (at) => {
    const i32 = new Int32Array(wasm.f64.buffer)
    filters.forEach((f, m) => {
      i32[(at + FIRSTS) / 4 + m] = f.first
      i32[(at + COUNTS) / 4 + m] = f.weights.length
    })
    wasm.f64.set(Float64Array.from(filters.flatMap((f) => [...f.weights])), (at + WEIGHTS) / 8)
    wasm.f64.set(Float64Array.from(dctMatrix(MFCC_DIMS).subarray(MEL_BANDS)), (at + DCT) / 8)
  })
  const windowTable = placed(FRAME * 8, (at) => wasm.f64.set(hamming, at / 8))
  const windowCorrelation = windowAutocorrelation()
  const windowCorrelationTable = placed(windowCorrelation.length * 8, (at) => wasm.f64.set(windowCorrelation, at / 8))

  /**
   * Writes the inputs of the frames at `samples[at..]` (A) and, with `lanes` 2, HOP samples later
   * (B), whose means (their samples' sums over FRAME, summed in order) are `meanA` and `meanB`
   * (the zeros after them: `each`): pre-emphasised, which flattens speech's spectral tilt so high
   * bands count in the cepstrum, and windowed, in the kernel (`windowPair`).
   */
  const analyse = (lanes: number, samples: Float32Array, at: number, meanA: number, meanB: number): void => {
    const hop = lanes === 2 ? HOP : 0
    wasm.f32.set(samples.subarray(at, at + hop + FRAME), SAMPLES / 4)
    wasm.exports.windowPair(SAMPLES, hop, meanA, lanes === 2 ? meanB : meanA, windowTable(), FRAME, INPUT)
  }

  /**
   * Transforms both lanes' inputs into their power spectra (POWERS: slot k, bin k of A and of B;
   * a lone frame, `lanes` 1 in `analyse`, is in both lanes).
   */
  const transform = (): void => {
    fft(INPUT, SPECTRA)
    // re² + im² per bin, two frames at a time
    wasm.exports.powerPair(SPECTRA, POWERS, BINS)
  }

  /**
   * The autocorrelation of both lanes, as the pitch reads it (PITCH_OUTPUT): the transform of each
   * power spectrum, mirrored to the half-size transform's length.
   */
  const correlate = (): void => {
    const half = PITCH_FFT_SIZE / 2
    const f64 = wasm.f64
    const power = POWERS / 8, input = PITCH_INPUT / 8
    // slots 0..half: the powers' (both lanes at once); slot PITCH_FFT_SIZE - k: slot k's
    f64.copyWithin(input, power, power + 2 * (half + 1))
    for (let k = 1; k < half; k++) {
      const to = input + 2 * (PITCH_FFT_SIZE - k), from = power + 2 * k
      f64[to] = f64[from]!
      f64[to + 1] = f64[from + 1]!
    }
    pitchFft(PITCH_INPUT, PITCH_OUTPUT)
  }

  /** Both lanes' pitch from their autocorrelation, in the kernel (PITCHES; see `pitch`). */
  const pitches = (): void => {
    const window = windowCorrelationTable()
    wasm.exports.pitchPair(
      PITCH_OUTPUT,
      window,
      PITCH_MIN_LAG,
      PITCH_MAX_LAG,
      VOICING_THRESHOLD,
      BOUND_MARGIN,
      PERIOD_PEAK_SHARE,
      PITCH_RATE,
      PITCHES
    )
  }

  /**
   * Every frame of a batch (at `starts[i]` in `samples`, of mean `means[i]`), two at a time:
   * transformed, with its speech band's sums for `band` when `withBand` (a channel), and its
   * cepstra and pitch when `withCepstra` (the mix), then `emit(lane)` for each, in frame order.
   */
  const each = (
    samples: Float32Array,
    starts: Int32Array,
    means: Float64Array,
    count: number,
    withBand: boolean,
    withCepstra: boolean,
    emit: (lane: number) => void
  ): void => {
    wasm.scratch(SCRATCH)
    // both lanes' inputs past the frame: zeros, the transform's padding (the scratch is shared:
    // written once a batch, as nothing else writes there until it ends)
    wasm.f64.fill(0, INPUT / 8 + 2 * FRAME, SPECTRA / 8)
    for (let f = 0; f < count; f += 2) {
      const lanes = Math.min(2, count - f)
      analyse(lanes, samples, starts[f]!, means[f]!, means[f + 1]!)
      transform()
      // both lanes' band sums (BANDS), for `band`
      if (withBand) wasm.exports.bandPair(POWERS, BAND_LOW, BAND_HIGH, FLATNESS_CHUNK, EPS, MAX_BAND_POWER, BANDS)
      if (withCepstra) {
        cepstra(lanes)
        correlate()
        pitches()
      }
      for (let lane = 0; lane < lanes; lane++) emit(lane)
    }
  }

  /**
   * Speech-band energy (dB) and flatness (dB) of lane `lane`'s frame.
   *
   * The flatness needs the sum of the band's 100 log powers, and 100 logarithms are the larger
   * part of a frame's cost here. It is kept as a Float32, whose rounding is some 10^5 times
   * coarser than the double's, so it is first taken from the logs of products of ten powers
   * (10 logarithms): that value is within FLATNESS_BOUND of the sum of logs (see there), so when
   * every value within that distance rounds to the same Float32, it is the Float32 the sum of
   * logs gives. Only otherwise are the 100 logs summed: near a rounding boundary, and around 0 dB
   * (digital silence: all powers equal), where Float32 steps are as fine as the bound.
   *
   * The sums and products (both lanes at once) are the kernel's (`bandPair`, run by `each`): the
   * same operations in the same order as this function did them in JavaScript, so the same
   * values; the logarithms are taken here. In JavaScript that loop cost ~4 % of the features.
   */
  const band = (lane: number, out: { energy: number; flatness: number }) => {
    const sums = wasm.f64
    const at = BANDS / 8 + lane
    let chunkLogs = 0
    for (let r = 0; r < BAND_RUNS; r++) chunkLogs += Math.log(sums[at + 2 * r]!)
    const sum = sums[at + 2 * BAND_RUNS]!
    const inRange = sums[at + 2 * BAND_RUNS + 2] === 0
    const n = BAND_HIGH - BAND_LOW + 1
    const level = Math.log(sum / n)
    out.energy = 10 * Math.log10(sum / (FRAME * FRAME) + EPS)
    const fast = (10 / Math.LN10) * (chunkLogs / n - level)
    if (inRange && Math.fround(fast - FLATNESS_BOUND) === Math.fround(fast + FLATNESS_BOUND)) {
      out.flatness = fast
      return
    }
    const power = wasm.f64
    let logSum = 0
    for (let k = BAND_LOW, j = POWERS / 8 + 2 * BAND_LOW + lane; k <= BAND_HIGH; k++, j += 2) logSum += Math.log(power[j]! + EPS)
    out.flatness = (10 / Math.LN10) * (logSum / n - level)
  }

  /**
   * The cepstra of the transformed lanes (both at once, in the kernel): the mel filterbank's
   * energies, their logarithms (here), and the DCT. Every band's and every coefficient's sum
   * keeps its order.
   */
  const cepstra = (lanes: number): void => {
    const tables = cepstrumTables()
    wasm.exports.melPair(POWERS, tables + FIRSTS, tables + COUNTS, tables + WEIGHTS, MEL_BANDS, MELS)
    const mels = wasm.f64
    for (let j = MELS / 8, end = j + 2 * MEL_BANDS; j < end; j += 2) {
      mels[j] = Math.log(mels[j]! + 1e-6)
      if (lanes === 2) mels[j + 1] = Math.log(mels[j + 1]! + 1e-6)
    }
    wasm.exports.dctPair(MELS, tables + DCT, MFCC_KEPT, MEL_BANDS, CEPSTRA)
  }

  /** MFCCs c1..c19 of lane `lane`'s frame (`cepstra`) into `out[offset..offset+MFCC_KEPT)`. */
  const mfcc = (lane: number, out: Float32Array, offset: number) => {
    const cepstrum = wasm.f64
    for (let c = 0, j = CEPSTRA / 8 + lane; c < MFCC_KEPT; c++, j += 2) out[offset + c] = cepstrum[j]!
  }

  /**
   * Pitch of lane `lane`'s frame, Hz, or 0 when unvoiced: the autocorrelation (`correlate`) is
   * the transform of the power spectrum; its highest peak in the 70–400 Hz lag range, corrected
   * for the window, is the period when it is strong enough. The peaks are looked for in the
   * kernel (`pitchPair`, run by `each`, both lanes at once; the same operations as the JavaScript
   * loop that did it frame by frame, ~10 % of the features' CPU, so the same pitch): the window
   * correction lifts long lags, so the period is the shortest lag whose peak comes close to the
   * highest (no sub-octave errors), refined by a parabola through it for sub-sample precision.
   */
  const pitch = (lane: number): number => wasm.f64[PITCHES / 8 + lane]!

  return { each, band, mfcc, pitch }
}

/** Holds the not-yet-framed samples of one stream. */
class Framer {
  private buffer: Float32Array
  private length: number
  /** The sums of the buffer's 80-sample blocks, for the frames' means. */
  private blockSums = new Float64Array(0)
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
  /** The complete frames' starts in the buffer and their means, for `frames`' callback. */
  private starts = new Int32Array(0)
  private means = new Float64Array(0)

  /**
   * Calls `each(buffer, starts, means, count)` once with every complete frame (frame i at
   * `buffer[starts[i]..]`, of mean `means[i]`), then drops the consumed samples. The means are sums of 80-sample blocks (a frame is five of them,
   * a hop two): each sample is added once, not 2.5 times, and a mean is within 1e-12 of the
   * frame's own sum in order (audio in [-1, 1]), far below the Float32 features it shifts.
   */
  frames(each: (buffer: Float32Array, starts: Int32Array, means: Float64Array, count: number) => void): number {
    const count = this.length >= FRAME ? Math.floor((this.length - FRAME) / HOP) + 1 : 0
    if (count === 0) return 0
    const blocks = ((count - 1) * HOP + FRAME) / SUM_BLOCK
    if (this.blockSums.length < blocks) this.blockSums = new Float64Array(2 * blocks)
    const b = this.buffer
    const sums = this.blockSums
    for (let j = 0, at = 0; j < blocks; j++) {
      let sum = 0
      for (const end = at + SUM_BLOCK; at < end; at++) sum += b[at]!
      sums[j] = sum
    }
    if (this.starts.length < count) {
      this.starts = new Int32Array(2 * count)
      this.means = new Float64Array(2 * count)
    }
    for (let k = 0, j = 0; k < count; k++, j += HOP / SUM_BLOCK) {
      this.starts[k] = k * HOP
      this.means[k] = (sums[j]! + sums[j + 1]! + sums[j + 2]! + sums[j + 3]! + sums[j + 4]!) / FRAME
    }
    each(b, this.starts, this.means, count)
    const at = count * HOP
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
    bandEnergy: new FrameSeries(),
    flatness: new FrameSeries()
  }))
  const mix = channelCount === 1 ? undefined : { framer: new Framer(), kernel: createFrameKernel() }
  const mfcc = new FrameMatrix(MFCC_KEPT)
  const pitch = new FrameSeries()
  const bandOut = { energy: 0, flatness: 0 }
  let samples = 0
  let sumLR = 0, sumLL = 0, sumRR = 0
  let mid = new Float32Array(0)

  const run = () => {
    for (const ch of channels) {
      ch.framer.frames((buffer, starts, means, count) =>
        ch.kernel.each(buffer, starts, means, count, true, !mix, (lane) => {
          ch.kernel.band(lane, bandOut)
          ch.bandEnergy.push(bandOut.energy)
          ch.flatness.push(bandOut.flatness)
          if (!mix) {
            ch.kernel.mfcc(lane, mfcc.append(), mfcc.offset(mfcc.length - 1))
            pitch.push(ch.kernel.pitch(lane))
          }
        })
      )
    }
    mix?.framer.frames((buffer, starts, means, count) =>
      mix.kernel.each(buffer, starts, means, count, false, true, (lane) => {
        mix.kernel.mfcc(lane, mfcc.append(), mfcc.offset(mfcc.length - 1))
        pitch.push(mix.kernel.pitch(lane))
      })
    )
  }

  const push = (chunk: ReadonlyArray<Float32Array>) => {
    const n = chunk[0]!.length
    samples += n
    chunk.forEach((data, c) => channels[c]!.framer.append(data))
    if (mix) {
      const left = chunk[0]!, right = chunk[1]!
      if (mid.length < n) mid = new Float32Array(n)
      for (let i = 0; i < n; i++) {
        const l = left[i]!, r = right[i]!
        mid[i] = 0.5 * (l + r)
        sumLR += l * r
        sumLL += l * l
        sumRR += r * r
      }
      mix.framer.append(mid.subarray(0, n))
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
      channels: channels.map((ch) => ({ bandEnergy: ch.bandEnergy.take(frames), flatness: ch.flatness.take(frames) })),
      mfcc,
      pitch: pitch.take(frames),
      channelCorrelation: mix ? sumLR / Math.sqrt(sumLL * sumRR + EPS) : undefined
    }
  }

  return { push, finish }
}
