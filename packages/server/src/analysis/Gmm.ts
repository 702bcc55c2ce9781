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
  return { dims, components, means, precisions, constants }
}

/** Log-likelihood of `x[offset..offset+dims)` under the mixture (log-sum-exp over components). */
export const logLikelihood = (gmm: Gmm, x: ArrayLike<number>, offset = 0): number => {
  const { dims, components, means, precisions, constants } = gmm
  let max = -Infinity
  // two passes would be exact; a running log-sum-exp keeps it to one
  let sum = 0
  for (let c = 0; c < components; c++) {
    let q = 0
    const base = c * dims
    for (let d = 0; d < dims; d++) {
      const diff = x[offset + d]! - means[base + d]!
      q += diff * diff * precisions[base + d]!
    }
    const l = constants[c]! - 0.5 * q
    if (l > max) {
      sum = sum * Math.exp(max - l) + 1
      max = l
    } else {
      sum += Math.exp(l - max)
    }
  }
  return max + Math.log(sum)
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
  for (let it = 0; it < iterations; it++) {
    const sumW = new Float64Array(k)
    const sumX = new Float64Array(k * dims)
    const sumXX = new Float64Array(k * dims)
    for (let i = 0; i < n; i++) {
      const offset = i * dims
      let max = -Infinity
      for (let c = 0; c < k; c++) {
        let q = 0
        for (let d = 0; d < dims; d++) {
          const diff = data[offset + d]! - model.means[c * dims + d]!
          q += diff * diff * model.precisions[c * dims + d]!
        }
        resp[c] = model.constants[c]! - 0.5 * q
        if (resp[c]! > max) max = resp[c]!
      }
      let total = 0
      for (let c = 0; c < k; c++) {
        resp[c] = Math.exp(resp[c]! - max)
        total += resp[c]!
      }
      for (let c = 0; c < k; c++) {
        const r = resp[c]! / total
        if (r < 1e-4) continue
        sumW[c]! += r
        for (let d = 0; d < dims; d++) {
          const x = data[offset + d]!
          sumX[c * dims + d]! += r * x
          sumXX[c * dims + d]! += r * x * x
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
