/**
 * Diagonal-covariance Gaussian mixtures: the per-speaker voice models of the resegmentation.
 * Trained by a few EM iterations from a deterministic spread of starting means (no randomness:
 * the same call always gives the same analysis).
 *
 * The arithmetic over a row's dimensions (the components' scores, the training's sums) runs in
 * the WebAssembly kernel (wasm/kernel.wat), two doubles at a time, to the bit the plain
 * formulas' (Gmm.test); the exponentials and the log-sum-exp stay here.
 */
import { kernel } from "./wasm/Kernel.js"

export interface Gmm {
  readonly dims: number
  readonly components: number
  readonly means: Float64Array
  /** 1 / variance per component and dimension */
  readonly precisions: Float64Array
  /** log weight + log normaliser per component */
  readonly constants: Float64Array
  /**
   * `means` and `precisions` again, laid out for the kernel's `gmmScores` (kernel.wat):
   * components in groups of eight (the last group padded with zeros), each group dimension by
   * dimension, the eight side by side: entry ((g · dims + d) · 8 + j) is component 8g + j's at
   * dimension d.
   */
  readonly groupedMeans: Float64Array
  readonly groupedPrecisions: Float64Array
  /** Where the kernel holds the mixture, once scored (`place`); set there, read nowhere else. */
  placement?: Placement
}

const VARIANCE_FLOOR = 1e-2

const finalize = (dims: number, components: number, weights: Float64Array, means: Float64Array, variances: Float64Array): Gmm => {
  const precisions = new Float64Array(components * dims)
  const constants = new Float64Array(components)
  for (let c = 0; c < components; c++) {
    let logDet = 0
    for (let d = 0; d < dims; d++) {
      const v = Math.max(VARIANCE_FLOOR, variances[c * dims + d]!)
      precisions[c * dims + d] = 1 / v
      logDet += Math.log(v)
    }
    constants[c] = Math.log(Math.max(weights[c]!, 1e-8)) - 0.5 * (logDet + dims * Math.log(2 * Math.PI))
  }
  const groupedMeans = new Float64Array(Math.ceil(components / 8) * 8 * dims)
  const groupedPrecisions = new Float64Array(groupedMeans.length)
  for (let c = 0; c < components; c++) {
    for (let d = 0; d < dims; d++) {
      const at = ((c >> 3) * dims + d) * 8 + (c & 7)
      groupedMeans[at] = means[c * dims + d]!
      groupedPrecisions[at] = precisions[c * dims + d]!
    }
  }
  return { dims, components, means, precisions, constants, groupedMeans, groupedPrecisions }
}

/** Where the kernel holds a mixture (`place`): valid while the kernel's generation is the same. */
interface Placement {
  readonly generation: number
  /** Byte offset of its block: grouped means, grouped precisions, padded constants. */
  readonly block: number
  readonly groups: number
  /** Byte offset of the scores in the scratch (the row to score is at 0). */
  readonly out: number
}

/** The mixture's placement in the kernel, placing it (again) when the kernel dropped it. */
const place = (gmm: Gmm): Placement => {
  const placed = gmm.placement
  if (placed !== undefined && placed.generation === kernel.generation) return placed
  const groups = Math.ceil(gmm.components / 8)
  const out = (gmm.dims * 4 + 15) & ~15
  kernel.scratch(out + groups * 64)
  const size = gmm.groupedMeans.length // groups · dims · 8
  const block = kernel.place((2 * size + groups * 8) * 8)
  const f64 = kernel.f64, at = block / 8
  f64.set(gmm.groupedMeans, at)
  f64.set(gmm.groupedPrecisions, at + size)
  f64.set(gmm.constants, at + 2 * size)
  f64.fill(0, at + 2 * size + gmm.components, at + 2 * size + groups * 8)
  const placement = { generation: kernel.generation, block, groups, out }
  gmm.placement = placement
  return placement
}

/** Writes `x[offset..offset+dims)` where the kernel's scores read their row (the scratch's start). */
const loadRow = (x: Float32Array, offset: number, dims: number): void => {
  kernel.scratch(dims * 4)
  const f32 = kernel.f32
  for (let d = 0; d < dims; d++) f32[d] = x[offset + d]!
}

/**
 * Scores the loaded row under each component in the kernel (`gmmScores` in kernel.wat): the log
 * density, log weight included, of component c is then at `kernel.f64[index + c]`, until the
 * kernel's next call. Eight components are summed side by side, each over its dimensions in
 * order, so every value is the plain formula's to the bit.
 */
const scoreLoaded = (gmm: Gmm): number => {
  const { block, groups, out } = place(gmm)
  kernel.exports.gmmScores(block, groups, gmm.dims, 0, out)
  return out / 8
}

/**
 * A component more than this (nats) below the running maximum cannot change the running sum, so
 * its exponential is not computed: e^-40 < 2^-57. Added to the sum (at least 1 once a maximum is
 * set) it is less than half the sum's last bit (2^-53 or more); and when a new maximum rescales
 * the old sum (at most one term per component, 8) by it, the product is below 2^-53 and adding 1
 * gives exactly 1.
 */
const NEGLIGIBLE = -40

/** Log-likelihood of `x[offset..offset+dims)` under the mixture (log-sum-exp over components). */
export const logLikelihood = (gmm: Gmm, x: Float32Array, offset = 0): number => {
  loadRow(x, offset, gmm.dims)
  return loadedLogLikelihood(gmm)
}

/**
 * The log-likelihoods of `x[offset..offset+dims)` under each of `models` into `out` (-Infinity
 * where there is no model): the row is handed to the kernel once for all of them.
 */
export const logLikelihoods = (models: ReadonlyArray<Gmm | undefined>, x: Float32Array, offset: number, out: Float64Array): void => {
  let loaded = false
  for (let s = 0; s < models.length; s++) {
    const model = models[s]
    if (model === undefined) {
      out[s] = -Infinity
      continue
    }
    if (!loaded) loadRow(x, offset, model.dims)
    loaded = true
    out[s] = loadedLogLikelihood(model)
  }
}

const loadedLogLikelihood = (gmm: Gmm): number => {
  const at = scoreLoaded(gmm)
  const scores = kernel.f64
  let max = -Infinity
  // two passes would be exact; a running log-sum-exp keeps it to one
  let sum = 0
  for (let c = 0; c < gmm.components; c++) {
    const l = scores[at + c]!
    if (l > max) {
      sum = max - l < NEGLIGIBLE ? 1 : sum * Math.exp(max - l) + 1
      max = l
    } else if (!(l - max < NEGLIGIBLE)) {
      sum += Math.exp(l - max)
    }
  }
  // every other component negligible: log 1 = 0
  return sum === 1 ? max : max + Math.log(sum)
}

/**
 * Fits a mixture to `n` rows of `dims` values (row-major in `data`). Starting means are rows
 * spread evenly through the data; `iterations` EM steps follow.
 */
export const trainGmm = (data: Float32Array, n: number, dims: number, components: number, iterations = 8): Gmm => {
  const k = Math.max(1, Math.min(components, Math.floor(n / (4 * dims)) || 1))
  const weights = new Float64Array(k).fill(1 / k)
  const means = new Float64Array(k * dims)
  const variances = new Float64Array(k * dims)
  // global variance as the starting variance of every component
  const globalMean = new Float64Array(dims)
  const globalVar = new Float64Array(dims)
  for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) globalMean[d]! += data[i * dims + d]! / n
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < dims; d++) {
      const diff = data[i * dims + d]! - globalMean[d]!
      globalVar[d]! += (diff * diff) / n
    }
  }
  for (let c = 0; c < k; c++) {
    const row = Math.floor(((c + 0.5) * n) / k)
    for (let d = 0; d < dims; d++) {
      means[c * dims + d] = data[row * dims + d]!
      variances[c * dims + d] = globalVar[d]!
    }
  }
  if (n === 0) return finalize(dims, k, weights, globalMean, globalVar.fill(1))
  let model = finalize(dims, k, weights, means, variances)
  const resp = new Float64Array(k)
  // the kernel's scratch while training: the row, its scores, the responsibilities, the sums
  const scoresAt = (dims * 4 + 15) & ~15
  const rAt = scoresAt + Math.ceil(k / 8) * 64
  const sumWAt = rAt + ((k * 8 + 15) & ~15)
  const sumXAt = sumWAt + ((k * 8 + 15) & ~15)
  const sumXXAt = sumXAt + k * dims * 8
  kernel.scratch(sumXXAt + k * dims * 8)
  for (let it = 0; it < iterations; it++) {
    kernel.f64.fill(0, sumWAt / 8, (sumXXAt + k * dims * 8) / 8)
    for (let i = 0; i < n; i++) {
      loadRow(data, i * dims, dims)
      const at = scoreLoaded(model)
      const f64 = kernel.f64 // after placing the model (the memory may have grown)
      let max = -Infinity
      let first = 0 // the first component at the maximum
      for (let c = 0; c < k; c++) {
        if (f64[at + c]! > max) {
          max = f64[at + c]!
          first = c
        }
      }
      // A term more than NEGLIGIBLE below the maximum (e^-40 < 2^-57) cannot change the total
      // once the maximum's 1 is in it (less than half its last bit), nor before it when every
      // term before it is as small (their sum, below 2^-54, vanishes when the 1 is added); and
      // its share is far below the 1e-4 that counts. Such terms are 0 here: no exponential.
      let smallBefore = true
      for (let c = 0; c < first; c++) if (!(f64[at + c]! - max < NEGLIGIBLE)) smallBefore = false
      let total = 0
      for (let c = 0; c < k; c++) {
        const l = f64[at + c]!
        // the maximum's own term is e^0 = 1
        resp[c] = l === max ? 1 : (c > first || smallBefore) && l - max < NEGLIGIBLE ? 0 : Math.exp(l - max)
        total += resp[c]!
      }
      // the responsibilities; the kernel adds the row into the sums of those ≥ 1e-4
      for (let c = 0; c < k; c++) f64[rAt / 8 + c] = resp[c]! / total
      kernel.exports.gmmAccumulate(0, rAt, k, dims, sumWAt, sumXAt, sumXXAt)
    }
    const f64 = kernel.f64
    const sumW = f64.subarray(sumWAt / 8, sumWAt / 8 + k)
    const sumX = f64.subarray(sumXAt / 8, sumXAt / 8 + k * dims)
    const sumXX = f64.subarray(sumXXAt / 8, sumXXAt / 8 + k * dims)
    for (let c = 0; c < k; c++) {
      const w = sumW[c]!
      weights[c] = w / n
      if (w < 1e-3) continue // an empty component keeps its place
      for (let d = 0; d < dims; d++) {
        const m = sumX[c * dims + d]! / w
        means[c * dims + d] = m
        variances[c * dims + d] = sumXX[c * dims + d]! / w - m * m
      }
    }
    model = finalize(dims, k, weights, means.slice(), variances)
  }
  return model
}
