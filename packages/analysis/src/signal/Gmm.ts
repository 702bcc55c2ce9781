/**
 * Diagonal-covariance Gaussian mixtures: the per-speaker voice models of the resegmentation.
 * Trained by a few EM iterations from a deterministic spread of starting means (no randomness:
 * the same call always gives the same analysis).
 */

export interface Gmm {
  readonly dims: number
  readonly components: number
  readonly means: Float64Array
  /** 1 / variance per component and dimension */
  readonly precisions: Float64Array
  /** log weight + log normaliser per component */
  readonly constants: Float64Array
  /**
   * `means` and `precisions` again, laid out for `componentScores`: components in groups of eight
   * (the last group padded with zeros), each group dimension by dimension, the eight side by side:
   * entry ((g · dims + d) · 8 + j) is component 8g + j's at dimension d.
   */
  readonly groupedMeans: Float64Array
  readonly groupedPrecisions: Float64Array
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

/**
 * The log density of `x[offset..offset+dims)` under each component (log weight included) into
 * `out[0..components)`. Eight components are summed side by side (from `groupedMeans` and
 * `groupedPrecisions`), each over its dimensions in order, so every value is the plain formula's
 * to the bit; only the eight independent sums overlap (one sum alone waits on each addition).
 */
export const componentScores = (gmm: Gmm, x: Float32Array, offset: number, out: Float64Array): void => {
  const dims = gmm.dims, components = gmm.components, constants = gmm.constants
  const means = gmm.groupedMeans, precisions = gmm.groupedPrecisions
  for (let c = 0, at = 0; c < components; c += 8) {
    let q0 = 0, q1 = 0, q2 = 0, q3 = 0, q4 = 0, q5 = 0, q6 = 0, q7 = 0
    for (let d = 0; d < dims; d++, at += 8) {
      const v = x[offset + d]!
      let e = v - means[at]!
      q0 += e * e * precisions[at]!
      e = v - means[at + 1]!
      q1 += e * e * precisions[at + 1]!
      e = v - means[at + 2]!
      q2 += e * e * precisions[at + 2]!
      e = v - means[at + 3]!
      q3 += e * e * precisions[at + 3]!
      e = v - means[at + 4]!
      q4 += e * e * precisions[at + 4]!
      e = v - means[at + 5]!
      q5 += e * e * precisions[at + 5]!
      e = v - means[at + 6]!
      q6 += e * e * precisions[at + 6]!
      e = v - means[at + 7]!
      q7 += e * e * precisions[at + 7]!
    }
    out[c] = constants[c]! - 0.5 * q0
    if (c + 1 < components) out[c + 1] = constants[c + 1]! - 0.5 * q1
    if (c + 2 < components) out[c + 2] = constants[c + 2]! - 0.5 * q2
    if (c + 3 < components) out[c + 3] = constants[c + 3]! - 0.5 * q3
    if (c + 4 < components) out[c + 4] = constants[c + 4]! - 0.5 * q4
    if (c + 5 < components) out[c + 5] = constants[c + 5]! - 0.5 * q5
    if (c + 6 < components) out[c + 6] = constants[c + 6]! - 0.5 * q6
    if (c + 7 < components) out[c + 7] = constants[c + 7]! - 0.5 * q7
  }
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
export const logLikelihood = (gmm: Gmm, x: Float32Array, offset = 0, scores = new Float64Array(gmm.components)): number => {
  componentScores(gmm, x, offset, scores)
  let max = -Infinity
  // two passes would be exact; a running log-sum-exp keeps it to one
  let sum = 0
  for (let c = 0; c < gmm.components; c++) {
    const l = scores[c]!
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
  const sumW = new Float64Array(k)
  const sumX = new Float64Array(k * dims)
  const sumXX = new Float64Array(k * dims)
  for (let it = 0; it < iterations; it++) {
    sumW.fill(0)
    sumX.fill(0)
    sumXX.fill(0)
    for (let i = 0; i < n; i++) {
      const offset = i * dims
      componentScores(model, data, offset, resp)
      let max = -Infinity
      let first = 0 // the first component at the maximum
      for (let c = 0; c < k; c++) {
        if (resp[c]! > max) {
          max = resp[c]!
          first = c
        }
      }
      // A term more than NEGLIGIBLE below the maximum (e^-40 < 2^-57) cannot change the total
      // once the maximum's 1 is in it (less than half its last bit), nor before it when every
      // term before it is as small (their sum, below 2^-54, vanishes when the 1 is added); and
      // its share is far below the 1e-4 that counts. Such terms are 0 here: no exponential.
      let smallBefore = true
      for (let c = 0; c < first; c++) if (!(resp[c]! - max < NEGLIGIBLE)) smallBefore = false
      let total = 0
      for (let c = 0; c < k; c++) {
        const l = resp[c]!
        // the maximum's own term is e^0 = 1
        resp[c] = l === max ? 1 : (c > first || smallBefore) && l - max < NEGLIGIBLE ? 0 : Math.exp(l - max)
        total += resp[c]!
      }
      for (let c = 0; c < k; c++) {
        const r = resp[c]! / total
        if (r < 1e-4) continue
        sumW[c]! += r
        const base = c * dims
        for (let d = 0; d < dims; d++) {
          const x = data[offset + d]!
          sumX[base + d]! += r * x
          sumXX[base + d]! += r * x * x
        }
      }
    }
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
